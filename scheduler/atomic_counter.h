// The atomic-counter scheduler: runs independent systems in parallel.
//
// Every selected system gets a counter of its selected dependencies that have
// not finished. Systems whose counter is zero start at once, as tasks of one
// task_group on the pool; when a system finishes it decrements each selected
// dependent and starts those that reach zero. The calling thread waits in
// task_group::wait(), which runs queued tasks while it waits, so the caller
// takes part in the work and nested waits (a system splitting into subtasks
// with parallel_for) cannot deadlock at any worker count, zero included
// (ECST issue #22).
//
// How many systems run is known at compile time: the chain size of the start
// set (scheduler/chain.h, seed 000's breadth-first traversal). The seed sizes
// the latch the caller waits on with it; here the task group counts the
// tasks it runs, and debug builds check that exactly chain-size systems ran.
// The selected set must be closed under dependents (execute_systems and
// execute_systems_from always pass a chain), a compile-time check.
//
// Partial chains (execute_systems_from): a selected system whose dependency
// is not selected treats that dependency as satisfied: the caller chose where
// the chain starts. (ECST hangs here, waiting for a system that never runs.)
//
// Ordering guarantee: a system starts only after every selected dependency
// finished (the decrement is acq_rel, so the dependency's writes are visible).
// Exceptions follow the rule of scheduler/sequential.h: a throwing system does
// not start its dependents (nor, so, theirs); every other selected system
// runs; after the run the exception of the lowest system id is rethrown.
//
// Cost per step: one stack array of counters and one task per system; no heap
// allocation (each task captures one pointer, which fits the task's inline
// buffer). No busy-waiting.
#ifndef STRATA_SCHEDULER_ATOMIC_COUNTER_H_
#define STRATA_SCHEDULER_ATOMIC_COUNTER_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <exception>

#include "base/check.h"
#include "scheduler/chain.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata::scheduler {

namespace atomic_counter_internal {

// Dependents of every system, flattened (CSR): the dependents of i are
// flat[offset[i]] .. flat[offset[i + 1]].
template <typename SystemList>
struct dependents_table {
  static constexpr std::size_t n = SystemList::count;
  static constexpr std::size_t edges = [] {
    std::size_t e = 0;
    for (std::size_t i = 0; i < n; ++i)
      e += SystemList::graph.dependent_count(i);
    return e;
  }();
  static constexpr std::array<std::size_t, n + 1> offset = [] {
    std::array<std::size_t, n + 1> o{};
    for (std::size_t i = 0; i < n; ++i)
      o[i + 1] = o[i] + SystemList::graph.dependent_count(i);
    return o;
  }();
  static constexpr std::array<std::size_t, (edges > 0 ? edges : 1)> flat = [] {
    std::array<std::size_t, (edges > 0 ? edges : 1)> f{};
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (SystemList::graph.depends[j][i]) f[k++] = j;
      }
    }
    return f;
  }();
};

}  // namespace atomic_counter_internal

struct atomic_counter_t {
  static constexpr bool runs_subtasks_in_parallel = true;

  // Runs run_system(i) for every i flagged in Selected (a constexpr
  // std::array<bool, SystemList::count>), each after its selected
  // dependencies.
  template <typename SystemList, auto Selected, typename RunSystem>
  static void execute(thread_pool& pool, RunSystem&& run_system) {
    constexpr std::size_t n = SystemList::count;
    if constexpr (n == 0) {
      return;
    } else {
      constexpr const auto& depends = SystemList::graph.depends;
      static_assert(is_closed_under_dependents(depends, Selected),
                    "atomic_counter: the selected systems must include every "
                    "dependent of a selected system");
      // Selected dependencies of each system, and the systems with none.
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
      [[maybe_unused]] static constexpr std::size_t expected =
          chain_size(depends, starts);

      using table = atomic_counter_internal::dependents_table<SystemList>;
      struct run_state;
      // One node per system, so a task captures a single pointer.
      struct node {
        run_state* state;
        std::size_t id;
      };
      struct run_state {
        RunSystem* run_system;
        task_group* group;
        std::array<std::atomic<std::size_t>, n> remaining;
        std::array<node, n> nodes;
        std::array<std::exception_ptr, n> errors;
        std::atomic<std::size_t> ran{0};

        void start(std::size_t id) {
          node* self = &nodes[id];
          group->run([self] { self->state->run(self->id); });
        }
        void run(std::size_t id) {
          try {
            (*run_system)(id);
          } catch (...) {
            // Read by the caller after group.wait(), which orders it.
            errors[id] = std::current_exception();
            return;  // its dependents never start
          }
          ran.fetch_add(1, std::memory_order_relaxed);
          for (std::size_t k = table::offset[id]; k < table::offset[id + 1];
               ++k) {
            const std::size_t dependent = table::flat[k];
            if (Selected[dependent] &&
                remaining[dependent].fetch_sub(1, std::memory_order_acq_rel) ==
                    1) {
              start(dependent);
            }
          }
        }
      };

      task_group group(pool);
      run_state state{&run_system, &group, {}, {}, {}};
      for (std::size_t i = 0; i < n; ++i) {
        state.nodes[i] = node{&state, i};
        state.remaining[i].store(dependency_counts[i],
                                 std::memory_order_relaxed);
      }
      // The start set is fixed at compile time, before anything runs: once a
      // system runs it decrements its dependents, and one reaching zero here
      // would start twice.
      for (std::size_t i = 0; i < n; ++i) {
        if (starts[i]) state.start(i);
      }
      group.wait();
      for (std::exception_ptr& error : state.errors) {
        if (error) std::rethrow_exception(error);
      }
      STRATA_DCHECK(state.ran.load(std::memory_order_relaxed) == expected,
                    "atomic_counter: the systems that ran are not the chain");
    }
  }
};

inline constexpr atomic_counter_t atomic_counter{};

}  // namespace strata::scheduler

#endif  // STRATA_SCHEDULER_ATOMIC_COUNTER_H_
