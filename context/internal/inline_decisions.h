// Internal to //context: the calls of execute_systems() that the threaded
// scheduler last decided to run entirely on the calling thread, unsplit.
//
// Why: deciding costs a prediction per system (its measured cost per
// entity times its entity count), a critical-path ranking and the checks
// around them, about a hundred instructions a system: most of a step on a
// small world, where the answer is always "inline". So a call decided
// inline is remembered with its budget (the predicted work at which the
// decision could change), and runs again the way the sequential scheduler
// runs it (no prediction, no per-system measurement, no ranking) until
// something could change the answer:
//   * a system grows past the size the decision allows
//     (subscription::set_growth_limit, checked by the refresh): the
//     decision's headroom is spent;
//   * on a sampling step (one in context_core::kCostSampleSteps) the call
//     is timed as a whole, two clock reads, and takes more than its budget:
//     the systems got costlier per entity.
// Either way the decisions are forgotten and the systems' costs marked
// stale, so the next call decides again from fresh measurements.
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

  mode mode_for(const void* call, bool sampling) const noexcept {
    const std::size_t slot = find(call);
    if (slot == kNone) return mode::decide;
    return sampling ? mode::remembered_timed : mode::remembered;
  }
  // The call ran inline, unsplit, and stays so until its systems' work
  // reaches `budget_ns`.
  void remember(const void* call, std::int64_t budget_ns) noexcept {
    std::size_t slot = find(call);
    if (slot == kNone) slot = next_++ % kSlots;
    calls_[slot] = call;
    budgets_[slot] = budget_ns;
  }
  // Whether a timed run of `call` that took `ns` stayed within its budget.
  bool within_budget(const void* call, std::int64_t ns) const noexcept {
    const std::size_t slot = find(call);
    return slot != kNone && ns < budgets_[slot];
  }
  void forget_all() noexcept { calls_ = {}; }

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

  std::array<const void*, kSlots> calls_{};
  std::array<std::int64_t, kSlots> budgets_{};
  std::size_t next_ = 0;
  std::atomic<bool> split_{false};
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_INLINE_DECISIONS_H_
