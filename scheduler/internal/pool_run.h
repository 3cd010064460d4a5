// Internal to //scheduler: the atomic-counter scheduler's run on the pool
// (scheduler/atomic_counter.h states the algorithm and its guarantees).
//
// Compiled once, in pool_run.cc, from the call's table
// (scheduler/internal/call_table.h): the run calls the systems and their
// predictions through absl::FunctionRef, and the caller's template part
// provides the per-call arrays on its stack (pool_storage<N>), so a program
// instantiates only what depends on its system count.
//
// Thread-safety: one pool_run per execute() call, on the caller's stack;
// its tasks run on the pool's threads and finish before run_all() returns.
#ifndef STRATA_SCHEDULER_INTERNAL_POOL_RUN_H_
#define STRATA_SCHEDULER_INTERNAL_POOL_RUN_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>

#include "absl/functional/function_ref.h"
#include "scheduler/hand_off.h"
#include "scheduler/internal/call_table.h"
#include "scheduler/internal/step_decision.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata::scheduler::atomic_counter_internal {

using run_function = absl::FunctionRef<void(std::size_t)>;
using predict_function = absl::FunctionRef<std::int64_t(std::size_t)>;

// Each selected system's critical-path rank (written to rank, one per
// system): its predicted run time plus the longest predicted chain of
// selected dependents after it (unknown predictions count as zero). The
// decision says whether the call uses the pool: its predicted work off the
// critical path (the predicted total minus the longest chain, the work
// another thread could take) against the policy.
scheduler_internal::step_decision rank_and_decide(
    const scheduler_internal::call_table& table, predict_function predict,
    hand_off_policy policy, std::int64_t* rank);

class pool_run;

// A line each: threads decrementing different systems' counters do not
// share one.
struct alignas(64) counter {
  std::atomic<std::size_t> remaining;
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
           run_function run_system, predict_function predict,
           hand_off_policy policy, const std::int64_t* rank,
           pool_storage<N>& storage, chain_function run_chain_with)
      : pool_run(pool, table, run_system, predict, policy, rank,
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
           run_function run_system, predict_function predict,
           hand_off_policy policy, const std::int64_t* rank, counter* counters,
           node* nodes, std::exception_ptr* errors, std::size_t* ready,
           chain_function run_chain_with);

  void post(std::size_t id);
  std::size_t finish(std::size_t id, std::size_t* ready);
  bool goes_before(std::size_t a, std::size_t b) const;
  std::size_t keep_or_post(std::size_t* ready, std::size_t count);
  void sort_longest_path_first(std::size_t* ready, std::size_t count) const;

  const scheduler_internal::call_table& table_;
  run_function run_system_;
  predict_function predict_;
  const hand_off_policy policy_;
  task_group group_;
  counter* const counters_;
  node* const nodes_;
  std::exception_ptr* const errors_;
  std::size_t* const ready_;
  const chain_function run_chain_with_;
  // Critical-path ranks (rank_and_decide). Read-only.
  const std::int64_t* const rank_;
  alignas(64) std::atomic<std::size_t> ran_{0};
};

template <std::size_t N>
void run_chain_with(pool_run& run, std::size_t first) {
  std::array<std::size_t, N> todo;
  run.run_chain(first, todo.data());
}

// Runs the call on the pool with its arrays on this stack.
template <std::size_t N>
void run_on_pool(thread_pool& pool, const scheduler_internal::call_table& table,
                 run_function run_system, predict_function predict,
                 hand_off_policy policy, const std::int64_t* rank) {
  pool_storage<N> storage;
  pool_run run(pool, table, run_system, predict, policy, rank, storage,
               &run_chain_with<N>);
  run.run_all();
}

}  // namespace strata::scheduler::atomic_counter_internal

#endif  // STRATA_SCHEDULER_INTERNAL_POOL_RUN_H_
