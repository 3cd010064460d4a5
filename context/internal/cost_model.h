// Internal to //context: the adaptive run policy's cost model, the part of
// it that does not depend on the program's types, compiled once
// (internal/cost_model.cc) instead of inline in every program. The
// templates of internal/run_policy.h call it with plain numbers: system
// indices, entity counts, nanoseconds, a call's key.
//
// What it decides (scheduler/hand_off.h has the thresholds):
//   * whether a step samples the systems' costs (one in kCostSampleSteps);
//   * how an execute_systems() call runs (a call_plan): decided from the
//     selected systems' predictions, by a remembered decision, or inline as
//     a probe of whether threads pay;
//   * what a call's outcome teaches it: decisions remembered, their growth
//     limits set on the systems' subscriptions, or every decision forgotten
//     and every cost marked stale.
// Its memory is inline_decisions: a few calls' remembered decisions and
// timings (internal/cost_model.cc explains when a decision is remembered,
// probed and forgotten, and why). Everything is held by value in the context's run
// policy: nothing is allocated.
//
// Thread-safety: used by the context's thread outside system execution,
// except note_split(), which any thread running a system may call.
#ifndef STRATA_CONTEXT_INTERNAL_COST_MODEL_H_
#define STRATA_CONTEXT_INTERNAL_COST_MODEL_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "scheduler/hand_off.h"

namespace strata::context_internal {

// How an execute_systems() call runs (internal/run_policy.h says more).
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

// The systems of one call as the model sees them: which are selected, their
// costs, and, through the context's subscriptions, their entity counts and
// growth limits (function pointers the run policy's template fills in).
struct call_systems {
  const bool* selected;
  run_cost* const* costs;
  std::size_t count;
  void* core;
  // Members after pending departures, and as they are.
  std::size_t (*subscribed)(void* core, std::size_t system);
  std::size_t (*members)(void* core, std::size_t system);
  void (*limit_growth)(void* core, std::size_t system, std::size_t limit);
};

// The calls of execute_systems() whose last decision was to run on the
// calling thread, unsplit, and the timings of calls run on threads and
// inline (internal/cost_model.cc). Keyed by the call's run table address.
class inline_decisions {
 public:
  // How a call runs now: deciding (the scheduler's full path), by its
  // remembered decision, or by it and timed (a sampling step).
  enum class mode { decide, remembered, remembered_timed };

  static constexpr std::uint32_t kForever = 0;
  static constexpr std::uint32_t kProbeOften = 32;
  static constexpr std::uint32_t kProbeRare = 256;
  static constexpr std::int64_t kRecheckNs = 100'000'000;  // 100 ms
  static constexpr std::uint32_t kMinRecheckCalls = 8;
  static constexpr std::uint32_t kRecheckCalls = 1024;

  // Call once per call: it counts down a remembered decision's lifetime.
  mode mode_for(const void* call, bool sampling) noexcept;
  // The call runs inline, unsplit, until its systems' work reaches
  // `budget_ns` (and, for a lifetime other than kForever, that many calls).
  void remember(const void* call, std::int64_t budget_ns,
                std::uint32_t lifetime = kForever) noexcept;
  bool within_budget(const void* call, std::int64_t ns) const noexcept;
  void forget_all() noexcept;

  // How many calls a "threads do not pay" decision lasts for a call whose
  // inline runs take `inline_ns`: about kRecheckNs of them.
  static std::uint32_t recheck_calls(std::int64_t inline_ns) noexcept;
  // Counts a call about to be decided; whether it runs inline instead, as
  // a probe.
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
    bool probe = false;      // inline instead of deciding
    bool too_small = false;  // every prediction below a hand-off's worth
    std::int64_t start_ns = 0;
    prediction_summary predicted;
  };

  // Measures only where it matters: a threaded scheduler with workers,
  // deciding automatically.
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

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_COST_MODEL_H_
