// Context settings: everything a context is made from, as one constexpr value.
//
//   constexpr auto settings = strata::settings()
//       .fixed_entity_limit<100'000>()        // or .dynamic_entity_limit(4096)
//       .allow_inner_parallelism()             // or .disallow_... (default)
//       .component_signatures(components)
//       .system_signatures(systems)
//       .resources(strata::resources(strata::resource<grid>))  // none
//       .checked_access()                      // debug aid, off by default
//       .scheduler(strata::scheduler::atomic_counter)  // default: sequential
//       .threads(4)                            // default: hardware threads
//       .hand_off(strata::hand_off::never)     // default: automatic
//       .run_policy(strata::run_policy::fixed)  // default: adaptive
//       .refresh_parallelism(true)             // default: true
//       .trace()                               // default: off
//       .hooks(strata::component_hooks(...))   // none (context/hooks.h)
//       .hierarchy(strata::kill_children);     // default: none
//
// Each option may be set once: a second call is a compile error naming it.
// What shapes types (limit kind and size, signatures, scheduler, inner
// parallelism) is carried in the settings' type; run-time numbers (threads,
// the dynamic limit's initial capacity, strategy parameters) in its value.
// The lists are checked against each other as soon as the settings hold
// both (every component a system names is stored, every resource it uses
// declared), so such a misuse is reported on the settings' own line;
// `make_context(settings)` checks the same for settings that never set one
// of them, then that systems without system_arguments can be
// default-constructed and that `.hash_map()` storage has its header, and
// builds the context.
//
// The settings' type holds the options set, in the order they were set,
// and nothing for an option left at its default: a list, a limit, a
// relation, a built-in scheduler, a run policy or a hand-off mode stands
// for itself, a run-time number or a flag for an entry named after its
// setter (which holds the number), so
// `settings().component_signatures(c).system_signatures(s).threads(n)` is a
// `strata::settings_t<strata::components<...>, strata::systems<...>,
// strata::threads>`: it reads as the calls made. Compilers spell that type
// in every note about a context made from settings passed by value
// (make_context(settings)), so every type in it has a short name in
// namespace strata and holds only what was set (strata::group for a
// component signature, a system list spelled flat: see their headers);
// make_context<settings>() spells `named_settings<settings>` instead.
#ifndef STRATA_CONTEXT_SETTINGS_H_
#define STRATA_CONTEXT_SETTINGS_H_

#include <cstddef>
#include <type_traits>

#include "base/limit.h"
#include "component_storage/component_signature.h"
#include "context/hierarchy.h"
#include "context/hooks.h"
#include "context/resources.h"
#include "meta/diagnostic.h"
#include "meta/option_map.h"
#include "meta/type_list.h"
#include "scheduler/atomic_counter.h"
#include "scheduler/dag.h"
#include "scheduler/hand_off.h"
#include "scheduler/sequential.h"
// Last, so that the headers above, whose rules a misuse in the settings
// fires, are named as included from here (a shorter include stack).
#include "context/internal/settings_checks.h"
#include "context/internal/settings_entries.h"

namespace strata {

// The settings' type: the entries of the options set, in the order they
// were set (`strata::settings_t<strata::components<...>,
// strata::systems<...>, strata::threads>`), nothing for an option left at
// its default. Compilers spell it in every note about a context made from
// settings passed by value, so it holds no keys, no defaults and no wrapper
// a value does not need, and the types in it have short names in namespace
// strata; the defaults are context_internal::context_defaults
// (internal/settings_entries.h).
template <typename... Entries>
struct settings_t {
  base_internal::flat_tuple<Entries...> options;

 private:
  using keys = type_list<settings_internal::key_of<Entries>...>;

 public:
  template <typename Key>
  static constexpr bool is_set = contains_v<Key, keys>;

  // The value of Key: the one set, else its default.
  template <typename Key>
  constexpr const auto& get() const {
    constexpr std::size_t index = index_of_v<Key, keys>;
    if constexpr (index < sizeof...(Entries)) {
      return settings_internal::value_of(base_internal::get<index>(options));
    } else {
      return context_internal::context_defaults::value.template get<Key>();
    }
  }

  // The type of Key's value.
  template <typename Key>
  using value_type = typename settings_internal::value_type_of<
      Key, context_internal::context_defaults, Entries...>::type;

