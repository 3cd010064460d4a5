// The atomic-counter scheduler: runs independent systems in parallel, and
// only when that pays.
//
// Every selected system gets a counter of its selected dependencies that have
// not finished. The systems whose counter is zero are ready. The calling
// thread keeps one ready system for itself and hands the others to the pool,
// as tasks of one task_group; when a system finishes, its thread decrements
// each selected dependent, keeps one that became ready and runs it next (a
// chain of systems runs on one thread without a queue in between), and hands
// the other newly ready ones to the pool. The calling thread then waits in
// task_group::wait(), which runs queued tasks while it waits, so nested waits
// (a system splitting into subtasks with parallel_for) cannot deadlock at
// any worker count, zero included (a waiter that blocked instead would wait
// for tasks queued behind itself: task_group_test's nested-wait tests).
//
// Hand-off decisions (scheduler/hand_off.h), from each system's predicted run
// time, `predict(id)`:
//   * a step whose work off its critical path (the predicted total minus
//     the longest predicted chain of selected systems) is below
//     hand_off_policy::kInlineStepNs, or a pool without workers, runs on the
//     calling thread in topological order: no task, no wake-up. That work is
//     all another thread could take from the caller, so below a few
//     wake-ups' worth a second thread only adds latency (a chain never
//     pays at the system level; its systems' subtasks may still split);
//   * a ready system predicted below kHandOffNs is not handed to another
//     thread: the thread that made it ready runs it.
//   * among systems ready at once, the thread keeps the one on the longest
//     predicted path to the end of the step (its critical-path rank) and
//     posts the others longest-path first, so cheap systems do not hold up
//     the chain that decides the step's length.
// hand_off::always / never force these decisions either way: with never,
// the call runs on the calling thread in the sequential scheduler's order,
// without ranking (how a context's run policy keeps a call off the pool,
// context/internal/run_policy.h). Which thread
// runs what never changes the result: the compile-time race check makes
// every order the DAG allows equivalent.
//
// How many systems run is known at compile time: the chain size of the start
// set (scheduler/chain.h, a breadth-first traversal at compile time); debug
// builds check that exactly that many ran. The selected set must be closed
// under dependents (execute_systems and execute_systems_from always pass a
// chain), a compile-time check.
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
// Cost per step: a stack array of cache-line-sized counters (no false sharing
// between threads decrementing different systems' counters) and at most one
// task per system handed off; no heap allocation (each task captures one
// pointer, which fits the task's inline buffer). No busy-waiting here; idle
// workers spin briefly in the pool before they sleep (threading/thread_pool.h).
#ifndef STRATA_SCHEDULER_ATOMIC_COUNTER_H_
#define STRATA_SCHEDULER_ATOMIC_COUNTER_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>

#include "base/check.h"
#include "scheduler/chain.h"
#include "scheduler/hand_off.h"
#include "scheduler/internal/step_decision.h"
#include "scheduler/sequential.h"
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

// One call's run on the pool: the counters, the tasks' nodes, the errors
// and the ranks live here, on the caller's stack, for the call's length
// (atomic_counter_t::execute makes one). Every selected system runs once,
// after its selected dependencies; run_all() returns when all have, then
// rethrows the error of the lowest system id, if any.
template <typename SystemList, auto Selected, typename RunSystem,
          typename Predict>
class pool_run {
  static constexpr std::size_t n = SystemList::count;
  using table = dependents_table<SystemList>;
  using ranks_type = std::array<std::int64_t, n>;

 public:
  pool_run(thread_pool& pool, RunSystem& run_system, Predict& predict,
           hand_off_policy policy, const ranks_type& rank)
      : run_system_(run_system),
        predict_(predict),
        policy_(policy),
        group_(pool),
        rank_(rank) {
    for (std::size_t i = 0; i < n; ++i) {
      nodes_[i] = node{this, i};
      counters_[i].remaining.store(dependency_counts[i],
                                   std::memory_order_relaxed);
    }
  }
  pool_run(const pool_run&) = delete;
  pool_run& operator=(const pool_run&) = delete;

