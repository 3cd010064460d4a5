// Internal to //context: the run policy, everything the context decides
// about running its systems on threads, behind one interface the system
// runner (internal/system_runner.h) and the context core (internal/core.h)
// call at fixed points:
//
//   before_step(step)                    a step begins
//   before_call<Selected>(core, call)    an execute_systems() call: how it
//                                        runs (a call_plan)
//   before_system(core, runtime)         a system's run: its subtasks
//                                        prepared, split or not, measured
//                                        or not (a system_plan)
//   after_system(runtime, plan, timed)   the run ended
//   after_call<Selected>(core, call, plan, decision)   the call ended
//   after_refresh(core)                  the step's refresh ended
//   forget_decisions()                   the world was replaced (a restore)
//
// A call_plan says one of three things: run the call on the calling thread
// as the sequential scheduler would, each system planned by
// before_system (`calling_thread`); the same with every system run
// unplanned, inline, unsplit and unmeasured (`calling_thread_unplanned`,
// the cheapest run there is); or hand it to the scheduler with a hand-off
// policy (`scheduled`). The settings' scheduler runs each, given
// hand_off::never for the first two: the calling thread, sequential order.
//
// Two policies. fixed_run_policy decides from the settings alone and
// measures nothing: a threaded scheduler hands every system to the pool and
// splits it as its strategy says (hand_off::never: everything on the
// calling thread). adaptive_run_policy, the default of a threaded
// scheduler, measures the systems' costs and decides from predictions
// (scheduler/hand_off.h), remembering calls it ran inline
// (internal/inline_decisions.h). A context whose settings choose the
// sequential scheduler, or `.run_policy(strata::run_policy::fixed)`, holds
// a fixed_run_policy: no clock read, no prediction, nothing remembered.
//
// Thread-safety: used by the context's thread outside system execution,
// except before_system/after_system, called by the thread running a
// system, which touch only that system's runtime (and, adaptive, the
// split flag, an atomic).
#ifndef STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_
#define STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "context/internal/inline_decisions.h"
#include "context/trace.h"
#include "scheduler/hand_off.h"

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

// The strategy hint a policy gives a system's subtask split
// (inner_parallelism::automatic()): the prediction, or what the hand-off
// mode forces.
constexpr std::int64_t split_hint(hand_off_policy policy,
                                  std::int64_t predicted) {
  if (policy.mode == hand_off::always) {
    return std::numeric_limits<std::int64_t>::max();
  }
  return policy.mode == hand_off::never ? run_cost::unknown : predicted;
}

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
  template <const auto& Selected, typename Core>
  call_plan before_call(Core& /*core*/, const void* /*call*/) const noexcept {
    if (!runs_in_parallel_) return {call_mode::calling_thread, hand_off::never};
    return {call_mode::scheduled, hand_off_};
  }
  template <typename Core, typename Runtime>
  [[gnu::noinline]] system_plan before_system(Core& core,
                                              Runtime& runtime) const {
    runtime.prepare_subtasks(
        core.thread_count(), Types::inner_parallelism_allowed,
        core.step_count(), split_hint(hand_off_, run_cost::unknown));
    return {.parallel = Types::inner_parallelism_allowed && runs_in_parallel_ &&
                        hand_off_.worth_splitting(run_cost::unknown,
                                                  runtime.subtask_count())};
  }
  template <typename Runtime>
  void after_system(Runtime&, const system_plan&, bool) const noexcept {}
  template <const auto& Selected, typename Core>
  void after_call(Core&, const void*, const call_plan&,
                  step_decision) const noexcept {}
  template <typename Core>
  void after_refresh(Core&) const noexcept {}
  void forget_decisions() const noexcept {}

  // Predicted run times, for the scheduler: none.
  template <typename Core>
  std::int64_t predicted_ns(Core& /*core*/, std::size_t /*system*/) const {
    return run_cost::unknown;
  }
  void watch_cost(std::size_t /*system*/, run_cost& /*cost*/) noexcept {}

 private:
  hand_off_policy hand_off_;
  bool runs_in_parallel_;
};

// Decisions from measured costs (scheduler/hand_off.h), made only where they
// matter: a threaded scheduler with workers, deciding automatically (else
// as the configured hand-off mode says, without predictions). Calls run
// inline are remembered, threads that do not pay are dropped
// (internal/inline_decisions.h says when and why).
template <typename Types>
class adaptive_run_policy {
  static constexpr std::size_t system_count = Types::system_count;

 public:
  // One step in kCostSampleSteps samples: systems whose cost is known are
  // measured again, and a call run by a remembered decision is timed. Two
  // clock reads per subtask are most of a small system's scheduling cost
  // and costs drift slowly (predictions scale with the entity count); a
  // sample weighs 1/4 in the mean, so a changed per-entity cost is followed
  // within a few periods.
  static constexpr std::uint64_t kCostSampleSteps = 32;

