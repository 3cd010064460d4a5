// Chain sizing: which systems run when some systems start and every
// dependent follows, and how many (a breadth-first traversal at compile
// time).
//
//   constexpr strata::chain_graph<4> graph = ...;   // depends[i][j]: i after j
//   constexpr auto starts = strata::start_set(graph, selected);
//   constexpr std::size_t n = strata::chain_size(graph, starts);
//
// A chain starts at a set of systems and follows dependent edges: when a
// system finishes, the systems that depend on it may run. `chain_size` walks
// the graph breadth-first from the start set and counts the distinct systems
// it reaches, the start set included; `chain_members` returns them as flags.
// `start_set(graph, selected)` is the part of a selected set with no selected
// dependency: the systems a scheduler can start at once.
//
// The atomic-counter scheduler uses this at compile time for what the seed
// uses it for: it sizes the count of systems the caller waits on from the
// chain size of the start set, and debug builds check that exactly that many
// systems ran. A selected set that is not closed under dependents (a system
// selected without the systems that follow it) would make the two differ;
// `is_closed_under_dependents` tells.
//
// Every function is constexpr and O(N^2) for N systems; nothing here runs at
// run time unless called with run-time values.
#ifndef STRATA_SCHEDULER_CHAIN_H_
#define STRATA_SCHEDULER_CHAIN_H_

#include <array>
#include <cstddef>

namespace strata {

// depends[i][j]: system i depends directly on system j.
template <std::size_t N>
using chain_graph = std::array<std::array<bool, N>, N>;

// Breadth-first from `starts` along dependent edges: the distinct systems
// reached, the start set included, as flags.
template <std::size_t N>
constexpr std::array<bool, N> chain_members(const chain_graph<N>& depends,
                                            const std::array<bool, N>& starts) {
  std::array<bool, N> seen = starts;
  std::array<std::size_t, (N > 0 ? N : 1)> queue{};
  std::size_t head = 0, tail = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (seen[i]) queue[tail++] = i;
  }
  while (head < tail) {
    const std::size_t node = queue[head++];
    for (std::size_t i = 0; i < N; ++i) {
      if (depends[i][node] && !seen[i]) {
        seen[i] = true;
        queue[tail++] = i;
      }
    }
  }
  return seen;
}

// How many distinct systems run when `starts` start and their dependents
// follow.
template <std::size_t N>
constexpr std::size_t chain_size(const chain_graph<N>& depends,
                                 const std::array<bool, N>& starts) {
  std::size_t count = 0;
  for (const bool member : chain_members(depends, starts)) count += member;
  return count;
}

// The selected systems none of whose dependencies is selected.
template <std::size_t N>
constexpr std::array<bool, N> start_set(const chain_graph<N>& depends,
                                        const std::array<bool, N>& selected) {
  std::array<bool, N> starts{};
  for (std::size_t i = 0; i < N; ++i) {
    if (!selected[i]) continue;
    bool waits = false;
    for (std::size_t j = 0; j < N; ++j) waits = waits || (selected[j] && depends[i][j]);
    starts[i] = !waits;
  }
  return starts;
}

// True when every dependent of a selected system is selected too.
template <std::size_t N>
constexpr bool is_closed_under_dependents(const chain_graph<N>& depends,
                                          const std::array<bool, N>& selected) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = 0; j < N; ++j) {
      if (selected[j] && depends[i][j] && !selected[i]) return false;
    }
  }
  return true;
}

}  // namespace strata

#endif  // STRATA_SCHEDULER_CHAIN_H_
