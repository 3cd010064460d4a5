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
//
// Compile cost: the run on the pool is compiled once, in the library
// (atomic_counter.cc), from the call's table of constexpr arrays
// (scheduler/internal/call_table.h); a program instantiates the table, a few
// arrays sized by its system count and execute(). The systems are called
// through a run_function, one indirect call per system and step; their
// predictions are read once per call, into an array.
#ifndef STRATA_SCHEDULER_ATOMIC_COUNTER_H_
#define STRATA_SCHEDULER_ATOMIC_COUNTER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>

#include "base/internal/atomic_value.h"
#include "scheduler/chain.h"
#include "scheduler/hand_off.h"
#include "scheduler/internal/call_table.h"
#include "scheduler/internal/step_decision.h"
#include "scheduler/sequential.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata::scheduler {

namespace atomic_counter_internal {

// The run on the pool, compiled once in atomic_counter.cc from the call's
// table (scheduler/internal/call_table.h): it calls the systems through a
// run_function and reads their predictions from an array the caller
// filled, and the caller's template part provides the per-call arrays on its
// stack (pool_storage<N>), so a program instantiates only what depends on
// its system count. One pool_run per execute() call, on the caller's stack;
// its tasks run on the pool's threads and finish before run_all() returns.

// The caller's run_system(id), by reference: what the compiled-once run calls
// for each system. The callable must outlive the run_function (the caller's
// execute() frame does). The role of absl::FunctionRef<void(std::size_t)>,
// without its <functional>, which every program would otherwise compile.
class run_function {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<
                            std::remove_cvref_t<F>, run_function>>>
  run_function(F&& run_system) noexcept  // NOLINT: implicit, as FunctionRef
      : callable_(const_cast<void*>(
            static_cast<const void*>(__builtin_addressof(run_system)))),
        call_(&call<std::remove_reference_t<F>>) {}

  void operator()(std::size_t id) const { call_(callable_, id); }

 private:
  template <typename Callable>
  static void call(void* callable, std::size_t id) {
    (*static_cast<Callable*>(callable))(id);
  }

  void* callable_;
  void (*call_)(void* callable, std::size_t id);
};

// Each selected system's critical-path rank (written to rank, one per
// system) from its prediction (predicted, one per system, in ns or
// run_cost::unknown): its predicted run time plus the longest predicted chain
// of selected dependents after it (unknown predictions count as zero). The
// decision says whether the call uses the pool: its predicted work off the
// critical path (the predicted total minus the longest chain, the work
// another thread could take) against the policy.
scheduler_internal::step_decision rank_and_decide(
    const scheduler_internal::call_table& table, const std::int64_t* predicted,
    hand_off_policy policy, std::int64_t* rank);

class pool_run;

// A line each: threads decrementing different systems' counters do not
// share one.
struct alignas(64) counter {
  base_internal::atomic_value<std::size_t> remaining;
};
// One per system, so a task captures a single pointer.
struct node {
  pool_run* run;
  std::size_t id;
};
// Runs the chain that starts at `first` with its work list (one entry per
// system) on the stack of the thread that runs it: run_chain_with<N>.
using chain_function = void (*)(pool_run& run, std::size_t first);

// One call's arrays, one element per system, on the caller's stack.
template <std::size_t N>
struct pool_storage {
  std::array<counter, N> counters;
  std::array<node, N> nodes;
  std::array<std::exception_ptr, N> errors;
  std::array<std::size_t, N> ready;
};

// One call's run on the pool: every selected system runs once, after its
// selected dependencies; run_all() returns when all have, then rethrows the
// error of the lowest system id, if any.
class pool_run {
 public:
  template <std::size_t N>
  pool_run(thread_pool& pool, const scheduler_internal::call_table& table,
           run_function run_system, const std::int64_t* predicted,
           hand_off_policy policy, const std::int64_t* rank,
           pool_storage<N>& storage, chain_function run_chain_with)
      : pool_run(pool, table, run_system, predicted, policy, rank,
                 storage.counters.data(), storage.nodes.data(),
                 storage.errors.data(), storage.ready.data(), run_chain_with) {}
  pool_run(const pool_run&) = delete;
  pool_run& operator=(const pool_run&) = delete;

