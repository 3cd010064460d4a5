// The adaptive run policy's cost model (internal/adaptive_run_policy.h),
// compiled once.
//
// Sampling. One step in cost_model::kCostSampleSteps samples: systems whose
// cost is known are measured again, and a call run by a remembered decision
// is timed. Two clock reads per subtask are most of a small system's
// scheduling cost and costs drift slowly (predictions scale with the entity
// count); a sample weighs 1/4 in the mean, so a changed per-entity cost is
// followed within a few periods.
//
// Remembered decisions. Deciding costs a prediction per system (its
// measured cost per entity times its entity count), a critical-path ranking
// and the checks around them, per system: most of a step on a small world
// (the update benchmarks' 1-entity rows), where the answer is always
// "inline". So a call decided inline is remembered with its budget (the
// predicted work at which the decision could change), and runs again the
// way the sequential scheduler runs it (no prediction, no per-system
// measurement, no ranking) until something could change the answer:
//   * a system grows past the size the decision allows
//     (subscription::set_growth_limit, checked by the refresh): the
//     decision's headroom is spent;
//   * on a sampling step (one in cost_model::kCostSampleSteps) the call is
//     timed as a whole, two clock reads, and takes more than its budget:
//     the systems got costlier per entity.
// Either way the decisions are forgotten and the systems' costs marked
// stale, so the next call decides again from fresh measurements.
//
// Threads that do not pay. The predictions say what threads could gain
// from the systems' measured costs; they cannot see a worker that sleeps
// between steps and takes tens of microseconds to wake (a game's frames
// are milliseconds apart), a machine whose other cores are busy, or a VM
// whose second vCPU is descheduled. So a call decided onto threads is
// also timed as a whole, and now and then (every kProbeOften-th call about
// to be decided, every kProbeRare-th while threads clearly pay; never on a
// cost-sampling step, which must measure) run inline, as a probe, and
// timed too: an exponentially weighted mean of each. When the inline mean
// is below five sixths of the threaded one, over two runs of each at
// least, the call is remembered inline, with growth limits of twice each
// system's entities and a budget of the larger of twice the inline mean
// and the threaded mean, for about kRecheckNs of inline steps (at least
// kMinRecheckCalls calls, at most kRecheckCalls): a busy core or a
// descheduled vCPU is often transient, and a fixed number of calls would
// keep a large world, whose steps are long, inline for seconds after
// threads had become faster again. Then threads get another try, judged
// afresh: two threaded runs, then two inline probes at once, then the
// comparison.
//
// A call is keyed by its run table's address (one per execute_systems()
// instantiation: its selected systems and adapter types). A few are kept:
// a program usually makes one or two distinct calls per step.
#include "context/internal/adaptive_run_policy.h"

#include <algorithm>

namespace strata::context_internal {

namespace {

constexpr std::uint32_t kProbeOften = 32;
constexpr std::uint32_t kProbeRare = 256;
constexpr std::int64_t kRecheckNs = 100'000'000;  // 100 ms
constexpr std::uint32_t kMinRecheckCalls = 8;
constexpr std::uint32_t kRecheckCalls = 1024;

// How many calls a "threads do not pay" decision lasts for a call whose
// inline runs take `inline_ns`: about kRecheckNs of them.
std::uint32_t recheck_calls(std::int64_t inline_ns) noexcept {
  return static_cast<std::uint32_t>(std::clamp<std::int64_t>(
      kRecheckNs / std::max<std::int64_t>(inline_ns, 1), kMinRecheckCalls,
      kRecheckCalls));
}

double ratio(std::int64_t budget, std::int64_t work) {
  return static_cast<double>(budget) /
         static_cast<double>(std::max<std::int64_t>(work, 1));
}

}  // namespace

// ---- inline_decisions ----

inline_decisions::mode inline_decisions::mode_for(const void* call,
                                                  bool sampling) noexcept {
  const std::size_t slot = find(call);
  if (slot == kNone) return mode::decide;
  if (lives_[slot] != kForever && --lives_[slot] == 0) {
    // A "threads do not pay" decision expired: threads get another try,
    // judged on fresh runs of both kinds (probe_due).
    calls_[slot] = nullptr;
    if (timing* t = timing_of(call)) *t = {.rechecking = true};
    return mode::decide;
  }
  return sampling ? mode::remembered_timed : mode::remembered;
}

void inline_decisions::remember(const void* call, std::int64_t budget_ns,
                                std::uint32_t lifetime) noexcept {
  std::size_t slot = find(call);
  if (slot == kNone) slot = next_++ % kSlots;
  calls_[slot] = call;
  budgets_[slot] = budget_ns;
  lives_[slot] = lifetime;
}

bool inline_decisions::within_budget(const void* call,
                                     std::int64_t ns) const noexcept {
  const std::size_t slot = find(call);
  return slot != kNone && ns < budgets_[slot];
}

void inline_decisions::forget_all() noexcept {
  calls_ = {};
  timed_calls_ = {};  // the world changed: old timings say nothing
}

// Only once the call ran on threads. Takes one of the kSlots timing slots:
// with more distinct calls, the oldest's timings are dropped.
bool inline_decisions::probe_due(const void* call) noexcept {
  timing& t = timing_for(call);
  ++t.decided;
  if (t.threaded_ns == 0) return false;  // nothing to compare with yet
  if (t.rechecking) {  // after a decision expired: two of each, at once
    if (t.threaded_runs < 2) return false;
    if (t.inline_runs < 2) return true;
    t.rechecking = false;
  }
  const bool threads_clearly_pay =
      t.inline_ns != 0 && t.threaded_ns * 4 < t.inline_ns * 3;
  return t.decided % (threads_clearly_pay ? kProbeRare : kProbeOften) == 0;
}

void inline_decisions::record(const void* call, bool on_threads,
                              std::int64_t ns) noexcept {
  timing& t = timing_for(call);
  std::int64_t& mean = on_threads ? t.threaded_ns : t.inline_ns;
  ++(on_threads ? t.threaded_runs : t.inline_runs);
  const std::int64_t sample = std::max<std::int64_t>(ns, 1);
  mean = mean == 0 ? sample : mean + (sample - mean) / 4;
}

bool inline_decisions::timed(const void* call) const noexcept {
  return timing_of(call) != nullptr;
}

// By more than the runs' noise: a sixth, over two runs of each at least.
bool inline_decisions::inline_wins(const void* call) const noexcept {
  const timing* t = timing_of(call);
  return t != nullptr && t->inline_runs >= 2 && t->threaded_runs >= 2 &&
         t->inline_ns * 6 < t->threaded_ns * 5;
}

std::int64_t inline_decisions::inline_mean(const void* call) const noexcept {
  const timing* t = timing_of(call);
  return t == nullptr ? 0 : t->inline_ns;
}

std::int64_t inline_decisions::threaded_mean(const void* call) const noexcept {
  const timing* t = timing_of(call);
  return t == nullptr ? 0 : t->threaded_ns;
}

std::size_t inline_decisions::find(const void* call) const noexcept {
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    if (calls_[slot] == call) return slot;
  }
  return kNone;
}

