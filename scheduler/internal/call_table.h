// Internal to //scheduler: one execute() call's systems as plain arrays.
//
// A scheduler's execute<SystemList, Selected>() is a template, but the walk
// it makes (a topological order, counters of unfinished dependencies, the
// dependents each finished system releases) needs only numbers that are
// known at compile time. call_table_of<SystemList, Selected>::value holds
// them as constexpr arrays behind one struct of pointers, so the walk
// itself (the atomic-counter scheduler's run on the pool,
// scheduler/atomic_counter.cc) is an ordinary function, compiled once in the
// library instead of once per system list, selection and run callable in every
// program that uses a context. The template part left at the call site builds
// the table (a constant expression) and the few per-call arrays the walk needs
// on the caller's stack, sized by the system count.
//
// The table lives in static storage for the whole program; its pointers
// never dangle. Every array has `count` elements except dependent_offsets
// (count + 1) and dependents (one per edge of the graph). `selected` is closed
// under dependents (a compile-time check of the schedulers), so a selected
// system's dependents are all selected.
#ifndef STRATA_SCHEDULER_INTERNAL_CALL_TABLE_H_
#define STRATA_SCHEDULER_INTERNAL_CALL_TABLE_H_

#include <array>
#include <cstddef>

#include "scheduler/chain.h"

namespace strata::scheduler_internal {

struct call_table {
  // Systems in the list (selected or not).
  std::size_t count = 0;
  // Whether each system runs in this call.
  const bool* selected = nullptr;
  // Every system, each after its dependencies.
  const std::size_t* topological_order = nullptr;
  // How many selected dependencies each system waits for.
  const std::size_t* dependency_counts = nullptr;
  // The selected systems that wait for none: the call's first systems.
  const bool* starts = nullptr;
  // The dependents of system i are dependents[dependent_offsets[i]] up to
  // dependents[dependent_offsets[i + 1]] (compressed rows).
  const std::size_t* dependent_offsets = nullptr;
  const std::size_t* dependents = nullptr;
  // How many systems the call runs when none throws: the selected ones.
  std::size_t expected = 0;
};

// The table of SystemList (a scheduler's system list: count, graph,
// topological_order) with the systems flagged in Selected (a
// std::array<bool, count>) running.
template <typename SystemList, auto Selected>
struct call_table_of {
  static constexpr std::size_t n = SystemList::count;
  static constexpr const auto& depends = SystemList::graph.depends;

  static constexpr std::array<bool, n> selected = Selected;
  static constexpr std::array<std::size_t, n> dependency_counts = [] {
    std::array<std::size_t, n> counts{};
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < n; ++k) {
        counts[i] += Selected[k] && depends[i][k];
      }
    }
    return counts;
  }();
  static constexpr std::array<bool, n> starts = start_set(depends, Selected);
  static constexpr std::array<std::size_t, n + 1> dependent_offsets = [] {
    std::array<std::size_t, n + 1> offsets{};
    for (std::size_t i = 0; i < n; ++i) {
      offsets[i + 1] = offsets[i] + SystemList::graph.dependent_count(i);
    }
    return offsets;
  }();
  static constexpr std::size_t edges = dependent_offsets[n];
  static constexpr std::array<std::size_t, (edges > 0 ? edges : 1)> dependents =
      [] {
        std::array<std::size_t, (edges > 0 ? edges : 1)> flat{};
        std::size_t k = 0;
        for (std::size_t i = 0; i < n; ++i) {
          for (std::size_t j = 0; j < n; ++j) {
            if (depends[j][i]) flat[k++] = j;
          }
        }
        return flat;
      }();

  static constexpr call_table value{n,
                                    selected.data(),
                                    SystemList::topological_order.data(),
                                    dependency_counts.data(),
                                    starts.data(),
                                    dependent_offsets.data(),
                                    dependents.data(),
                                    chain_size(depends, starts)};
};

}  // namespace strata::scheduler_internal

#endif  // STRATA_SCHEDULER_INTERNAL_CALL_TABLE_H_
