// Component hooks: code that runs when an entity gains or loses a component,
// declared in the context settings.
//
//   constexpr auto hooks = strata::component_hooks(
//       strata::hook(ct::body)
//           .on_add([](auto& proxy, strata::entity_id e, body& b) { ... })
//           .on_remove([](auto& proxy, strata::entity_id e, const body& b) {
//             proxy.template resource<physics_world>().release(b.handle);
//           })
//           .reads(ct::position)          // get_component / has_component
//           .writes(ct::collider)         // also add / remove_component
//           .resources(strata::resource<physics_world>));
//   constexpr auto settings = strata::settings()
//       .component_signatures(components)
//       .hooks(hooks);
//
// What counts. Hooks compare an entity's components at the refresh with
// those it had at the last refresh (or, for an entity a hook already told
// about, with what the hooks were told): on_add(proxy, e, T&) runs when the
// entity has T now and had not; on_remove(proxy, e, const T&) when it had T
// and has it no longer, because it was removed or because the entity was
// killed. A component replaced (add_component on an entity that has it, or
// removed and added back before the refresh) is neither: the change filter
// changed(ct::x) is what reacts to new values. on_remove reads the value the
// component had when it was removed (the latest removal, if there were
// several in the step) or, for a killed entity, the value it still has: it
// is destroyed after the hook returns. An entity created and killed in one
// step, or a component added and removed in one step, runs no hook.
//
// When and in which order. In the refresh (context/refresh.h), after the
// deferred functions and before the kills and the matching, on the thread
// that called step(), sequentially: nothing runs beside a hook, so there is
// no race to check. In rounds: the first round visits every entity the step
// changed (created, killed, given or stripped of a hooked component) whose
// hooked components differ, in entity-index order; per entity, every
// on_remove due (hooks in the order component_hooks(...) lists them), then
// every on_add due. Each later round visits, the same way, the entities the
// previous round's hooks created, killed or changed, and those killed with
// them (the descendants of a killed entity, with .hierarchy(kill_children)).
// Rounds end when a round changes nothing a hook is told about; a refresh
// that needs more than kMaxHookRounds rounds (hooks that keep answering each
// other) is a STRATA_CHECK failure naming it. The order depends only on what
// the step did, never on threads, the scheduler or how systems were split.
//
// The proxy. A hook's proxy allows what a deferred function's does, with the
// same timing rules (context/step_proxy.h): create_entity (null, and counted
// in refused_creations(), at a full fixed limit), kill_entity, add_component
// / remove_component of the components the hook .writes(...), get_component
// / has_component of those it .reads(...) or .writes(...) (get_component
// gives const T& for a read one), resource<R>() of the resources it
// declares, alive(id). The changes take effect as in a deferred function:
// the same refresh applies them (the entities hooks create or change join
// systems at this refresh, the ones they kill are reclaimed by it), and the
// next hook round reports them. Anything else is a compile error with
// Strata's message. A hook must not keep the proxy or the reference it
// receives.
//
// Exceptions. A hook that throws does not stop the others: its event counts
// as told (it is not run again), every other hook of every round runs, the
// refresh then applies the kills and the matching, and step() rethrows the
// first exception (of the step's function, a system, a deferred function,
// else the first hook's, in that order of precedence), with the context
// consistent and usable.
//
// Cost. A program without hooks compiles none of this: remove_component, the
// refresh and the context are what they were. With hooks, remove_component
// of a component with an on_remove hook moves the value aside (one move,
// amortized allocation-free), and each refresh visits the step's changed
// entities once, sorts those a hook is due for when they are out of index
// order, and calls each due hook directly (no type erasure): no allocation
// in a steady state (//benchmarks:change_benchmark's BM_AddComponentHook).
//
// A restored snapshot or a loaded world runs no hook: hooks report what
// steps do.
//
// Observers. Code outside systems observes the same events through a
// resource that a hook fills and the program drains between steps: one
// order, one thread, and nothing kept for components nobody hooks (a
// run-time subscription would make every remove_component keep its value in
// case someone listens). Membership of a component set is reported by
// systems' on_subscribe / on_unsubscribe and ctx.observe_refresh
// (context/refresh_event.h); docs/guide/09-reacting-to-change.md shows both.
#ifndef STRATA_CONTEXT_HOOKS_H_
#define STRATA_CONTEXT_HOOKS_H_

#include <cstddef>
#include <type_traits>

#include "base/internal/flat_tuple.h"
#include "context/resources.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename Component>
inline constexpr bool hook_callback_set_twice = [] {
  static_assert(always_false<Component>,
                "strata::hook(ct::x): on_add, on_remove, reads, writes or "
                "resources is given twice for the component named above; "
                "give each once (reads, writes and resources take several "
                "items in one call)");
  return false;
}();

