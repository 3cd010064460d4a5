// Internal to //scheduler:dag: the data-race check of a system signature
// list. Two systems race when no chain of dependencies orders them and one
// writes an item (a component, or a resource) the other reads or writes;
// race_finder lists every such pair with the first item they share, and
// check_races reports them all in one compile, as data_race or
// resource_race rules (named, with their culprits, in the compiler's notes).
// Cost: O(N^2 * items) constexpr steps for N systems.
#ifndef STRATA_SCHEDULER_INTERNAL_RACE_CHECK_H_
#define STRATA_SCHEDULER_INTERNAL_RACE_CHECK_H_

#include <array>
#include <cstddef>
#include <utility>

#include "settings/diagnostic.h"
#include "settings/type_list.h"

namespace strata {

namespace diagnostic {

template <typename SystemA, typename SystemB, typename Component>
struct data_race {
  static_assert(always_false<SystemA, SystemB, Component>,
                "data race: two systems that no dependency orders both use a "
                "component and at least one writes it, so they could run at "
                "the same time; make one depend on the other (or stop one "
                "writing it). The two systems and the component are named "
                "above as data_race<system, system, component>");
};

template <typename SystemA, typename SystemB, typename Resource>
struct resource_race {
  static_assert(always_false<SystemA, SystemB, Resource>,
                "data race on a resource: two systems that no dependency "
                "orders both use a resource and at least one writes it "
                "(write_resource), so they could run at the same time; make "
                "one depend on the other. The two systems and the resource "
                "are named above as resource_race<system, system, resource>");
};

}  // namespace diagnostic

namespace dag_internal {

template <typename Universe, typename... Cs>
constexpr void mark(type_list<Cs...>, std::array<bool, size_v<Universe>>& row) {
  ((row[index_of_v<Cs, Universe>] = true), ...);
}

struct race {
  std::size_t first, second, component;
};

// Every pair of systems that no dependency orders and that share an item
// (a component or a resource) one of them writes: the first such item of
// each pair. Written[i] / Accessed[i]: type_lists of system i.
template <typename List, typename Universe, typename... Written>
struct race_finder {
  static constexpr std::size_t n = List::count;
  static constexpr std::size_t c = size_v<Universe>;

  template <typename... Accessed>
  static constexpr auto find(type_list<Accessed...>) {
    struct result {
      std::array<race, (n * (n - 1) / 2 + 1)> races{};
      std::size_t count = 0;
    } out{};
    if constexpr (c > 0) {
      std::array<std::array<bool, c>, n> writes{}, accesses{};
      [[maybe_unused]] std::size_t i = 0;
      ((mark<Universe>(Written{}, writes[i]),
        mark<Universe>(Accessed{}, accesses[i]), ++i),
       ...);
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = a + 1; b < n; ++b) {
          if (List::ordered(a, b)) continue;
          for (std::size_t k = 0; k < c; ++k) {
            if ((writes[a][k] && accesses[b][k]) ||
                (writes[b][k] && accesses[a][k])) {
              out.races[out.count++] = race{a, b, k};
              break;
            }
          }
        }
      }
    }
    return out;
  }
};

// Rule<system, system, item> of every racing pair, as a type_list. Naming a
// rule does not instantiate it; report_all does, for all of them at once, so
// one compile lists every race, and the compiler's notes name only the rules
// (not the signature list).
template <typename List, template <typename, typename, typename> class Rule,
          typename Universe, auto Found,
          typename Indices = std::make_index_sequence<Found.count>>
struct race_rules;
template <typename List, template <typename, typename, typename> class Rule,
          typename Universe, auto Found, std::size_t... R>
struct race_rules<List, Rule, Universe, Found, std::index_sequence<R...>> {
  using type =
      type_list<Rule<typename List::template system_at<Found.races[R].first>,
                     typename List::template system_at<Found.races[R].second>,
                     type_at_t<Found.races[R].component, Universe>>...>;
};

template <typename... Rules>
constexpr void report_all(type_list<Rules...>) {
  (diagnostic::report<Rules>(), ...);
}

template <typename List, typename... Signatures>
constexpr void check_races() {
  using components = unique_t<concat_t<typename Signatures::accessed_types...>>;
  constexpr auto component_races =
      race_finder<List, components, typename Signatures::written_types...>::
          find(type_list<typename Signatures::accessed_types...>{});
  report_all(typename race_rules<List, diagnostic::data_race, components,
                                 component_races>::type{});
  using resources =
      unique_t<concat_t<typename Signatures::accessed_resource_types...>>;
  constexpr auto resource_races =
      race_finder<List, resources,
                  typename Signatures::write_resource_types...>::
          find(type_list<typename Signatures::accessed_resource_types...>{});
  report_all(typename race_rules<List, diagnostic::resource_race, resources,
                                 resource_races>::type{});
}

}  // namespace dag_internal

}  // namespace strata

#endif  // STRATA_SCHEDULER_INTERNAL_RACE_CHECK_H_
