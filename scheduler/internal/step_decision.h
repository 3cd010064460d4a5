// Internal to //scheduler: what a threaded scheduler tells the context's
// runner about one execute() call. The schedulers return it
// (scheduler/atomic_counter.h, scheduler/sequential.h) and the run policy
// reads it (context/internal/run_policy.h, adaptive_run_policy.h); users
// choose a scheduler in the settings and never see it.
#ifndef STRATA_SCHEDULER_INTERNAL_STEP_DECISION_H_
#define STRATA_SCHEDULER_INTERNAL_STEP_DECISION_H_

#include <cstdint>

namespace strata::scheduler_internal {

// What a threaded scheduler decided for one execute() call: whether any
// system went to the pool, and the predicted work off the call's critical
// path (the predicted total minus the longest predicted chain of systems)
// it decided from. A caller that sees a call run inline can keep running
// it inline, without the per-system predictions, until the work off the
// critical path could reach hand_off_policy::kInlineStepNs
// (scheduler/hand_off.h; context/internal/system_runner.h does, with the
// systems' growth as the trigger).
struct step_decision {
  bool used_pool = false;
  std::int64_t off_critical_ns = 0;
};

}  // namespace strata::scheduler_internal

#endif  // STRATA_SCHEDULER_INTERNAL_STEP_DECISION_H_
