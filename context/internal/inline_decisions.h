// Internal to //context: the calls of execute_systems() that the threaded
// scheduler last decided to run entirely on the calling thread, unsplit:
// the memory of the adaptive run policy (internal/run_policy.h), which
// makes and acts on these decisions.
//
// Why: deciding costs a prediction per system (its measured cost per
// entity times its entity count), a critical-path ranking and the checks
// around them, per system: most of a step on a
// small world (the update benchmarks' 1-entity rows), where the answer is
// always "inline". So a call decided inline is remembered with its budget (the
// predicted work at which the decision could change), and runs again the way
// the sequential scheduler runs it (no prediction, no per-system measurement,
// no ranking) until something could change the answer:
//   * a system grows past the size the decision allows
//     (subscription::set_growth_limit, checked by the refresh): the
//     decision's headroom is spent;
//   * on a sampling step (one in adaptive_run_policy::kCostSampleSteps,
//     internal/run_policy.h) the call
//     is timed as a whole, two clock reads, and takes more than its budget:
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
// descheduled vCPU is often transient, and at 256k entities (steps of
// milliseconds) a fixed 1024 calls kept a world that threads had sped up
// 1.5x on one thread for seconds. Then threads get another try, judged
// afresh: two threaded runs, then two inline probes at once, then the
// comparison.
//
// A call is keyed by its run table's address (one per execute_systems()
// instantiation: its selected systems and adapter types). A few are kept:
// a program usually makes one or two distinct calls per step.
//
// Thread-safety: everything but note_split() is used by the context's
// thread outside system execution; note_split() may be called by any
// thread running a system, and take_split() reads it after the call.
#ifndef STRATA_CONTEXT_INTERNAL_INLINE_DECISIONS_H_
#define STRATA_CONTEXT_INTERNAL_INLINE_DECISIONS_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace strata::context_internal {

class inline_decisions {
 public:
  // How a call runs now: deciding (the scheduler's full path), by its
  // remembered decision, or by it and timed (a sampling step).
  enum class mode { decide, remembered, remembered_timed };

  // Call once per call: it counts down a remembered decision's lifetime.
  mode mode_for(const void* call, bool sampling) noexcept {
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
  // The call ran inline, unsplit, and stays so until its systems' work
  // reaches `budget_ns` (and, for a lifetime other than kForever, for that
  // many calls).
  void remember(const void* call, std::int64_t budget_ns,
                std::uint32_t lifetime = kForever) noexcept {
    std::size_t slot = find(call);
    if (slot == kNone) slot = next_++ % kSlots;
    calls_[slot] = call;
    budgets_[slot] = budget_ns;
    lives_[slot] = lifetime;
  }
  // Whether a timed run of `call` that took `ns` stayed within its budget.
  bool within_budget(const void* call, std::int64_t ns) const noexcept {
    const std::size_t slot = find(call);
    return slot != kNone && ns < budgets_[slot];
  }
  void forget_all() noexcept {
    calls_ = {};
    timed_calls_ = {};  // the world changed: old timings say nothing
  }

  // ---- Threads that do not pay. ----
  static constexpr std::uint32_t kProbeOften = 32;
  static constexpr std::uint32_t kProbeRare = 256;
  static constexpr std::int64_t kRecheckNs = 100'000'000;  // 100 ms
  static constexpr std::uint32_t kMinRecheckCalls = 8;
  static constexpr std::uint32_t kRecheckCalls = 1024;

  // How many calls a "threads do not pay" decision lasts for a call whose
  // inline runs take `inline_ns`: about kRecheckNs of them.
  static constexpr std::uint32_t recheck_calls(std::int64_t inline_ns) {
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(
        kRecheckNs / std::max<std::int64_t>(inline_ns, 1), kMinRecheckCalls,
        kRecheckCalls));
  }

  // Counts a call of `call` about to be decided; whether it should run
  // inline instead, as a probe (only once it ran on threads). Takes one of
  // the kSlots timing slots: with more distinct calls, the oldest's
  // timings are dropped.
  bool probe_due(const void* call) noexcept {
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
  // A timed run of `call`, on threads or inline.
  void record(const void* call, bool on_threads, std::int64_t ns) noexcept {
    timing& t = timing_for(call);
    std::int64_t& mean = on_threads ? t.threaded_ns : t.inline_ns;
    ++(on_threads ? t.threaded_runs : t.inline_runs);
    const std::int64_t sample = std::max<std::int64_t>(ns, 1);
    mean = mean == 0 ? sample : mean + (sample - mean) / 4;
  }
  // Whether `call` is timed (has a timing slot).
  bool timed(const void* call) const noexcept {
    return timing_of(call) != nullptr;
  }
  // Whether `call` measured clearly faster inline than on threads (by
  // more than the runs' noise: a sixth, over two runs of each at least).
  bool inline_wins(const void* call) const noexcept {
    const timing* t = timing_of(call);
    return t != nullptr && t->inline_runs >= 2 && t->threaded_runs >= 2 &&
           t->inline_ns * 6 < t->threaded_ns * 5;
  }
  // The means of `call` (0: none); after inline_wins(call), both nonzero.
  std::int64_t inline_mean(const void* call) const noexcept {
    const timing* t = timing_of(call);
    return t == nullptr ? 0 : t->inline_ns;
  }
  std::int64_t threaded_mean(const void* call) const noexcept {
    const timing* t = timing_of(call);
    return t == nullptr ? 0 : t->threaded_ns;
  }

  // A system of the current call ran its subtasks on several threads.
  void note_split() noexcept { split_.store(true, std::memory_order_relaxed); }
  bool take_split() noexcept {
    return split_.exchange(false, std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t kSlots = 4;
  static constexpr std::size_t kNone = kSlots;

  std::size_t find(const void* call) const noexcept {
    for (std::size_t slot = 0; slot < kSlots; ++slot) {
      if (calls_[slot] == call) return slot;
    }
    return kNone;
  }

  static constexpr std::uint32_t kForever = 0;

  struct timing {
    std::int64_t threaded_ns = 0;  // means; 0: no sample yet
    std::int64_t inline_ns = 0;
    std::uint32_t decided = 0;
    std::uint32_t inline_runs = 0;
    std::uint32_t threaded_runs = 0;
    bool rechecking = false;  // a "threads lose" decision just expired
  };
  std::size_t timing_slot(const void* call) const noexcept {
    for (std::size_t slot = 0; slot < kSlots; ++slot) {
      if (timed_calls_[slot] == call) return slot;
    }
    return kNone;
  }
  timing* timing_of(const void* call) noexcept {
    const std::size_t slot = timing_slot(call);
    return slot == kNone ? nullptr : &timings_[slot];
  }
  const timing* timing_of(const void* call) const noexcept {
    const std::size_t slot = timing_slot(call);
    return slot == kNone ? nullptr : &timings_[slot];
  }
  timing& timing_for(const void* call) noexcept {
    if (timing* t = timing_of(call)) return *t;
    const std::size_t slot = next_timed_++ % kSlots;
    timed_calls_[slot] = call;
    timings_[slot] = {};
    return timings_[slot];
  }

  std::array<const void*, kSlots> calls_{};
  std::array<std::int64_t, kSlots> budgets_{};
  std::array<std::uint32_t, kSlots> lives_{};
  std::size_t next_ = 0;
  std::array<const void*, kSlots> timed_calls_{};
  std::array<timing, kSlots> timings_{};
  std::size_t next_timed_ = 0;
  std::atomic<bool> split_{false};
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_INLINE_DECISIONS_H_