  template <std::size_t N>
  constexpr auto fixed_entity_limit() const {
    static_assert(N > 0, "fixed_entity_limit<N>(): N must be at least 1");
    return set(settings_internal::once<context_keys::entity_limit, keys>,
               fixed_limit<N>{});
  }
  constexpr auto dynamic_entity_limit(std::size_t initial_capacity = 0) const {
    return set(settings_internal::once<context_keys::entity_limit, keys>,
               dynamic_limit{initial_capacity});
  }
  // Lets a system run as several subtasks at once, each over a slice of
  // its entities (scheduler/inner_parallelism.h; a system without
  // .parallelism(...) uses inner_parallelism::automatic(), which splits only
  // when the measured cost says it pays). The subtasks share the system object,
  // so a system that may split receives it as const (context/data_proxy.h,
  // the split rule): a system whose process() writes its own members (an
  // accumulator, a frame buffer) says
  // .parallelism(strata::inner_parallelism::none()) or keeps per-subtask
  // state in data.output().
  constexpr auto allow_inner_parallelism() const {
    return set(settings_internal::once<context_keys::inner_parallelism, keys>,
               ::strata::allow_inner_parallelism{});
  }
  constexpr auto disallow_inner_parallelism() const {
    return set(settings_internal::once<context_keys::inner_parallelism, keys>,
               ::strata::disallow_inner_parallelism{});
  }
  // The lists are checked against each other as soon as the settings hold
  // both (every component a system names is stored, every resource it uses
  // declared), so a misuse is reported where the settings are defined.
  template <typename ComponentList>
  constexpr auto component_signatures(ComponentList list) const {
    if constexpr (!is_component_signature_list_v<ComponentList>) {
      diagnostic::report(diagnostic::not_component_signatures<ComponentList>);
    } else if constexpr (is_set<context_keys::systems>) {
      using missing =
          dag_internal::unstored_component<ComponentList, system_list_type>;
      if constexpr (missing::found) {
        diagnostic::report(
            diagnostic::system_component_not_stored<typename missing::system,
                                                    typename missing::item>);
      }
    }
    return set(settings_internal::once<context_keys::components, keys>, list);
  }
  template <typename SystemList>
  constexpr auto system_signatures(SystemList list) const {
    if constexpr (!is_system_signature_list_v<SystemList>) {
      diagnostic::report(diagnostic::not_system_signatures<SystemList>);
    } else {
      using unstored =
          dag_internal::unstored_component<component_list_type, SystemList>;
      using undeclared =
          dag_internal::undeclared_resource<resource_list_type, SystemList>;
      if constexpr (is_set<context_keys::components> && unstored::found) {
        diagnostic::report(
            diagnostic::system_component_not_stored<typename unstored::system,
                                                    typename unstored::item>);
      } else if constexpr (is_set<context_keys::resources> &&
                           undeclared::found) {
        diagnostic::report(
            diagnostic::system_resource_not_declared<
                typename undeclared::system, typename undeclared::item>);
      }
    }
    return set(settings_internal::once<context_keys::systems, keys>, list);
  }
  template <typename ResourceList>
  constexpr auto resources(ResourceList list) const {
    if constexpr (!is_resource_list_v<ResourceList>) {
      diagnostic::report(diagnostic::not_resources<ResourceList>);
    } else if constexpr (is_set<context_keys::systems>) {
      using missing =
          dag_internal::undeclared_resource<ResourceList, system_list_type>;
      if constexpr (missing::found) {
        diagnostic::report(
            diagnostic::system_resource_not_declared<typename missing::system,
                                                     typename missing::item>);
      }
    }
    return set(settings_internal::once<context_keys::resources, keys>, list);
  }
  // A debugging aid: every component access of data.for_each goes through
  // the entity's id, checking that it is alive and has the component, as
  // access to non-contiguous storage does; also forces that slower path.
  constexpr auto checked_access() const {
    return set(settings_internal::once<context_keys::checked_access, keys>,
               ::strata::checked_access{});
  }
  // When the threaded scheduler hands work to other threads
  // (scheduler/hand_off.h): hand_off::automatic (default, from measured
  // costs), hand_off::always, hand_off::never.
  constexpr auto hand_off(strata::hand_off mode) const {
    return set(settings_internal::once<context_keys::hand_off, keys>, mode);
  }
  // Who makes those decisions (scheduler/hand_off.h): run_policy::adaptive
  // (default, from measured costs) or run_policy::fixed (from the settings
  // alone; nothing measured).
  constexpr auto run_policy(::strata::run_policy::fixed_t policy) const {
    return set(settings_internal::once<context_keys::run_policy, keys>, policy);
  }
  constexpr auto run_policy(::strata::run_policy::adaptive_t policy) const {
    return set(settings_internal::once<context_keys::run_policy, keys>, policy);
  }
  template <typename Scheduler>
  constexpr auto scheduler(Scheduler s) const {
    return set(settings_internal::once<context_keys::scheduler, keys>, s);
  }
  // Threads that run systems, the calling thread included (so n - 1 pool
  // workers). 0 means std::thread::hardware_concurrency().
  constexpr auto threads(std::size_t n) const {
    return set(settings_internal::once<context_keys::threads, keys>,
               ::strata::threads{n});
  }
  constexpr auto refresh_parallelism(bool enabled) const {
    return set(settings_internal::once<context_keys::refresh_parallelism, keys>,
               ::strata::refresh_parallelism{enabled});
  }
  // Records which thread ran each system and subtask, and when (see
  // context/trace.h). Off by default, and then compiled out.
  constexpr auto trace() const {
    return set(settings_internal::once<context_keys::trace, keys>,
               ::strata::trace{});
  }

