// Internal to //context: the run policy, everything the context decides
// about running its systems on threads, behind one interface the system
// runner (internal/system_runner.h) and the context core (internal/core.h)
// call at fixed points:
//
//   before_step        a step begins
//   before_call        an execute_systems() call: how it runs (call_plan)
//   forecast           a system's run, before its subtasks are prepared:
//                      the split hint, measured or not (system_forecast)
//   before_system      its subtasks prepared: split or not (system_plan)
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
// Two policies. fixed_run_policy decides from the settings alone and
// measures nothing: a threaded scheduler hands every system to the pool and
// splits it as its strategy says (hand_off::never: everything on the
// calling thread). adaptive_run_policy, the default of a threaded
// scheduler, measures the systems' costs and decides from predictions
// (scheduler/hand_off.h), remembering calls it ran inline. A context whose
// settings choose the sequential scheduler, or
// `.run_policy(strata::run_policy::fixed)`, holds a fixed_run_policy: no
// clock read, no prediction, nothing remembered.
//
// The adaptive policy's decisions do not depend on the program's types:
// they are its cost_model, compiled once (internal/run_policy.cc says when
// a call is remembered, probed and forgotten, and why), handed plain
// numbers (system indices, entity counts, nanoseconds, a call's key). The
// templates keep what depends on types: each system's planning and the
// table of its costs. A policy never calls back into the core (it is handed
// the subscriptions, runtimes and numbers) and allocates nothing.
//
// Thread-safety: used by the context's thread outside system execution,
// except before_system/after_system, called by the thread running a
// system, which touch only that system's runtime (and, adaptive, the
// split flag, an atomic).
#ifndef STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_
#define STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "context/trace.h"
#include "scheduler/hand_off.h"

namespace strata::context_internal {

// How an execute_systems() call runs (the header's comment).
enum class call_mode { calling_thread, calling_thread_unplanned, scheduled };

// What a policy expects of a system's run before its subtasks are
// prepared: the prediction, whether the run is measured, the split hint.
struct system_forecast {
  std::int64_t predicted = run_cost::unknown;
  bool measure = false;
  std::int64_t hint = run_cost::unknown;
};

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

// One call's systems as the model sees them: which are selected, and their
// member counts (after pending departures, and as they are) and growth
// limits through the subscriptions; constant per call (call_shape).
struct call_shape {
  const bool* selected;
  std::size_t count;
  std::size_t (*subscribed)(const void* subscriptions, std::size_t system);
  std::size_t (*members)(const void* subscriptions, std::size_t system);
  void (*limit_growth)(const void* subscriptions, std::size_t system,
                       std::size_t limit);
};
struct call_systems {
  const call_shape* shape;
  run_cost* const* costs;
  const void* subscriptions;
};

// The calls of execute_systems() whose last decision was to run on the
// calling thread, unsplit, and the timings of calls run on threads and
// inline (internal/run_policy.cc). Keyed by the call's run table address.
class inline_decisions {
 public:
  // How a call runs now: deciding (the scheduler's full path), by its
  // remembered decision, or by it and timed (a sampling step).
  enum class mode { decide, remembered, remembered_timed };

  static constexpr std::uint32_t kForever = 0;  // a remembered lifetime
  // Once per call: counts down a remembered decision's lifetime.
  mode mode_for(const void* call, bool sampling) noexcept;
  // Inline, unsplit, until the work reaches `budget_ns` (and, but for
  // kForever, `lifetime` calls).
  void remember(const void* call, std::int64_t budget_ns,
                std::uint32_t lifetime) noexcept;
  bool within_budget(const void* call, std::int64_t ns) const noexcept;
  void forget_all() noexcept;

  // Counts a call about to be decided; whether it runs inline (a probe).
  bool probe_due(const void* call) noexcept;
  // A timed run of `call`, on threads or inline.
  void record(const void* call, bool on_threads, std::int64_t ns) noexcept;
  bool timed(const void* call) const noexcept;
  // Whether `call` measured clearly faster inline than on threads.
  bool inline_wins(const void* call) const noexcept;
  std::int64_t inline_mean(const void* call) const noexcept;
  std::int64_t threaded_mean(const void* call) const noexcept;

