// Internal to //context: the adaptive run policy, the default of a threaded
// scheduler (the interface and the fixed policy: internal/run_policy.h). It
// measures the systems' costs and decides from predictions
// (scheduler/hand_off.h) whether a call's systems go to the pool or run on
// the calling thread, remembering calls it ran inline.
//
// Its decisions do not depend on the program's types: they are its
// cost_model, compiled once (internal/adaptive_run_policy.cc says when a
// call is remembered, probed and forgotten, and why), handed plain numbers
// (system indices, entity counts, nanoseconds, a call's key) and the call's
// systems as plain data (call_systems). adaptive_run_policy, the template,
// keeps what depends on types: each system's planning and the table of its
// costs. Per call: one call into the cost model, and, when it decides, one
// indirect call per selected system for its entity count, never one per
// entity.
//
// Thread-safety: as internal/run_policy.h says; inline_decisions' split
// flag is the one member written by the threads running systems.
#ifndef STRATA_CONTEXT_INTERNAL_ADAPTIVE_RUN_POLICY_H_
#define STRATA_CONTEXT_INTERNAL_ADAPTIVE_RUN_POLICY_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "base/internal/atomic_value.h"
#include "context/internal/run_policy.h"
#include "scheduler/hand_off.h"
#include "scheduler/internal/step_decision.h"

namespace strata::context_internal {

// One call's systems as the model sees them: which are selected, their
// subscribed entity counts (after pending departures: subscribed; as they
// are: raw_subscribed, subscription::raw_subscribed_count) and growth
// limits through the subscriptions; constant per call (call_shape).
struct call_shape {
  const bool* selected;
  std::size_t count;
  std::size_t (*subscribed)(const void* subscriptions, std::size_t system);
  std::size_t (*raw_subscribed)(const void* subscriptions, std::size_t system);
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
// inline (internal/adaptive_run_policy.cc). Keyed by the call's run table
// address.
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
  void note_split() noexcept {
    split_.store(true, base_internal::memory_order::relaxed);
  }
  bool take_split() noexcept {
    return split_.exchange(false, base_internal::memory_order::relaxed);
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
  base_internal::atomic_value<bool> split_{false};
};

class cost_model {
 public:
  // One step in kCostSampleSteps samples (internal/adaptive_run_policy.cc:
  // why).
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
                  const call_plan& plan,
                  scheduler_internal::step_decision decision);
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
                       const call_plan& plan,
                       scheduler_internal::step_decision decision);
  void remember_threads_lose(const call_systems& systems, const void* call);
  void after_timed_inline_run(const call_systems& systems, const void* call,
                              const call_plan& plan, std::int64_t ns);

  hand_off_policy hand_off_;
  bool runs_in_parallel_;
  bool measures_;
  bool sampling_ = false;
  inline_decisions decisions_;
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
                  const call_plan& plan,
                  scheduler_internal::step_decision decision) {
    // Nothing to learn from a planned call on the calling thread, or an
    // untimed one run by a remembered decision (the cheapest run there is).
    if (plan.mode != call_mode::scheduled && !plan.timed) return;
    model_.after_call(systems_of<Selected>(subscriptions), call, plan,
                      decision);
  }

  // How a system runs this time: predicted from its cost and entity
  // count, measured or not; its subtasks prepared with the split hint
  // (run_policy.h); then split over the pool or not (and since when it is
  // timed).
  template <typename Runtime>
  system_plan before_system(Runtime& runtime, std::size_t threads,
                            std::uint64_t step) {
    const run_cost& cost = runtime.cost();
    const bool measures = model_.measures();
    const std::int64_t predicted =
        measures ? cost.predict(runtime.subscribed_count()) : run_cost::unknown;
    const bool measure =
        measures && (model_.sampling() || cost.needs_measuring());
    runtime.prepare_subtasks(threads, Types::inner_parallelism_allowed, step,
                             split_hint(predicted));
    const bool parallel =
        Types::inner_parallelism_allowed && model_.runs_in_parallel() &&
        model_.hand_off().worth_splitting(predicted, runtime.subtask_count());
    if (parallel) model_.note_split();
    return {.parallel = parallel,
            .measure = measure,
            .start_ns = measure ? run_cost::now_ns() : 0};
  }
  // A measured run whose subtasks did not record its cost (a
  // detailed_instance callable that ran none, or a hierarchy-order run),
  // over its entities: timed as a whole.
  template <typename Runtime>
  void after_system(Runtime& runtime, const system_plan& plan) {
    cost_model::record_run(runtime.cost(), plan.start_ns,
                           runtime.subscribed_count());
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
    return costs_[system]->predict(subscription.subscribed_count());
  }
  void watch_cost(std::size_t system, run_cost& cost) noexcept {
    costs_[system] = &cost;
  }

 private:
  // The split hint (run_policy.h): the prediction, or what the hand-off
  // mode forces.
  std::int64_t split_hint(std::int64_t predicted) const noexcept {
    if (model_.hand_off().mode == hand_off::always) {
      return std::numeric_limits<std::int64_t>::max();
    }
    return model_.hand_off().mode == hand_off::never ? run_cost::unknown
                                                     : predicted;
  }

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
    return of<S>(subscriptions, system).subscribed_count();
  }
  template <typename S>
  static std::size_t raw_subscribed(const void* subscriptions,
                                    std::size_t system) {
    return of<S>(subscriptions, system).raw_subscribed_count();
  }
  template <typename S>
  static void limit_growth(const void* subscriptions, std::size_t system,
                           std::size_t limit) {
    of<S>(subscriptions, system).set_growth_limit(limit);
  }
  template <const auto& Selected, typename S>
  static constexpr call_shape shape_of = {Selected.data(), system_count,
                                          &subscribed<S>, &raw_subscribed<S>,
                                          &limit_growth<S>};

  cost_model model_;
  std::array<run_cost*, system_count> costs_{};
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_ADAPTIVE_RUN_POLICY_H_