template <typename Component>
inline constexpr bool component_hooked_twice = [] {
  static_assert(always_false<Component>,
                "strata::component_hooks(...): two hooks for the component "
                "named above; declare one strata::hook(ct::x) per component "
                "and give it both on_add and on_remove");
  return false;
}();

template <typename Given>
inline constexpr bool not_component_hooks = [] {
  static_assert(always_false<Given>,
                "settings().hooks(x): x must come from "
                "strata::component_hooks(strata::hook(ct::x)...)");
  return false;
}();

template <typename HookedComponent, typename Component>
inline constexpr bool hook_component_not_stored = [] {
  static_assert(always_false<HookedComponent, Component>,
                "a component hook names a component that no component "
                "signature stores (hooked component, then the component "
                "named above); add it to component_signatures(...)");
  return false;
}();

template <typename HookedComponent, typename Resource>
inline constexpr bool hook_resource_not_declared = [] {
  static_assert(always_false<HookedComponent, Resource>,
                "a component hook uses a resource that the context settings "
                "do not declare (hooked component, then resource, named "
                "above); add strata::resource<T> to "
                "settings().resources(strata::resources(...))");
  return false;
}();

template <typename HookedComponent, typename Component>
inline constexpr bool hook_uses_undeclared_component = [] {
  static_assert(always_false<HookedComponent, Component>,
                "a component hook reads or writes a component it does not "
                "declare (hooked component, then component, named above); "
                "add it to .reads(...) of strata::hook(ct::x), or to "
                ".writes(...) to write, add or remove it");
  return false;
}();

template <typename HookedComponent, typename Component>
inline constexpr bool hook_writes_read_component = [] {
  static_assert(always_false<HookedComponent, Component>,
                "a component hook adds, removes or writes a component it "
                "declares in .reads(...) only (hooked component, then "
                "component, named above); move it to .writes(...)");
  return false;
}();

template <typename HookedComponent, typename Resource>
inline constexpr bool hook_uses_undeclared_resource = [] {
  static_assert(
      always_false<HookedComponent, Resource>,
      "a component hook uses a resource it does not declare "
      "(hooked component, then resource, named above); add "
      "strata::resource<T> to .resources(...) of strata::hook(ct::x)");
  return false;
}();

}  // namespace diagnostic

// The most hook rounds one refresh runs (context/hooks.h: more is a
// STRATA_CHECK failure).
inline constexpr std::size_t kMaxHookRounds = 64;

namespace hooks_internal {

// A callback not given: callable, and does nothing (so that every hook's
// two callbacks can be named alike).
struct no_callback {
  template <typename... Args>
  constexpr void operator()(Args&&...) const noexcept {}
};

}  // namespace hooks_internal

// One component's hooks and what they may touch: made by strata::hook(ct::x),
// completed with the setters below (each at most once).
template <typename T, typename OnAdd, typename OnRemove, typename Reads,
          typename Writes, typename Resources>
struct component_hook {
  using component_type = T;
  using read_types = Reads;
  using write_types = Writes;
  using resource_types = Resources;
  static constexpr bool has_on_add =
      !std::is_same_v<OnAdd, hooks_internal::no_callback>;
  static constexpr bool has_on_remove =
      !std::is_same_v<OnRemove, hooks_internal::no_callback>;

  [[no_unique_address]] OnAdd add_callback{};
  [[no_unique_address]] OnRemove remove_callback{};

  // f(proxy, entity_id, T&) when an entity gains T.
  template <typename F>
  constexpr auto on_add(F f) const {
    if constexpr (has_on_add) {
      diagnostic::report(diagnostic::hook_callback_set_twice<T>);
      return *this;
    } else {
      return component_hook<T, F, OnRemove, Reads, Writes, Resources>{
          f, remove_callback};
    }
  }
  // f(proxy, entity_id, const T&) when an entity loses T (or is killed).
  template <typename F>
  constexpr auto on_remove(F f) const {
    if constexpr (has_on_remove) {
      diagnostic::report(diagnostic::hook_callback_set_twice<T>);
      return *this;
    } else {
      return component_hook<T, OnAdd, F, Reads, Writes, Resources>{add_callback,
                                                                   f};
    }
  }
  template <tag_value... Tags>
  constexpr auto reads(Tags...) const {
    if constexpr (size_v < Reads >> 0) {
      diagnostic::report(diagnostic::hook_callback_set_twice<T>);
      return *this;
    } else {
      return component_hook<T, OnAdd, OnRemove, type_list<tag_type<Tags>...>,
                            Writes, Resources>{add_callback, remove_callback};
    }
  }
  template <tag_value... Tags>
  constexpr auto writes(Tags...) const {
    if constexpr (size_v < Writes >> 0) {
      diagnostic::report(diagnostic::hook_callback_set_twice<T>);
      return *this;
    } else {
      return component_hook<T, OnAdd, OnRemove, Reads,
                            type_list<tag_type<Tags>...>, Resources>{
          add_callback, remove_callback};
    }
  }
  template <typename... Rs>
  constexpr auto resources(resource_t<Rs>...) const {
    if constexpr (size_v < Resources >> 0) {
      diagnostic::report(diagnostic::hook_callback_set_twice<T>);
      return *this;
    } else {
      return component_hook<T, OnAdd, OnRemove, Reads, Writes,
                            type_list<Rs...>>{add_callback, remove_callback};
    }
  }