  // A system of the current call ran its subtasks on several threads.
  void note_split() noexcept { split_.store(true, std::memory_order_relaxed); }
  bool take_split() noexcept {
    return split_.exchange(false, std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t kSlots = 4;
  static constexpr std::size_t kNone = kSlots;

  struct timing {
    std::int64_t threaded_ns = 0;  // means; 0: no sample yet
    std::int64_t inline_ns = 0;
    std::uint32_t decided = 0;
    std::uint32_t inline_runs = 0;
    std::uint32_t threaded_runs = 0;
    bool rechecking = false;  // a "threads lose" decision just expired
  };
  std::size_t find(const void* call) const noexcept;
  std::size_t timing_slot(const void* call) const noexcept;
  timing* timing_of(const void* call) noexcept;
  const timing* timing_of(const void* call) const noexcept;
  timing& timing_for(const void* call) noexcept;

  std::array<const void*, kSlots> calls_{};
  std::array<std::int64_t, kSlots> budgets_{};
  std::array<std::uint32_t, kSlots> lives_{};
  std::size_t next_ = 0;
  std::array<const void*, kSlots> timed_calls_{};
  std::array<timing, kSlots> timings_{};
  std::size_t next_timed_ = 0;
  std::atomic<bool> split_{false};
};

class cost_model {
 public:
  // One step in kCostSampleSteps samples (internal/run_policy.cc: why).
  static constexpr std::uint64_t kCostSampleSteps = 32;

  // The selected systems' predictions: total, largest, all measured
  // before, all fresh (measured, not marked stale since).
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
    bool probe = false;      // inline instead of deciding
    bool too_small = false;  // every prediction below a hand-off's worth
    std::int64_t start_ns = 0;
    prediction_summary predicted;
  };

  // Measures on a threaded scheduler with workers, deciding automatically.
  cost_model(hand_off_policy configured, bool runs_in_parallel,
             std::size_t workers) noexcept
      : hand_off_(configured),
        runs_in_parallel_(runs_in_parallel),
        measures_(runs_in_parallel && configured.mode == hand_off::automatic &&
                  workers > 0) {}

  void before_step(std::uint64_t step) noexcept {
    sampling_ = measures_ && step % kCostSampleSteps == 0;
  }
  call_plan before_call(const call_systems& systems, const void* call);
  void after_call(const call_systems& systems, const void* call,
                  const call_plan& plan, step_decision decision);
  // Every call decides again, from fresh measurements of every system.
  void forget_decisions(run_cost* const* costs, std::size_t count) noexcept;

  bool measures() const noexcept { return measures_; }
  bool sampling() const noexcept { return sampling_; }
  bool runs_in_parallel() const noexcept { return runs_in_parallel_; }
  hand_off_policy hand_off() const noexcept { return hand_off_; }
  void note_split() noexcept { decisions_.note_split(); }
  // A run since `start_ns` over `entities`, timed as a whole.
  static void record_run(run_cost& cost, std::int64_t start_ns,
                         std::size_t entities);

 private:
  call_plan plan_of(call_mode mode) const noexcept;
  call_plan plan_decided(const call_systems& systems);
  prediction_summary summarize(const call_systems& systems) const;
  void remember_inline(const call_systems& systems, const void* call,
                       const call_plan& plan, step_decision decision);
  void remember_threads_lose(const call_systems& systems, const void* call);
  void after_timed_inline_run(const call_systems& systems, const void* call,
                              const call_plan& plan, std::int64_t ns);

  hand_off_policy hand_off_;
  bool runs_in_parallel_;
  bool measures_;
  bool sampling_ = false;
  inline_decisions decisions_;
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
  system_forecast forecast(const run_cost&, std::size_t) const noexcept {
    return {.hint = split_hint(hand_off_, run_cost::unknown)};
  }
  system_plan before_system(const system_forecast&,
                            std::size_t subtasks) const noexcept {
    return {.parallel = Types::inner_parallelism_allowed && runs_in_parallel_ &&
                        hand_off_.worth_splitting(run_cost::unknown, subtasks)};
  }
  void after_system(run_cost&, const system_plan&, std::size_t) const noexcept {
  }
  template <const auto& Selected, typename Subscriptions>
  void after_call(const Subscriptions&, const void*, const call_plan&,
                  step_decision) const noexcept {}
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

// Decisions from measured costs, made by the cost model where they matter
// (else as the configured hand-off mode says, without predictions); this
// template hands it the call's systems and plans each system's run.
template <typename Types>
class adaptive_run_policy {
  static constexpr std::size_t system_count = Types::system_count;

 public:
  static constexpr std::uint64_t kCostSampleSteps =
      cost_model::kCostSampleSteps;
  using call_plan = cost_model::call_plan;

  adaptive_run_policy(hand_off_policy configured, bool runs_in_parallel,
                      std::size_t workers)
      : model_(configured, runs_in_parallel, workers) {}

  void before_step(std::uint64_t step) noexcept { model_.before_step(step); }
  template <const auto& Selected, typename Subscriptions>
  call_plan before_call(const Subscriptions& subscriptions, const void* call) {
    return model_.before_call(systems_of<Selected>(subscriptions), call);
  }
  template <const auto& Selected, typename Subscriptions>
  void after_call(const Subscriptions& subscriptions, const void* call,
                  const call_plan& plan, step_decision decision) {
    // Nothing to learn from a planned call on the calling thread, or an
    // untimed one run by a remembered decision (the cheapest run there is).
    if (plan.mode != call_mode::scheduled && !plan.timed) return;
    model_.after_call(systems_of<Selected>(subscriptions), call, plan,
                      decision);
  }

  // How a system runs this time: measured or not, and the hint its
  // subtasks are prepared with; then, prepared, split over the pool or not
  // (and since when it is timed).
  system_forecast forecast(const run_cost& cost,
                           std::size_t entities) const noexcept {
    const bool measures = model_.measures();
    const std::int64_t predicted =
        measures ? cost.predict(entities) : run_cost::unknown;
    return {
        .predicted = predicted,
        .measure = measures && (model_.sampling() || cost.needs_measuring()),
        .hint = split_hint(model_.hand_off(), predicted)};
  }
  system_plan before_system(const system_forecast& forecast,
                            std::size_t subtasks) noexcept {
    const bool parallel =
        Types::inner_parallelism_allowed && model_.runs_in_parallel() &&
        model_.hand_off().worth_splitting(forecast.predicted, subtasks);
    if (parallel) model_.note_split();
    return {.parallel = parallel,
            .measure = forecast.measure,
            .start_ns = forecast.measure ? trace_span::now_ns() : 0};
  }
  // A measured run whose subtasks did not record its cost (a
  // detailed_instance callable that ran none, or a hierarchy-order run),
  // over `entities`: timed as a whole.
  void after_system(run_cost& cost, const system_plan& plan,
                    std::size_t entities) {
    cost_model::record_run(cost, plan.start_ns, entities);
  }

  // A system that outgrew its decision's limit at this refresh makes every
  // call decide again.
  void after_refresh(bool grown) {
    if (grown) forget_decisions();
  }
  // Every call decides again, from fresh measurements of every system.
  void forget_decisions() noexcept {
    model_.forget_decisions(costs_.data(), system_count);
  }

  // System `system`'s predicted run time at its current entity count
  // (run_cost::unknown when nothing is measured), for the scheduler.
  template <typename Subscription>
  std::int64_t predicted_ns(const Subscription& subscription,
                            std::size_t system) const {
    if (!model_.measures()) return run_cost::unknown;
    return costs_[system]->predict(subscription.subscribed_indices().size());
  }
  void watch_cost(std::size_t system, run_cost& cost) noexcept {
    costs_[system] = &cost;
  }

 private:
  // The call's systems as the cost model reads them.
  template <const auto& Selected, typename S, std::size_t N>
  call_systems systems_of(const std::array<S*, N>& subscriptions) const {
    return {&shape_of<Selected, S>, costs_.data(), subscriptions.data()};
  }
  template <typename S>
  static S& of(const void* subscriptions, std::size_t system) {
    return *static_cast<S* const*>(subscriptions)[system];
  }
  template <typename S>
  static std::size_t subscribed(const void* subscriptions, std::size_t system) {
    return of<S>(subscriptions, system).subscribed_indices().size();
  }
  template <typename S>
  static std::size_t members(const void* subscriptions, std::size_t system) {
    return of<S>(subscriptions, system).raw_subscribed_indices().size();
  }
  template <typename S>
  static void limit_growth(const void* subscriptions, std::size_t system,
                           std::size_t limit) {
    of<S>(subscriptions, system).set_growth_limit(limit);
  }
  template <const auto& Selected, typename S>
  static constexpr call_shape shape_of = {Selected.data(), system_count,
                                          &subscribed<S>, &members<S>,
                                          &limit_growth<S>};

  cost_model model_;
  std::array<run_cost*, system_count> costs_{};
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_RUN_POLICY_H_