  // What the selected systems' predictions add up to: the total, the
  // largest, whether every system was measured before, and whether every
  // prediction is fresh (measured, and not marked stale since).
  struct prediction_summary {
    std::int64_t total = 0;
    std::int64_t largest = 0;
    bool all_known = true;
    bool all_fresh = true;
  };
  struct call_plan {
    call_mode mode = call_mode::calling_thread;
    hand_off_policy hand_off;
    bool timed = false;      // since start_ns
    bool probe = false;      // inline instead of deciding (inline_decisions.h)
    bool too_small = false;  // every prediction below a hand-off's worth
    std::int64_t start_ns = 0;
    prediction_summary predicted;
  };

  adaptive_run_policy(hand_off_policy configured, bool runs_in_parallel,
                      std::size_t workers)
      : hand_off_(configured),
        runs_in_parallel_(runs_in_parallel),
        measures_(runs_in_parallel && configured.mode == hand_off::automatic &&
                  workers > 0) {}

  void before_step(std::uint64_t step) noexcept {
    sampling_ = measures_ && step % kCostSampleSteps == 0;
  }

  template <const auto& Selected, typename Core>
  call_plan before_call(Core& core, const void* call) {
    if (!runs_in_parallel_) return plan_of(call_mode::calling_thread);
    if (!measures_) return plan_of(call_mode::scheduled);
    using mode = inline_decisions::mode;
    const mode how = decisions_.mode_for(call, sampling_);
    // A probe: a call to decide runs inline instead, timed. Never on a
    // sampling step, which must measure every system.
    const bool probe =
        how == mode::decide && !sampling_ && decisions_.probe_due(call);
    if (how == mode::decide && !probe) return plan_decided<Selected>(core);
    call_plan plan = plan_of(call_mode::calling_thread_unplanned);
    plan.timed = how != mode::remembered;
    plan.probe = probe;
    plan.start_ns = plan.timed ? trace_span::now_ns() : 0;
    return plan;
  }

  template <const auto& Selected, typename Core>
  void after_call(Core& core, const void* call, const call_plan& plan,
                  step_decision decision) {
    if (plan.mode == call_mode::calling_thread) return;
    const std::int64_t elapsed =
        plan.timed ? trace_span::now_ns() - plan.start_ns : 0;
    if (plan.mode == call_mode::calling_thread_unplanned) {
      if (plan.timed)
        after_timed_inline_run<Selected>(core, call, plan, elapsed);
      return;
    }
    const bool split = decisions_.take_split();
    if (!plan.timed) return;
    if (decision.used_pool || split) {
      // Timed against the probes' inline runs.
      decisions_.record(call, /*on_threads=*/true, elapsed);
      if (decisions_.inline_wins(call))
        remember_threads_lose<Selected>(core, call);
      return;
    }
    if (plan.predicted.all_fresh) {
      remember_inline<Selected>(core, call, plan, decision);
    }
  }

  // How a system runs this time: split over the pool or not, measured or
  // not (and since when); prepares its subtasks. Out of line: one call per
  // system run, compiled once per strategy and state types.
  template <typename Core, typename Runtime>
  [[gnu::noinline]] system_plan before_system(Core& core, Runtime& runtime) {
    const std::int64_t predicted =
        measures_ ? runtime.cost().predict(runtime.subscribed_count())
                  : run_cost::unknown;
    const bool measure =
        measures_ && (sampling_ || runtime.cost().needs_measuring());
    runtime.prepare_subtasks(
        core.thread_count(), Types::inner_parallelism_allowed,
        core.step_count(), split_hint(hand_off_, predicted));
    const bool parallel =
        Types::inner_parallelism_allowed && runs_in_parallel_ &&
        hand_off_.worth_splitting(predicted, runtime.subtask_count());
    if (parallel) decisions_.note_split();
    return {.parallel = parallel,
            .measure = measure,
            .start_ns = measure ? trace_span::now_ns() : 0};
  }
  // A measured run whose subtasks did not record its cost (a
  // detailed_instance callable that ran none, or a hierarchy-order run):
  // timed as a whole.
  template <typename Runtime>
  void after_system(Runtime& runtime, const system_plan& plan,
                    bool subtasks_measured) {
    if (plan.measure && !subtasks_measured) [[unlikely]] {
      record_cost(runtime, plan.start_ns);
    }
  }

  // A system that outgrew its decision's limit at this refresh makes every
  // call decide again.
  template <typename Core>
  void after_refresh(Core& core) {
    if (core.refresh_queue().take_membership_growth()) forget_decisions();
  }
  // Every call decides again, from fresh measurements of every system.
  void forget_decisions() noexcept {
    decisions_.forget_all();
    for (run_cost* cost : costs_) cost->mark_stale();
  }

  // System `system`'s predicted run time at its current entity count
  // (run_cost::unknown when nothing is measured), for the scheduler.
  template <typename Core>
  std::int64_t predicted_ns(Core& core, std::size_t system) const {
    if (!measures_) return run_cost::unknown;
    return costs_[system]->predict(
        core.subscription(system).subscribed_indices().size());
  }
  void watch_cost(std::size_t system, run_cost& cost) noexcept {
    costs_[system] = &cost;
  }