std::size_t inline_decisions::timing_slot(const void* call) const noexcept {
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    if (timed_calls_[slot] == call) return slot;
  }
  return kNone;
}

inline_decisions::timing* inline_decisions::timing_of(
    const void* call) noexcept {
  const std::size_t slot = timing_slot(call);
  return slot == kNone ? nullptr : &timings_[slot];
}

const inline_decisions::timing* inline_decisions::timing_of(
    const void* call) const noexcept {
  const std::size_t slot = timing_slot(call);
  return slot == kNone ? nullptr : &timings_[slot];
}

inline_decisions::timing& inline_decisions::timing_for(
    const void* call) noexcept {
  if (timing* t = timing_of(call)) return *t;
  const std::size_t slot = next_timed_++ % kSlots;
  timed_calls_[slot] = call;
  timings_[slot] = {};
  return timings_[slot];
}

// ---- cost_model ----

cost_model::call_plan cost_model::before_call(const call_systems& systems,
                                              const void* call) {
  if (!runs_in_parallel_) return plan_of(call_mode::calling_thread);
  if (!measures_) return plan_of(call_mode::scheduled);
  using mode = inline_decisions::mode;
  const mode how = decisions_.mode_for(call, sampling_);
  // A probe: a call to decide runs inline instead, timed. Never on a
  // sampling step, which must measure every system.
  const bool probe =
      how == mode::decide && !sampling_ && decisions_.probe_due(call);
  if (how == mode::decide && !probe) return plan_decided(systems);
  call_plan plan = plan_of(call_mode::calling_thread_unplanned);
  plan.timed = how != mode::remembered;
  plan.probe = probe;
  plan.start_ns = plan.timed ? run_cost::now_ns() : 0;
  return plan;
}

void cost_model::after_call(const call_systems& systems, const void* call,
                            const call_plan& plan,
                            scheduler_internal::step_decision decision) {
  if (plan.mode == call_mode::calling_thread) return;
  const std::int64_t elapsed =
      plan.timed ? run_cost::now_ns() - plan.start_ns : 0;
  if (plan.mode == call_mode::calling_thread_unplanned) {
    if (plan.timed) after_timed_inline_run(systems, call, plan, elapsed);
    return;
  }
  const bool split = decisions_.take_split();
  if (!plan.timed) return;
  if (decision.used_pool || split) {
    // Timed against the probes' inline runs.
    decisions_.record(call, /*on_threads=*/true, elapsed);
    if (decisions_.inline_wins(call)) remember_threads_lose(systems, call);
    return;
  }
  if (plan.predicted.all_fresh) {
    remember_inline(systems, call, plan, decision);
  }
}

void cost_model::forget_decisions(run_cost* const* costs,
                                  std::size_t count) noexcept {
  decisions_.forget_all();
  for (std::size_t id = 0; id < count; ++id) costs[id]->mark_stale();
}