  void run_all();
  // Runs `first`, then, on this thread, the dependents it makes ready that
  // are not worth a hand-off (and one that is); posts the others. `todo`
  // has one entry per system.
  void run_chain(std::size_t first, std::size_t* todo);

 private:
  pool_run(thread_pool& pool, const scheduler_internal::call_table& table,
           run_function run_system, const std::int64_t* predicted,
           hand_off_policy policy, const std::int64_t* rank, counter* counters,
           node* nodes, std::exception_ptr* errors, std::size_t* ready,
           chain_function run_chain_with);

  // Parts of run_chain (defined beside it, always inlined: one function per
  // chain step, as a hand-written scheduler would be).
  [[gnu::always_inline]] inline void post(std::size_t id);
  [[gnu::always_inline]] inline std::size_t finish(std::size_t id,
                                                   std::size_t* ready);
  [[gnu::always_inline]] inline bool goes_before(std::size_t a,
                                                 std::size_t b) const;
  [[gnu::always_inline]] inline std::size_t keep_or_post(std::size_t* ready,
                                                         std::size_t count);
  [[gnu::always_inline]] inline void sort_longest_path_first(
      std::size_t* ready, std::size_t count) const;

  const scheduler_internal::call_table& table_;
  run_function run_system_;
  // Each system's prediction (rank_and_decide). Read-only.
  const std::int64_t* const predicted_;
  const hand_off_policy policy_;
  task_group group_;
  counter* const counters_;
  node* const nodes_;
  std::exception_ptr* const errors_;
  std::size_t* const ready_;
  const chain_function run_chain_with_;
  // Critical-path ranks (rank_and_decide). Read-only.
  const std::int64_t* const rank_;
  alignas(64) base_internal::atomic_value<std::size_t> ran_{0};
};

template <std::size_t N>
void run_chain_with(pool_run& run, std::size_t first) {
  std::array<std::size_t, N> todo;
  run.run_chain(first, todo.data());
}

// Runs the call on the pool with its arrays on this stack.
template <std::size_t N>
void run_on_pool(thread_pool& pool, const scheduler_internal::call_table& table,
                 run_function run_system, const std::int64_t* predicted,
                 hand_off_policy policy, const std::int64_t* rank) {
  pool_storage<N> storage;
  pool_run run(pool, table, run_system, predicted, policy, rank, storage,
               &run_chain_with<N>);
  run.run_all();
}

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
      static_assert(
          is_closed_under_dependents(SystemList::graph.depends, Selected),
          "atomic_counter: the selected systems must include every "
          "dependent of a selected system");
      constexpr const scheduler_internal::call_table& table =
          scheduler_internal::call_table_of<SystemList, Selected>::value;
      // The ranks decide whether the pool pays (automatic) and in which
      // order ready systems go (automatic, always); `never` needs neither.
      scheduler_internal::step_decision decision;
      if (pool.worker_count() > 0 && policy.mode != hand_off::never) {
        // Read once: a system's prediction does not change before it runs.
        std::array<std::int64_t, n> predicted;
        for (std::size_t i = 0; i < n; ++i) {
          predicted[i] = Selected[i] ? predict(i) : 0;
        }
        std::array<std::int64_t, n> rank;
        decision = atomic_counter_internal::rank_and_decide(
            table, predicted.data(), policy, rank.data());
        if (decision.used_pool) {
          atomic_counter_internal::run_on_pool<n>(
              pool, table, run_system, predicted.data(), policy, rank.data());
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
};

inline constexpr atomic_counter_t atomic_counter{};

}  // namespace strata::scheduler

#endif  // STRATA_SCHEDULER_ATOMIC_COUNTER_H_