  // The start set is fixed at compile time, before anything runs: once a
  // system runs it decrements its dependents, and one reaching zero here
  // would start twice. The caller keeps the start on the longest predicted
  // path (and every one not worth a hand-off) and posts the others before
  // running its own.
  void run_all() {
    std::array<std::size_t, n> ready;
    std::size_t ready_count = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (starts[i]) ready[ready_count++] = i;
    }
    std::array<std::size_t, n> mine;
    const std::size_t kept =
        keep_or_post(ready.data(), ready_count, mine.data());
    for (std::size_t k = kept; k-- > 0;) run_chain(mine[k]);
    group_.wait();
    for (std::exception_ptr& error : errors_) {
      if (error) std::rethrow_exception(error);
    }
    STRATA_DCHECK(ran_.load(std::memory_order_relaxed) == expected,
                  "atomic_counter: the systems that ran are not the chain");
  }

 private:
  // Selected dependencies of each system, and the systems with none.
  static constexpr std::array<std::size_t, n> dependency_counts = [] {
    std::array<std::size_t, n> counts{};
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < n; ++k) {
        counts[i] += Selected[k] && SystemList::graph.depends[i][k];
      }
    }
    return counts;
  }();
  static constexpr std::array<bool, n> starts =
      start_set(SystemList::graph.depends, Selected);
  static constexpr std::size_t expected =
      chain_size(SystemList::graph.depends, starts);

  // One node per system, so a task captures a single pointer.
  struct node {
    pool_run* run;
    std::size_t id;
  };
  // A line each: threads decrementing different systems' counters do not
  // share one.
  struct alignas(64) counter {
    std::atomic<std::size_t> remaining;
  };

  void post(std::size_t id) {
    node* self = &nodes_[id];
    group_.run([self] { self->run->run_chain(self->id); });
  }

  // Runs `first`, then, on this thread, the dependents it makes ready that
  // are not worth a hand-off (and one that is); posts the others.
  void run_chain(std::size_t first) {
    std::array<std::size_t, n> todo;
    std::size_t pending = 0;
    todo[pending++] = first;
    while (pending > 0) {
      const std::size_t id = todo[--pending];
      try {
        run_system_(id);
      } catch (...) {
        // Read by run_all() after group_.wait(), which orders it.
        errors_[id] = std::current_exception();
        continue;  // its dependents never start
      }
      ran_.fetch_add(1, std::memory_order_relaxed);
      std::array<std::size_t, n> ready;
      const std::size_t ready_count = finish(id, ready.data());
      pending += keep_or_post(ready.data(), ready_count, &todo[pending]);
    }
  }

  // Decrements the counters of `id`'s selected dependents; writes those it
  // made ready to `ready` and returns how many. The decrement is acq_rel:
  // a dependent starts after its dependencies' writes.
  std::size_t finish(std::size_t id, std::size_t* ready) {
    std::size_t ready_count = 0;
    for (std::size_t k = table::offset[id]; k < table::offset[id + 1]; ++k) {
      const std::size_t dependent = table::flat[k];
      if (Selected[dependent] && counters_[dependent].remaining.fetch_sub(
                                     1, std::memory_order_acq_rel) == 1) {
        ready[ready_count++] = dependent;
      }
    }
    return ready_count;
  }

  // Longest predicted path first; ties by id (deterministic).
  bool goes_before(std::size_t a, std::size_t b) const {
    return rank_[a] != rank_[b] ? rank_[a] > rank_[b] : a < b;
  }

  // Of `count` ready systems, keeps (writes to `kept`, returns how many)
  // the one on the longest predicted path and every one not worth a
  // hand-off, and posts the others, longest path first, so that the
  // critical path never waits behind cheap work.
  std::size_t keep_or_post(std::size_t* ready, std::size_t count,
                           std::size_t* kept) {
    // At most n systems are ready at once; saying so also keeps GCC's
    // -Warray-bounds from imagining more.
    if (count > n) count = n;
    sort_longest_path_first(ready, count);
    std::size_t kept_count = 0;
    for (std::size_t k = 0; k < count; ++k) {
      if (k == 0 || !policy_.worth_handing_off(predict_(ready[k]))) {
        kept[kept_count++] = ready[k];
      } else {
        post(ready[k]);
      }
    }
    // run_chain pops from the back: the longest path goes last.
    std::reverse(kept, kept + kept_count);
    return kept_count;
  }

  // Insertion sort: a handful of systems. (std::sort here trips GCC 12's
  // -Warray-bounds on small std::arrays at -O2.)
  void sort_longest_path_first(std::size_t* ready, std::size_t count) const {
    for (std::size_t i = 1; i < count; ++i) {
      const std::size_t id = ready[i];
      std::size_t j = i;
      for (; j > 0 && goes_before(id, ready[j - 1]); --j) {
        ready[j] = ready[j - 1];
      }
      ready[j] = id;
    }
  }

  RunSystem& run_system_;
  Predict& predict_;
  const hand_off_policy policy_;
  task_group group_;
  std::array<counter, n> counters_;
  std::array<node, n> nodes_;
  std::array<std::exception_ptr, n> errors_;
  // Critical-path ranks (rank_by_path). Read-only.
  const ranks_type rank_;
  alignas(64) std::atomic<std::size_t> ran_{0};
};

}  // namespace atomic_counter_internal

