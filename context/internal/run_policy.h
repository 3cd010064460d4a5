// Internal to //context: the run policy, everything the context decides
// about running its systems on threads, behind one interface the system
// runner (internal/system_runner.h) and the context core (internal/core.h)
// call at fixed points:
//
//   before_step        a step begins
//   before_call        an execute_systems() call: how it runs (call_plan)
//   before_system      a system's run: the policy prepares its subtasks
//                      (instance_runtime::prepare_subtasks, with the split
//                      hint it chooses) and says whether they split over
//                      the pool and whether the run is measured
//                      (system_plan)
//   after_system       a measured run ended that its subtasks did not time
//   after_call         the call ended
//   after_refresh      the step's refresh ended (grown: a system outgrew
//                      its growth limit)
//   forget_decisions   the world was replaced (a restore)
//
// A call_plan says one of three things: run the call on the calling thread
// as the sequential scheduler would, each system planned by
// before_system (`calling_thread`); the same with every system run
// unplanned, inline, unsplit and unmeasured (`calling_thread_unplanned`,
// the cheapest run there is); or hand it to the scheduler with a hand-off
// policy (`scheduled`). The settings' scheduler runs each, given
// hand_off::never for the first two: the calling thread, sequential order.
//
// Two policies. fixed_run_policy, here, decides from the settings alone
// and measures nothing: a threaded scheduler hands every system to the pool
// and splits it as its strategy says (hand_off::never: everything on the
// calling thread). adaptive_run_policy (internal/adaptive_run_policy.h),
// the default of a threaded scheduler, measures the systems' costs and
// decides from predictions (scheduler/hand_off.h), remembering calls it ran
// inline. A context whose settings choose the sequential scheduler, or
// `.run_policy(strata::run_policy::fixed)`, holds a fixed_run_policy: no
// clock read, no prediction, nothing remembered. A policy never calls back
// into the core (it is handed the subscriptions, runtimes and numbers) and
// allocates nothing.
//
// Thread-safety: used by the context's thread outside system execution,
// except before_system/after_system, called by the thread running a
// system, which touch only that system's runtime (and, adaptive, the
// split flag, an atomic).
//
// The split hint a policy prepares subtasks with
// (inner_parallelism::automatic() reads it): the run's prediction, or the
// largest value when the hand-off mode is `always` (split as far as the
// strategy goes), or run_cost::unknown when it is `never`.
#ifndef STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_
#define STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_

#include <cstddef>
#include <cstdint>
#include <limits>

#include "scheduler/hand_off.h"
#include "scheduler/internal/step_decision.h"

namespace strata::context_internal {

// How an execute_systems() call runs (the header's comment).
enum class call_mode { calling_thread, calling_thread_unplanned, scheduled };

// How one run of a system goes: its subtasks on the pool or in order on
// the running thread; timed as a whole (since start_ns) or not.
struct system_plan {
  bool parallel = false;
  bool measure = false;
  std::int64_t start_ns = 0;
};

// Decisions from the settings alone. With nothing measured, `automatic`
// has nothing to decide from: on a threaded scheduler it hands off every
// system, as `always` does (the scheduler's run without predictions).
template <typename Types>
class fixed_run_policy {
 public:
  struct call_plan {
    call_mode mode;
    hand_off_policy hand_off;
  };

  fixed_run_policy(hand_off_policy configured, bool runs_in_parallel,
                   std::size_t /*workers*/)
      : hand_off_(runs_in_parallel && configured.mode == hand_off::automatic
                      ? hand_off_policy(hand_off::always)
                      : configured),
        runs_in_parallel_(runs_in_parallel) {}

  void before_step(std::uint64_t /*step*/) noexcept {}
  template <const auto& Selected, typename Subscriptions>
  call_plan before_call(const Subscriptions&, const void*) const noexcept {
    if (!runs_in_parallel_) return {call_mode::calling_thread, hand_off::never};
    return {call_mode::scheduled, hand_off_};
  }
  // Nothing predicted: the hint is what the hand-off mode forces.
  template <typename Runtime>
  system_plan before_system(Runtime& runtime, std::size_t threads,
                            std::uint64_t step) const {
    runtime.prepare_subtasks(threads, Types::inner_parallelism_allowed, step,
                             hand_off_.mode == hand_off::always
                                 ? std::numeric_limits<std::int64_t>::max()
                                 : run_cost::unknown);
    return {.parallel = Types::inner_parallelism_allowed && runs_in_parallel_ &&
                        hand_off_.worth_splitting(run_cost::unknown,
                                                  runtime.subtask_count())};
  }
  template <typename Runtime>
  void after_system(Runtime&, const system_plan&) const noexcept {}
  template <const auto& Selected, typename Subscriptions>
  void after_call(const Subscriptions&, const void*, const call_plan&,
                  scheduler_internal::step_decision) const noexcept {}
  void after_refresh(bool /*grown*/) const noexcept {}
  void forget_decisions() const noexcept {}

  // Predicted run times, for the scheduler: none.
  template <typename Subscription>
  std::int64_t predicted_ns(const Subscription&, std::size_t) const {
    return run_cost::unknown;
  }
  void watch_cost(std::size_t /*system*/, run_cost& /*cost*/) noexcept {}

 private:
  hand_off_policy hand_off_;
  bool runs_in_parallel_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_
