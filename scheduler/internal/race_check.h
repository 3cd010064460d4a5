// Internal to //scheduler:dag: the data-race check of a system signature
// list. Two systems race when no chain of dependencies orders them and one
// writes an item (a component, or a resource) the other reads or writes;
// race_finder lists every such pair with the first item they share, and
// races_of gives them all as types, which system_signatures(...) reports in
// one data_race rule: every pair in one compile, with the notes above the
// error printed once.
// Cost: O(N^2 * items) constexpr steps for N systems.
#ifndef STRATA_SCHEDULER_INTERNAL_RACE_CHECK_H_
#define STRATA_SCHEDULER_INTERNAL_RACE_CHECK_H_

#include <array>
#include <cstddef>
#include <utility>

#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

// Two systems that may run at the same time, and the first item (a
// component or a resource) they share that one of them writes.
template <typename SystemA, typename SystemB, typename Item>
struct race {};

// Every racing pair of the list, as race<system, system, item>.
template <typename... Races>
inline constexpr bool data_race = [] {
  static_assert(always_false<Races...>,
                "data race: two systems that no dependency orders both use a "
                "component or a resource and at least one writes it, so they "
                "could run at the same time; make one depend on the other (or "
                "stop one writing it). Every such pair is named above as "
                "race<system, system, component or resource>");
  return false;
}();

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

// The racing pairs Found (race_finder's result) names, as
// diagnostic::race<system, system, item> in a type_list.
template <typename List, typename Universe, auto Found,
          typename Indices = std::make_index_sequence<Found.count>>
struct race_types;
template <typename List, typename Universe, auto Found, std::size_t... R>
struct race_types<List, Universe, Found, std::index_sequence<R...>> {
  using type = type_list<
      diagnostic::race<typename List::template system_at<Found.races[R].first>,
                       typename List::template system_at<Found.races[R].second>,
                       type_at_t<Found.races[R].component, Universe>>...>;
};

// Every racing pair of the list, on components, then on resources.
template <typename List, typename... Signatures>
struct races_of {
  using components = unique_t<concat_t<typename Signatures::accessed_types...>>;
  using resources =
      unique_t<concat_t<typename Signatures::accessed_resource_types...>>;
  static constexpr auto component_races =
      race_finder<List, components, typename Signatures::written_types...>::
          find(type_list<typename Signatures::accessed_types...>{});
  static constexpr auto resource_races =
      race_finder<List, resources,
                  typename Signatures::write_resource_types...>::
          find(type_list<typename Signatures::accessed_resource_types...>{});
  using type =
      concat_t<typename race_types<List, components, component_races>::type,
               typename race_types<List, resources, resource_races>::type>;
};

// Names every race in one rule (a type_list can not name a rule's culprits
// directly), so that the notes above it are printed once.
template <typename Races>
inline constexpr bool races_reported = true;
template <typename... Races>
inline constexpr bool races_reported<type_list<Races...>> =
    diagnostic::data_race<Races...>;

}  // namespace dag_internal

}  // namespace strata

#endif  // STRATA_SCHEDULER_INTERNAL_RACE_CHECK_H_