  // Whether the hook may read (or write) U through its proxy.
  template <typename U>
  static constexpr bool reads_component =
      contains_v<U, Reads> || contains_v<U, Writes>;
  template <typename U>
  static constexpr bool writes_component = contains_v<U, Writes>;
  template <typename R>
  static constexpr bool uses_resource = contains_v<R, Resources>;
  // T, then every component it reads or writes (for the storage check).
  using component_types = concat_t<type_list<T>, Reads, Writes>;
};

// strata::hook(ct::x): the hooks of component x, none given yet.
template <tag_value Tag>
constexpr auto hook(Tag) {
  return component_hook<tag_type<Tag>, hooks_internal::no_callback,
                        hooks_internal::no_callback, type_list<>, type_list<>,
                        type_list<>>{};
}

// Every hook of a context, for settings().hooks(...).
template <typename... Hooks>
struct component_hook_list {
  base_internal::flat_tuple<Hooks...> hooks;

  using hook_types = type_list<Hooks...>;
  static constexpr std::size_t count = sizeof...(Hooks);
  using hooked_types = type_list<typename Hooks::component_type...>;
};

template <typename... Hooks>
constexpr auto component_hooks(Hooks... hooks) {
  using hooked = type_list<typename Hooks::component_type...>;
  constexpr std::size_t duplicate = first_duplicate_index_v<hooked>;
  if constexpr (duplicate < sizeof...(Hooks)) {
    diagnostic::report(
        diagnostic::component_hooked_twice<type_at_t<duplicate, hooked>>);
  }
  return component_hook_list<Hooks...>{
      base_internal::flat_tuple<Hooks...>(std::in_place, hooks...)};
}

template <typename T>
inline constexpr bool is_component_hook_list_v = false;
template <typename... Hooks>
inline constexpr bool is_component_hook_list_v<component_hook_list<Hooks...>> =
    true;

namespace hooks_internal {

template <std::size_t I, typename List, bool = (I < size_v<List>)>
struct at_or_void {
  using type = void;
};
template <std::size_t I, typename List>
struct at_or_void<I, List, true> {
  using type = type_at_t<I, List>;
};

// The first item a hook list names that Known does not hold, with its
// hooked component: Known::items<Hook> lists a hook's items (components or
// resources), Known::holds<U> says whether the settings hold one. One
// search for both checks below, so that they find culprits alike.
template <typename Known, typename HookList>
struct first_unknown_hook_item {
  static constexpr bool found = false;
  using hook = void;
  using item = void;
};
template <typename Known, typename Hook, typename... Rest>
struct first_unknown_hook_item<Known, component_hook_list<Hook, Rest...>> {
  template <typename List>
  struct first_missing;
  template <typename... Us>
  struct first_missing<type_list<Us...>> {
    static constexpr std::size_t index = [] {
      constexpr bool held[] = {true, Known::template holds<Us>...};
      for (std::size_t i = 1; i <= sizeof...(Us); ++i) {
        if (!held[i]) return i - 1;
      }
      return sizeof...(Us);
    }();
  };
  using items = typename Known::template items<Hook>;
  using missing = first_missing<items>;
  using rest = first_unknown_hook_item<Known, component_hook_list<Rest...>>;
  static constexpr bool here = missing::index < size_v<items>;
  static constexpr bool found = here || rest::found;
  using hook = std::conditional_t<here, typename Hook::component_type,
                                  typename rest::hook>;
  using item =
      std::conditional_t<here, typename at_or_void<missing::index, items>::type,
                         typename rest::item>;
};

// Components (a component signature list) as the components hooks name.
template <typename Components>
struct stored_components {
  template <typename Hook>
  using items = typename Hook::component_types;
  template <typename U>
  static constexpr bool holds = Components::template stores<U>;
};
// Resources (a resource list) as the resources hooks use.
template <typename Resources>
struct declared_resources {
  template <typename Hook>
  using items = typename Hook::resource_types;
  template <typename R>
  static constexpr bool holds = Resources::template declares<R>;
};

// The first component a hook list names that Components does not store.
template <typename Components, typename HookList>
using unstored_hook_component =
    first_unknown_hook_item<stored_components<Components>, HookList>;
// The first resource a hook list uses that Resources does not declare.
template <typename Resources, typename HookList>
using undeclared_hook_resource =
    first_unknown_hook_item<declared_resources<Resources>, HookList>;

}  // namespace hooks_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_HOOKS_H_