  // Component hooks (context/hooks.h). Every component a hook names must
  // be stored: checked here when the components are set, else by
  // make_context.
  template <typename HookList>
  constexpr auto hooks(HookList list) const {
    if constexpr (!is_component_hook_list_v<HookList>) {
      diagnostic::report(diagnostic::not_component_hooks<HookList>);
      return *this;
    } else if constexpr (is_set<context_keys::components> &&
                         hooks_internal::unstored_hook_component<
                             component_list_type, HookList>::found) {
      using missing =
          hooks_internal::unstored_hook_component<component_list_type,
                                                  HookList>;
      diagnostic::report(
          diagnostic::hook_component_not_stored<typename missing::hook,
                                                typename missing::item>);
      return *this;
    } else {
      return set(settings_internal::once<context_keys::hooks, keys>, list);
    }
  }

  // A parent/child relation between entities (context/hierarchy.h):
  // strata::kill_children (killing a parent kills its subtree) or
  // strata::detach_children (its children become roots). Without it the
  // context has no hierarchy storage and its refresh no hierarchy phase.
  template <typename Relation>
  constexpr auto hierarchy(Relation relation) const {
    if constexpr (!is_hierarchy_relation_v<Relation>) {
      diagnostic::report(diagnostic::not_hierarchy_relation<Relation>);
      return *this;
    } else {
      return set(settings_internal::once<context_keys::hierarchy, keys>,
                 relation);
    }
  }

  // What the context reads.
  using entity_limit_type = value_type<context_keys::entity_limit>;
  using component_list_type = value_type<context_keys::components>;
  using system_list_type = value_type<context_keys::systems>;
  using resource_list_type = value_type<context_keys::resources>;
  using scheduler_type = value_type<context_keys::scheduler>;
  static constexpr bool checked_access_enabled =
      value_type<context_keys::checked_access>::value;
  static constexpr bool inner_parallelism_allowed =
      value_type<context_keys::inner_parallelism>::value;
  static constexpr bool trace_enabled = value_type<context_keys::trace>::value;
  using hook_list_type = value_type<context_keys::hooks>;
  // strata::context_internal::no_hierarchy, or the hierarchy_relation the
  // settings declare.
  using hierarchy_type = value_type<context_keys::hierarchy>;
  // run_policy::fixed_t or run_policy::adaptive_t.
  using run_policy_type = value_type<context_keys::run_policy>;
  static constexpr bool hierarchy_declared =
      !std::is_same_v<hierarchy_type, context_internal::no_hierarchy>;

 private:
  // Sets Key to `value` (its entry, settings_internal::entry_for) unless it
  // is set (then once<Key, keys>, named by the setter, reported it, and the
  // settings stay as they were: the report is the only error).
  template <typename Key, typename Value>
  constexpr auto set(settings_internal::key<Key>, Value value) const {
    if constexpr (is_set<Key>) {
      return *this;
    } else {
      auto entry = settings_internal::entry_for<Key>(value);
      return settings_t<Entries..., decltype(entry)>{
          base_internal::append(options, entry)};
    }
  }
};

constexpr auto settings() { return settings_t<>{}; }

template <typename T>
inline constexpr bool is_context_settings_v = false;
template <typename... Entries>
inline constexpr bool is_context_settings_v<settings_t<Entries...>> = true;

// The settings held by a constexpr variable with static storage (namespace
// scope, or `static constexpr`), named by that variable. A context made by
// make_context<settings>() is a context<named_settings<settings>>, so
// compiler messages spell `strata::named_settings<settings>` where they
// would spell the settings type, which lists every signature with every
// option (kilobytes per line of an error). It is the settings type in every
// other respect (it derives from it).
template <const auto& Settings>
struct named_settings : std::remove_cvref_t<decltype(Settings)> {};

template <const auto& Settings>
inline constexpr bool is_context_settings_v<named_settings<Settings>> =
    is_context_settings_v<std::remove_cvref_t<decltype(Settings)>>;

}  // namespace strata

#endif  // STRATA_CONTEXT_SETTINGS_H_
