// The sequential scheduler: runs the selected systems one after another on
// the calling thread, in the DAG's topological order (declaration order
// wherever dependencies allow).
//
// It is the deterministic reference every parallel scheduler is tested
// against, and a good choice for debugging. A system's subtasks run in
// subtask order on the caller too (`runs_subtasks_in_parallel` is false).
//
// execute<SystemList, Selected>(pool, run_system): calls run_system(i) for
// each i with Selected[i], in topological order. O(N^2) bit tests besides the
// systems themselves (dependencies are checked only after a failure);
// allocates nothing.
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
#include <exception>

#include "scheduler/hand_off.h"
#include "scheduler/internal/step_decision.h"

namespace strata::scheduler {

struct sequential_t {
  static constexpr bool runs_subtasks_in_parallel = false;

  template <typename SystemList, auto Selected, typename Pool,
            typename RunSystem>
  static void execute(Pool& /*pool*/, RunSystem&& run_system) {
    constexpr std::size_t n = SystemList::count;
    // blocked[i]: system i threw, or depends on one that did.
    std::array<bool, (n > 0 ? n : 1)> blocked{};
    std::array<std::exception_ptr, (n > 0 ? n : 1)> errors{};
    bool any_failed = false;
    for (std::size_t id : SystemList::topological_order) {
      if (!Selected[id]) continue;
      if (any_failed) {
        for (std::size_t dep = 0; dep < n; ++dep) {
          if (Selected[dep] && blocked[dep] &&
              SystemList::graph.depends[id][dep]) {
            blocked[id] = true;
          }
        }
        if (blocked[id]) continue;
      }
      try {
        run_system(id);
      } catch (...) {
        errors[id] = std::current_exception();
        blocked[id] = true;
        any_failed = true;
      }
    }
    if (!any_failed) return;
    for (std::exception_ptr& error : errors) {
      if (error) std::rethrow_exception(error);
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
