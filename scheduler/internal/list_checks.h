// Internal to //scheduler:dag: the rules a system signature list must keep,
// other than the race check (race_check.h), and the computations that find
// their culprits. The computations never fail to compile, whatever the list;
// the functions users call (system_signatures(...), the context settings'
// setters, make_context) name the rule with the culprits they return, so
// that nothing between the user's line and the rule spells the list twice
// (meta/diagnostic.h).
#ifndef STRATA_SCHEDULER_INTERNAL_LIST_CHECKS_H_
#define STRATA_SCHEDULER_INTERNAL_LIST_CHECKS_H_

#include <array>
#include <cstddef>
#include <utility>

#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename System>
inline constexpr bool system_listed_twice = [] {
  static_assert(always_false<System>,
                "system_signatures(...) lists the same system twice; give "
                "each system one signature (the system is named above)");
  return false;
}();

template <typename System, typename Dependency>
inline constexpr bool dependency_on_unknown_system = [] {
  static_assert(always_false<System, Dependency>,
                "a system depends on a system that is not in "
                "system_signatures(...); add its signature or remove the "
                "dependency (both are named above)");
  return false;
}();

// The systems of one cycle, each depending on the next and the last on the
// first.
template <typename... Systems>
struct cycle {};

// Every cycle of the list: one shortest cycle through the first system of
// each group of systems that depend on each other.
template <typename... Cycles>
inline constexpr bool dependency_cycle = [] {
  static_assert(always_false<Cycles...>,
                "the system dependencies form a cycle, so no order can run "
                "them; each cycle<...> named above lists the systems of one, "
                "each depending on the next and the last on the first: "
                "remove one of these dependencies");
  return false;
}();

template <typename System, typename Resource>
inline constexpr bool system_resource_not_declared = [] {
  static_assert(always_false<System, Resource>,
                "a system signature uses a resource that the context "
                "settings do not declare; add strata::resource<T> to "
                "settings().resources(strata::resources(...)) (system and "
                "resource are named above)");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool system_component_not_stored = [] {
  static_assert(always_false<System, Component>,
                "a system signature uses a component that no component "
                "signature stores; add it to component_signatures(...) "
                "(system and component are named above)");
  return false;
}();

}  // namespace diagnostic

namespace dag_internal {

// (list index, item index) of the first item, across one type_list per
// signature, that `keep(tag<T>)` rejects; {number of lists, 0} if none.
template <typename Keep, typename... Lists>
constexpr std::array<std::size_t, 2> first_rejected([[maybe_unused]] Keep keep,
                                                    Lists...) {
  std::array<std::size_t, 2> found{sizeof...(Lists), 0};
  [[maybe_unused]] std::size_t list = 0;
  (
      [&]<typename... Ts>(type_list<Ts...>) {
        const bool kept[] = {keep(tag<Ts>)..., true};
        for (std::size_t k = 0; k < sizeof...(Ts); ++k) {
          if (!kept[k] && found[0] == sizeof...(Lists)) found = {list, k};
        }
        ++list;
      }(Lists{}),
      ...);
  return found;
}

// Stands for "no signature" in first_rejected_item.
struct no_signature {
  using system_type = void;
  using dependency_types = type_list<>;
  using mentioned_types = type_list<>;
  using accessed_resource_types = type_list<>;
};

// The first system of List (a type_list of signatures) whose Items (a
// member type_list of its signature, e.g. dependency_types) has an item
// `keep` rejects: `found`, and
// the system and the item (void when none is found).
template <typename List, template <typename> class Items, typename Keep>
struct first_rejected_item;
template <template <typename...> class L, typename... Signatures,
          template <typename> class Items, typename Keep>
struct first_rejected_item<L<Signatures...>, Items, Keep> {
  static constexpr auto at = first_rejected(Keep{}, Items<Signatures>{}...);
  static constexpr bool found = at[0] < sizeof...(Signatures);
  using signature = type_at_t<(found ? at[0] : sizeof...(Signatures)),
                              type_list<Signatures..., no_signature>>;
  using system = typename signature::system_type;
  using item = type_at_t<(found ? at[1] : 0),
                         concat_t<Items<signature>, type_list<void>>>;
};

template <typename Signature>
using dependency_types_of = typename Signature::dependency_types;
template <typename Signature>
using mentioned_types_of = typename Signature::mentioned_types;
template <typename Signature>
using resource_types_of = typename Signature::accessed_resource_types;

template <typename Systems>
struct is_system_of {
  template <typename T>
  constexpr bool operator()(tag_t<T>) const {
    return contains_v<T, Systems>;
  }
};
template <typename Components>
struct is_stored_by {
  template <typename T>
  constexpr bool operator()(tag_t<T>) const {
    return Components::template stores<T>;
  }
};
template <typename Resources>
struct is_declared_by {
  template <typename T>
  constexpr bool operator()(tag_t<T>) const {
    return Resources::template declares<T>;
  }
};

// A dependency on a system the list does not have.
template <typename List>
using unknown_dependency =
    first_rejected_item<typename List::signature_types, dependency_types_of,
                        is_system_of<typename List::system_types>>;
// A component no component signature stores (Components has `stores<T>`).
template <typename Components, typename List>
using unstored_component =
    first_rejected_item<typename List::signature_types, mentioned_types_of,
                        is_stored_by<Components>>;
// A resource the settings do not declare (Resources has `declares<T>`).
template <typename Resources, typename List>
using undeclared_resource =
    first_rejected_item<typename List::signature_types, resource_types_of,
                        is_declared_by<Resources>>;

// Every cycle of List's graph as diagnostic::cycle<systems...>, in a
// type_list (empty when the graph is acyclic).
template <typename List, auto Cycles = List::graph.cycles(),
          typename = std::make_index_sequence<Cycles.count>>
struct cycle_types;
template <typename List, auto Cycles, std::size_t... C>
struct cycle_types<List, Cycles, std::index_sequence<C...>> {
  template <std::size_t K,
            typename = std::make_index_sequence<Cycles.cycles[K].size>>
  struct one;
  template <std::size_t K, std::size_t... N>
  struct one<K, std::index_sequence<N...>> {
    using type = diagnostic::cycle<
        typename List::template system_at<Cycles.cycles[K].nodes[N]>...>;
  };
  using type = type_list<typename one<C>::type...>;
};

// Names every cycle in one rule (a type_list can not name a rule's culprits
// directly).
template <typename Cycles>
inline constexpr bool cycles_reported = true;
template <typename... Cycles>
inline constexpr bool cycles_reported<type_list<Cycles...>> =
    diagnostic::dependency_cycle<Cycles...>;

}  // namespace dag_internal

}  // namespace strata

#endif  // STRATA_SCHEDULER_INTERNAL_LIST_CHECKS_H_
