// Iterating the ids several sparse sets have in common (a join), with
// their components.
//
//   strata::for_each_in_all(
//       [](entity_id id, position& p, const velocity& v) { p.x += v.x; },
//       positions, velocities, alive_ids);
//
// Calls f(id, components of sets[0]..., components of sets[1]..., ...) for
// every id contained in all `sets` (component_sparse_set or
// versioned_sparse_set of the same Id; an id set is a filter and adds no
// argument).
//
// Complexity: driven by the set with the fewest elements, which tests the
// others: O(size of the smallest set) membership tests. The order
// is the reverse dense order of the driving set.
//
// Invalidation and misuse: f must not emplace or erase in any of the sets
// (it may write the components it is given). Thread-safety: as the sets' const
// members, plus whatever f writes.
#ifndef STRATA_SPARSE_SET_FOR_EACH_IN_ALL_H_
#define STRATA_SPARSE_SET_FOR_EACH_IN_ALL_H_

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sparse_set/component_sparse_set.h"
#include "sparse_set/versioned_sparse_set.h"

namespace strata {

namespace sparse_set_internal {

template <typename Id, std::size_t P>
const versioned_sparse_set<Id, P>& ids_of(
    const versioned_sparse_set<Id, P>& set) noexcept {
  return set;
}
template <typename Id, typename... T>
const versioned_sparse_set<Id>& ids_of(
    const component_sparse_set<Id, T...>& set) noexcept {
  return set.id_set();
}

// A plain id set contributes no arguments; a component set its components.
template <typename Id, std::size_t P>
std::tuple<> refs_at(const versioned_sparse_set<Id, P>&, std::size_t) noexcept {
  return {};
}
template <typename Id, typename... T>
std::tuple<T&...> refs_at(component_sparse_set<Id, T...>& set,
                          std::size_t position) noexcept {
  return set.components_at(position);
}
template <typename Id, typename... T>
std::tuple<const T&...> refs_at(const component_sparse_set<Id, T...>& set,
                                std::size_t position) noexcept {
  return set.components_at(position);
}

template <std::size_t Driver, typename F, typename... Sets, std::size_t... I>
void drive_from(F& f, std::index_sequence<I...>, Sets&... sets) {
  const auto& driver = ids_of(std::get<Driver>(std::tie(sets...)));
  // Reverse order: keeps positions of unvisited elements stable if f only
  // reads, and matches the erase-safe direction of the sets.
  for (std::size_t pos = driver.size(); pos-- > 0;) {
    const auto id = driver[pos];
    std::size_t positions[sizeof...(Sets)];
    const bool in_all =
        ((I == Driver
              ? (positions[I] = pos, true)
              : (positions[I] = ids_of(sets).find(id)) !=
                    std::remove_cvref_t<decltype(ids_of(sets))>::npos) &&
         ...);
    if (!in_all) continue;
    std::apply(
        f, std::tuple_cat(std::make_tuple(id), refs_at(sets, positions[I])...));
  }
}

}  // namespace sparse_set_internal

// See the top of this file.
template <typename F, typename First, typename... Rest>
void for_each_in_all(F&& f, First& first, Rest&... rest) {
  constexpr std::size_t n = 1 + sizeof...(Rest);
  const std::size_t sizes[n] = {sparse_set_internal::ids_of(first).size(),
                                sparse_set_internal::ids_of(rest).size()...};
  const std::size_t driver =
      static_cast<std::size_t>(std::min_element(sizes, sizes + n) - sizes);
  [&]<std::size_t... D>(std::index_sequence<D...>) {
    ((driver == D ? sparse_set_internal::drive_from<D>(
                        f, std::make_index_sequence<n>{}, first, rest...)
                  : void()),
     ...);
  }
  (std::make_index_sequence<n>{});
}

}  // namespace strata

#endif  // STRATA_SPARSE_SET_FOR_EACH_IN_ALL_H_
