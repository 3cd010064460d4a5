// The sequential scheduler: runs the selected systems one after another on
// the calling thread, in the DAG's topological order (declaration order
// wherever dependencies allow).
//
// It is the deterministic reference every parallel scheduler is tested
// against, and a good choice for debugging. A system's subtasks run in
// subtask order on the caller too (`runs_subtasks_in_parallel` is false).
//
// execute<SystemList, Selected>(pool, run_system): calls run_system(i) for
// each i with Selected[i], in topological order. O(N) besides the systems themselves;
// allocates nothing. An exception from run_system propagates at once; later
// systems do not run.
#ifndef STRATA_SCHEDULER_SEQUENTIAL_H_
#define STRATA_SCHEDULER_SEQUENTIAL_H_

#include <array>
#include <cstddef>

namespace strata::scheduler {

struct sequential_t {
  static constexpr bool runs_subtasks_in_parallel = false;

  template <typename SystemList, auto Selected, typename Pool,
            typename RunSystem>
  static void execute(Pool& /*pool*/, RunSystem&& run_system) {
    for (std::size_t id : SystemList::topological_order) {
      if (Selected[id]) run_system(id);
    }
  }
};

inline constexpr sequential_t sequential{};

}  // namespace strata::scheduler

#endif  // STRATA_SCHEDULER_SEQUENTIAL_H_
