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
//       .refresh_parallelism(true)             // default: true
//       .trace();                              // default: off
//
// Each option may be set once: a second call is a compile error naming it.
// What shapes types (limit kind and size, signatures, scheduler, inner
// parallelism) is carried in the settings' type; run-time numbers (threads,
// the dynamic limit's initial capacity, strategy parameters) in its value.
// `make_context(settings)` checks the signatures against each other (every
// component a system uses is stored) and builds the context.
#ifndef STRATA_CONTEXT_SETTINGS_H_
#define STRATA_CONTEXT_SETTINGS_H_

#include <cstddef>
#include <type_traits>

#include "base/limit.h"
#include "component_storage/signature.h"
#include "context/resources.h"
#include "scheduler/atomic_counter.h"
#include "scheduler/dag.h"
#include "scheduler/hand_off.h"
#include "scheduler/sequential.h"
#include "settings/diagnostic.h"
#include "settings/option_map.h"

namespace strata {

namespace diagnostic {

template <typename Option>
struct context_option_set_twice {
  static_assert(always_false<Option>,
                "context settings: an option is set twice in the settings "
                "chain (its key is named above); set each option once");
};

template <typename Given>
struct not_component_signatures {
  static_assert(always_false<Given>,
                "settings().component_signatures(x): x must come from "
                "strata::component_signatures(...)");
};

template <typename Given>
struct not_resources {
  static_assert(always_false<Given>,
                "settings().resources(x): x must come from "
                "strata::resources(strata::resource<T>...)");
};

template <typename Given>
struct not_system_signatures {
  static_assert(always_false<Given>,
                "settings().system_signatures(x): x must come from "
                "strata::system_signatures(...)");
};

}  // namespace diagnostic

namespace context_keys {
struct entity_limit {};
struct inner_parallelism {};
struct components {};
struct systems {};
struct resources {};
struct checked_access {};
struct hand_off {};
struct scheduler {};
struct threads {};
struct refresh_parallelism {};
struct trace {};
}  // namespace context_keys

template <typename Map>
struct context_settings : fluent_settings<context_settings, Map> {
  template <std::size_t N>
  constexpr auto fixed_entity_limit() const {
    static_assert(N > 0, "fixed_entity_limit<N>(): N must be at least 1");
    return set<context_keys::entity_limit>(fixed_limit<N>{});
  }
  constexpr auto dynamic_entity_limit(std::size_t initial_capacity = 0) const {
    return set<context_keys::entity_limit>(dynamic_limit{initial_capacity});
  }
  // Lets a system run as several subtasks at once, each over a slice of
  // its entities (scheduler/inner_parallelism.h; a system without
  // .parallelism(...) uses inner_parallelism::automatic(), which splits only
  // when the measured cost says it pays). The subtasks share the system object:
  // a system whose process() writes its own members (an accumulator, a frame
  // buffer) must say .parallelism(strata::inner_parallelism::none()) or keep
  // per-subtask state (data.subtask_index()).
  constexpr auto allow_inner_parallelism() const {
    return set<context_keys::inner_parallelism>(std::true_type{});
  }
  constexpr auto disallow_inner_parallelism() const {
    return set<context_keys::inner_parallelism>(std::false_type{});
  }
  template <typename ComponentList>
  constexpr auto component_signatures(ComponentList list) const {
    if constexpr (!is_component_signature_list_v<ComponentList>) {
      diagnostic::report<diagnostic::not_component_signatures<ComponentList>>();
    }
    return set<context_keys::components>(list);
  }
  template <typename SystemList>
  constexpr auto system_signatures(SystemList list) const {
    if constexpr (!is_system_signature_list_v<SystemList>) {
      diagnostic::report<diagnostic::not_system_signatures<SystemList>>();
    }
    return set<context_keys::systems>(list);
  }
  template <typename ResourceList>
  constexpr auto resources(ResourceList list) const {
    if constexpr (!is_resource_list_v<ResourceList>) {
      diagnostic::report<diagnostic::not_resources<ResourceList>>();
    }
    return set<context_keys::resources>(list);
  }
  // A debugging aid: every component access of data.for_each goes through
  // the entity's id, checking that it is alive and has the component, as
  // access to non-contiguous storage does; also forces that slower path.
  constexpr auto checked_access() const {
    return set<context_keys::checked_access>(std::true_type{});
  }
  // When the threaded scheduler hands work to other threads
  // (scheduler/hand_off.h): hand_off::automatic (default, from measured
  // costs), hand_off::always, hand_off::never.
  constexpr auto hand_off(strata::hand_off mode) const {
    return set<context_keys::hand_off>(mode);
  }
  template <typename Scheduler>
  constexpr auto scheduler(Scheduler s) const {
    return set<context_keys::scheduler>(s);
  }
  // Threads that run systems, the calling thread included (so n - 1 pool
  // workers). 0 means std::thread::hardware_concurrency().
  constexpr auto threads(std::size_t n) const {
    return set<context_keys::threads>(n);
  }
  constexpr auto refresh_parallelism(bool enabled) const {
    return set<context_keys::refresh_parallelism>(enabled);
  }
  // Records which thread ran each system and subtask, and when (see
  // context/trace.h). Off by default, and then compiled out.
  constexpr auto trace() const {
    return set<context_keys::trace>(std::true_type{});
  }

  // What the context reads.
  using entity_limit_type =
      typename Map::template value_type<context_keys::entity_limit>;
  using component_list_type =
      typename Map::template value_type<context_keys::components>;
  using system_list_type =
      typename Map::template value_type<context_keys::systems>;
  using resource_list_type =
      typename Map::template value_type<context_keys::resources>;
  using scheduler_type =
      typename Map::template value_type<context_keys::scheduler>;
  static constexpr bool checked_access_enabled =
      Map::template value_type<context_keys::checked_access>::value;
  static constexpr bool inner_parallelism_allowed =
      Map::template value_type<context_keys::inner_parallelism>::value;
  static constexpr bool trace_enabled =
      Map::template value_type<context_keys::trace>::value;

 private:
  template <typename Key, typename Value>
  constexpr auto set(Value value) const {
    if constexpr (Map::template is_set<Key>()) {
      diagnostic::report<diagnostic::context_option_set_twice<Key>>();
    }
    return this->template with_option_unchecked<Key>(value);
  }
};

// The options of context settings, with their defaults.
struct context_defaults {
  static constexpr auto value = make_option_defaults(
      option_default<context_keys::entity_limit>(dynamic_limit{}),
      option_default<context_keys::inner_parallelism>(std::false_type{}),
      option_default<context_keys::components>(component_signature_list<>{}),
      option_default<context_keys::systems>(system_signature_list<>{}),
      option_default<context_keys::resources>(resource_list<>{}),
      option_default<context_keys::checked_access>(std::false_type{}),
      option_default<context_keys::hand_off>(hand_off::automatic),
      option_default<context_keys::scheduler>(scheduler::sequential),
      option_default<context_keys::threads>(std::size_t{0}),
      option_default<context_keys::refresh_parallelism>(true),
      option_default<context_keys::trace>(std::false_type{}));
};

constexpr auto settings() {
  return context_settings<option_map<context_defaults>>{};
}

template <typename T>
inline constexpr bool is_context_settings_v = false;
template <typename Map>
inline constexpr bool is_context_settings_v<context_settings<Map>> = true;

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
