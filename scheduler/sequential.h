// The sequential scheduler: runs the selected systems one after another on
// the calling thread, in the DAG's topological order (declaration order
// wherever dependencies allow).
//
// It is the deterministic reference every parallel scheduler is tested
// against, and a good choice for debugging. A system's subtasks run in
// subtask order on the caller too (`runs_subtasks_in_parallel` is false).
//
// execute<SystemList, Selected>(pool, run_system): calls run_system(i) for
// each i with Selected[i], in topological order. O(N + edges) besides the
// systems themselves; allocates nothing (one flag per system on the
// caller's stack). The walk is compiled once, in sequential.cc, from the
// call's table (scheduler/internal/call_table.h); run_system is called
// through an absl::FunctionRef.
//
// Exceptions (the rule every Strata scheduler follows, so a failing step
// ends in the same state under every scheduler and thread count): a system
// that throws does not stop the others; every selected system that does not
// depend, directly or transitively, on a system that threw still runs; none
// of the throwing system's dependents runs; after the run, the exception of
// the lowest system id is rethrown.
#ifndef STRATA_SCHEDULER_SEQUENTIAL_H_
#define STRATA_SCHEDULER_SEQUENTIAL_H_

#include <array>
#include <cstddef>

#include "absl/functional/function_ref.h"
#include "scheduler/hand_off.h"
#include "scheduler/internal/call_table.h"
#include "scheduler/internal/step_decision.h"

namespace strata::scheduler_internal {

// Runs run_system(i) for every selected system of `table` in its
// topological order, skipping the dependents of a system that threw; then
// rethrows the exception of the lowest system id, if any. `blocked` has
// table.count flags, all false.
void run_in_order(const call_table& table,
                  absl::FunctionRef<void(std::size_t)> run_system,
                  bool* blocked);

}  // namespace strata::scheduler_internal

namespace strata::scheduler {

struct sequential_t {
  static constexpr bool runs_subtasks_in_parallel = false;

  template <typename SystemList, auto Selected, typename Pool,
            typename RunSystem>
  static void execute(Pool& /*pool*/, RunSystem&& run_system) {
    constexpr std::size_t n = SystemList::count;
    if constexpr (n > 0) {
      // blocked[i]: system i threw, or depends on one that did.
      std::array<bool, n> blocked{};
      scheduler_internal::run_in_order(
          scheduler_internal::call_table_of<SystemList, Selected>::value,
          run_system, blocked.data());
    }
  }
  // The threaded schedulers' interface; predictions do not matter here.
  template <typename SystemList, auto Selected, typename Pool,
            typename RunSystem, typename Predict>
  static scheduler_internal::step_decision execute(Pool& pool,
                                                   RunSystem&& run_system,
                                                   Predict&&,
                                                   hand_off_policy = {}) {
    execute<SystemList, Selected>(pool, run_system);
    return {};
  }
};

inline constexpr sequential_t sequential{};

}  // namespace strata::scheduler

#endif  // STRATA_SCHEDULER_SEQUENTIAL_H_