struct atomic_counter_t {
  static constexpr bool runs_subtasks_in_parallel = true;

  // Runs run_system(i) for every i flagged in Selected (a constexpr
  // std::array<bool, SystemList::count>), each after its selected
  // dependencies; predict(i) is system i's predicted run time in ns (or
  // run_cost::unknown).
  // Returns what it decided (scheduler/internal/step_decision.h).
  template <typename SystemList, auto Selected, typename RunSystem,
            typename Predict>
  static scheduler_internal::step_decision execute(
      thread_pool& pool, RunSystem&& run_system, Predict&& predict,
      hand_off_policy policy = {}) {
    constexpr std::size_t n = SystemList::count;
    if constexpr (n == 0) {
      return {};
    } else {
      constexpr const auto& depends = SystemList::graph.depends;
      static_assert(is_closed_under_dependents(depends, Selected),
                    "atomic_counter: the selected systems must include every "
                    "dependent of a selected system");
      // The ranks decide whether the pool pays (automatic) and in which
      // order ready systems go (automatic, always); `never` needs neither.
      scheduler_internal::step_decision decision;
      if (pool.worker_count() > 0 && policy.mode != hand_off::never) {
        const path_ranks<n> ranks = rank_by_path<SystemList, Selected>(predict);
        decision.off_critical_ns = ranks.total - ranks.critical;
        if (policy.worth_threads(decision.off_critical_ns)) {
          decision.used_pool = true;
          atomic_counter_internal::pool_run<SystemList, Selected, RunSystem,
                                            Predict>
              run(pool, run_system, predict, policy, ranks.rank);
          run.run_all();
          return decision;
        }
      }
      sequential_t::execute<SystemList, Selected>(pool, run_system);
      return decision;
    }
  }

  // Without predictions: every system is worth its own thread.
  template <typename SystemList, auto Selected, typename RunSystem>
  static scheduler_internal::step_decision execute(thread_pool& pool,
                                                   RunSystem&& run_system) {
    return execute<SystemList, Selected>(
        pool, run_system, [](std::size_t) { return std::int64_t{0}; },
        hand_off::always);
  }

 private:
  // Each selected system's critical-path rank: its predicted run time plus
  // the longest predicted chain of selected dependents after it (unknown
  // predictions count as zero). With the predicted total and the longest
  // chain: their difference is the work another thread could take.
  template <std::size_t N>
  struct path_ranks {
    std::array<std::int64_t, N> rank{};
    std::int64_t total = 0;
    std::int64_t critical = 0;
  };
  template <typename SystemList, auto Selected, typename Predict>
  static path_ranks<SystemList::count> rank_by_path(Predict& predict) {
    constexpr std::size_t n = SystemList::count;
    using table = atomic_counter_internal::dependents_table<SystemList>;
    path_ranks<n> ranks;
    for (std::size_t k = n; k-- > 0;) {
      const std::size_t i = SystemList::topological_order[k];
      if (!Selected[i]) continue;
      std::int64_t after = 0;  // dependents of a selected system are selected
      for (std::size_t t = table::offset[i]; t < table::offset[i + 1]; ++t) {
        after = std::max(after, ranks.rank[table::flat[t]]);
      }
      const std::int64_t own = std::max<std::int64_t>(predict(i), 0);
      ranks.rank[i] = own + after;
      ranks.total += own;
      ranks.critical = std::max(ranks.critical, ranks.rank[i]);
    }
    return ranks;
  }
};

inline constexpr atomic_counter_t atomic_counter{};

}  // namespace strata::scheduler

#endif  // STRATA_SCHEDULER_ATOMIC_COUNTER_H_