 private:
  call_plan plan_of(call_mode mode) const {
    call_plan plan;
    plan.mode = mode;
    plan.hand_off = mode == call_mode::scheduled
                        ? hand_off_
                        : hand_off_policy(hand_off::never);
    return plan;
  }
  // A call to decide: the scheduler's full path, timed. A step too small
  // for threads (every system measured, the total below both the work a
  // step needs before it uses the pool and the work a system needs before
  // it splits) runs as the sequential scheduler would: hand_off::never
  // makes the threaded scheduler skip its ranking. Sampling steps take the
  // full path.
  template <const auto& Selected, typename Core>
  call_plan plan_decided(Core& core) {
    constexpr std::int64_t small = std::min(hand_off_policy::kInlineStepNs,
                                            hand_off_policy::kMinSubtaskNs);
    call_plan plan = plan_of(call_mode::scheduled);
    plan.predicted = summarize<Selected>(core);
    plan.too_small =
        !sampling_ && plan.predicted.all_known && plan.predicted.total < small;
    if (plan.too_small) plan.hand_off = hand_off::never;
    plan.timed = true;
    plan.start_ns = trace_span::now_ns();
    return plan;
  }
  template <const auto& Selected, typename Core>
  prediction_summary summarize(Core& core) const {
    prediction_summary summary;
    for (std::size_t id = 0; id < system_count; ++id) {
      if (!Selected[id]) continue;
      const std::int64_t predicted = predicted_ns(core, id);
      summary.all_known &= predicted != run_cost::unknown;
      summary.all_fresh &= !costs_[id]->needs_measuring();
      summary.total += predicted;
      summary.largest = std::max(summary.largest, predicted);
    }
    return summary;
  }

  // A decided call ran inline and unsplit from fresh predictions: it is
  // remembered, each selected system limited to the entity count at which
  // the decision could change (without a ranking, too small, the whole
  // total counts as off the critical path: a lower limit, never a wrong
  // one).
  template <const auto& Selected, typename Core>
  void remember_inline(Core& core, const void* call, const call_plan& plan,
                       step_decision decision) {
    const prediction_summary& predicted = plan.predicted;
    const std::int64_t off_critical =
        plan.too_small ? predicted.total : decision.off_critical_ns;
    const double headroom = std::max(
        1.0,
        std::min(ratio(hand_off_policy::kInlineStepNs, off_critical),
                 ratio(hand_off_policy::kMinSubtaskNs, predicted.largest)));
    for (std::size_t id = 0; id < system_count; ++id) {
      if (!Selected[id]) continue;
      auto& subscription = core.subscription(id);
      const double limit =
          static_cast<double>(subscription.raw_subscribed_indices().size()) *
          headroom;
      subscription.set_growth_limit(limit >= 1e18
                                        ? static_cast<std::size_t>(-1)
                                        : static_cast<std::size_t>(limit));
    }
    decisions_.remember(
        call, static_cast<std::int64_t>(static_cast<double>(predicted.total) *
                                        headroom));
  }
  static double ratio(std::int64_t budget, std::int64_t work) {
    return static_cast<double>(budget) /
           static_cast<double>(std::max<std::int64_t>(work, 1));
  }

  // Threads measured slower than inline for `call`: it runs inline, the
  // sequential scheduler's way, for recheck_calls(inline mean) calls, unless
  // a selected system doubles its entities or a sampled run takes longer
  // than both twice the inline mean and the threaded mean (then every call
  // decides again).
  template <const auto& Selected, typename Core>
  void remember_threads_lose(Core& core, const void* call) {
    const std::int64_t inline_ns = decisions_.inline_mean(call);
    const std::int64_t budget =
        std::max(2 * inline_ns, decisions_.threaded_mean(call));
    for (std::size_t id = 0; id < system_count; ++id) {
      if (!Selected[id]) continue;
      auto& subscription = core.subscription(id);
      subscription.set_growth_limit(
          std::max<std::size_t>(1,
                                subscription.raw_subscribed_indices().size()) *
          2);
    }
    decisions_.remember(call, budget,
                        inline_decisions::recheck_calls(inline_ns));
  }

  // An inline run of `call` that took `ns` (a probe, or a sampled run of a
  // remembered call) feeds its inline mean, if the call is timed. A probe
  // that wins makes the call inline; a remembered call over its budget
  // makes every call decide again.
  template <const auto& Selected, typename Core>
  void after_timed_inline_run(Core& core, const void* call,
                              const call_plan& plan, std::int64_t ns) {
    if (!plan.probe && !decisions_.within_budget(call, ns)) {
      forget_decisions();
      return;
    }
    if (plan.probe || decisions_.timed(call)) {
      decisions_.record(call, /*on_threads=*/false, ns);
    }
    if (plan.probe && decisions_.inline_wins(call)) {
      remember_threads_lose<Selected>(core, call);
    }
  }

  template <typename Runtime>
  [[gnu::noinline]] static void record_cost(Runtime& runtime,
                                            std::int64_t start_ns) {
    runtime.cost().record(trace_span::now_ns() - start_ns,
                          runtime.subscribed_count());
  }

  hand_off_policy hand_off_;
  bool runs_in_parallel_;
  bool measures_;
  bool sampling_ = false;
  std::array<run_cost*, system_count> costs_{};
  inline_decisions decisions_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_