void cost_model::record_run(run_cost& cost, std::int64_t start_ns,
                            std::size_t entities) {
  cost.record(run_cost::now_ns() - start_ns, entities);
}

cost_model::call_plan cost_model::plan_of(call_mode mode) const noexcept {
  call_plan plan;
  plan.mode = mode;
  plan.hand_off = mode == call_mode::scheduled
                      ? hand_off_
                      : hand_off_policy(hand_off::never);
  return plan;
}

// A call to decide: the scheduler's full path, timed. A step too small for
// threads (every system measured, the total below both the work a step
// needs before it uses the pool and the work a system needs before it
// splits) runs as the sequential scheduler would: hand_off::never makes the
// threaded scheduler skip its ranking. Sampling steps take the full path.
cost_model::call_plan cost_model::plan_decided(const call_systems& systems) {
  constexpr std::int64_t small =
      std::min(hand_off_policy::kInlineStepNs, hand_off_policy::kMinSubtaskNs);
  call_plan plan = plan_of(call_mode::scheduled);
  plan.predicted = summarize(systems);
  plan.too_small =
      !sampling_ && plan.predicted.all_known && plan.predicted.total < small;
  if (plan.too_small) plan.hand_off = hand_off::never;
  plan.timed = true;
  plan.start_ns = run_cost::now_ns();
  return plan;
}

cost_model::prediction_summary cost_model::summarize(
    const call_systems& systems) const {
  prediction_summary summary;
  for (std::size_t id = 0; id < systems.shape->count; ++id) {
    if (!systems.shape->selected[id]) continue;
    const run_cost& cost = *systems.costs[id];
    const std::int64_t predicted =
        cost.predict(systems.shape->subscribed(systems.subscriptions, id));
    summary.all_known &= predicted != run_cost::unknown;
    summary.all_fresh &= !cost.needs_measuring();
    summary.total += predicted;
    summary.largest = std::max(summary.largest, predicted);
  }
  return summary;
}

// A decided call ran inline and unsplit from fresh predictions: it is
// remembered, each selected system limited to the entity count at which the
// decision could change (without a ranking, too small, the whole total
// counts as off the critical path: a lower limit, never a wrong one).
void cost_model::remember_inline(const call_systems& systems, const void* call,
                                 const call_plan& plan,
                                 scheduler_internal::step_decision decision) {
  const prediction_summary& predicted = plan.predicted;
  const std::int64_t off_critical =
      plan.too_small ? predicted.total : decision.off_critical_ns;
  const double headroom = std::max(
      1.0, std::min(ratio(hand_off_policy::kInlineStepNs, off_critical),
                    ratio(hand_off_policy::kMinSubtaskNs, predicted.largest)));
  for (std::size_t id = 0; id < systems.shape->count; ++id) {
    if (!systems.shape->selected[id]) continue;
    const double limit = static_cast<double>(systems.shape->raw_subscribed(
                             systems.subscriptions, id)) *
                         headroom;
    systems.shape->limit_growth(systems.subscriptions, id,
                                limit >= 1e18
                                    ? static_cast<std::size_t>(-1)
                                    : static_cast<std::size_t>(limit));
  }
  decisions_.remember(call,
                      static_cast<std::int64_t>(
                          static_cast<double>(predicted.total) * headroom),
                      inline_decisions::kForever);
}

// Threads measured slower than inline for `call`: it runs inline, the
// sequential scheduler's way, for recheck_calls(inline mean) calls, unless a
// selected system doubles its entities or a sampled run takes longer than
// both twice the inline mean and the threaded mean (then every call decides
// again).
void cost_model::remember_threads_lose(const call_systems& systems,
                                       const void* call) {
  const std::int64_t inline_ns = decisions_.inline_mean(call);
  const std::int64_t budget =
      std::max(2 * inline_ns, decisions_.threaded_mean(call));
  for (std::size_t id = 0; id < systems.shape->count; ++id) {
    if (!systems.shape->selected[id]) continue;
    systems.shape->limit_growth(
        systems.subscriptions, id,
        std::max<std::size_t>(
            1, systems.shape->raw_subscribed(systems.subscriptions, id)) *
            2);
  }
  decisions_.remember(call, budget, recheck_calls(inline_ns));
}

// An inline run of `call` that took `ns` (a probe, or a sampled run of a
// remembered call) feeds its inline mean, if the call is timed. A probe that
// wins makes the call inline; a remembered call over its budget makes every
// call decide again.
void cost_model::after_timed_inline_run(const call_systems& systems,
                                        const void* call, const call_plan& plan,
                                        std::int64_t ns) {
  if (!plan.probe && !decisions_.within_budget(call, ns)) {
    forget_decisions(systems.costs, systems.shape->count);
    return;
  }
  if (plan.probe || decisions_.timed(call)) {
    decisions_.record(call, /*on_threads=*/false, ns);
  }
  if (plan.probe && decisions_.inline_wins(call)) {
    remember_threads_lose(systems, call);
  }
}

}  // namespace strata::context_internal
