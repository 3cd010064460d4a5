// When handing work to another thread pays: the cost model behind the
// adaptive scheduler (the goal: threads must never make a step slower).
//
//   strata::run_cost cost;               // one per system
//   cost.record(elapsed_ns, entities);   // after a measured run
//   cost.predict(entities);              // ns, or run_cost::unknown
//   strata::hand_off_policy policy = strata::hand_off::automatic;
//   policy.worth_handing_off(predicted_ns)
//
// A hand-off (post a task, a sleeping or spinning worker picks it up) costs
// well under a microsecond when a worker spins and tens when it must be woken
// (thread_pool_benchmark: HandOff, JoinLatency). Work smaller than a few
// hand-offs is faster done inline by the thread that has it. So:
//   * a system whose predicted run is below kHandOffNs is never posted: the
//     thread that makes it ready runs it;
//   * a whole step whose predicted work off its critical path (what another
//     thread could take from the caller: the total minus the longest chain
//     of systems) is below kInlineStepNs runs on the calling thread in
//     topological order, without touching the pool (a small world, or a
//     chain, is as fast threaded as sequential; subtasks of a large system
//     may still split);
//   * inner parallelism (inner_parallelism::automatic()) splits a system
//     into at most one subtask per kMinSubtaskNs of predicted work, and no
//     more subtasks than threads; whatever the strategy, a system's
//     subtasks go to other threads only when the work beyond one subtask
//     (what other threads could take) is at least kMinSubtaskNs.
// Predictions come from measurements of earlier runs of the same system: an
// exponentially weighted mean of the time per entity (or per run, for systems
// without entities), so a world that grows or shrinks re-decides within a few
// steps. A system never measured yet is predicted `unknown`, which the
// automatic policy treats as small: the first step of a new system runs
// inline, is measured, and the next ones decide from that.
//
// hand_off::always and hand_off::never force the decision either way (tests
// use them to check that results do not depend on it; `never` is a threaded
// scheduler that behaves like the sequential one).
//
// run_cost is public although the context keeps and updates it: a system
// instance shows it (instance.cost(): whether the system was measured, what
// it predicts), and a cost-aware inner parallelism strategy receives its
// prediction, run_cost::unknown before the first measurement.
//
// Thread-safety: run_cost is written by the thread that ran the system and
// read by the scheduler before the system runs again (the scheduler orders
// both); a policy is an immutable value.
#ifndef STRATA_SCHEDULER_HAND_OFF_H_
#define STRATA_SCHEDULER_HAND_OFF_H_

#include <cstddef>
#include <cstdint>

namespace strata {

enum class hand_off {
  automatic,  // decide from predicted costs (the default)
  always,     // hand every system off and split as the strategy says
  never,      // run everything inline on the calling thread
};

struct hand_off_policy {
  // The three thresholds below assume a thread waiting for its subtasks
  // spins before it sleeps and a spinning worker polls every two pauses
  // (thread_pool.h; JoinLatency/* and HandOff/* in thread_pool_benchmark),
  // so a hand-off and a join cost well under a microsecond while the threads
  // are awake. Lower thresholds let more mid-sized steps use threads; the
  // strata_mt rows of update_benchmark at 16k entities show the effect.
  //
  // Below this predicted run time a system is not posted to another thread.
  static constexpr std::int64_t kHandOffNs = 5'000;
  // Below this much predicted work off the critical path the whole step
  // runs on the calling thread: a few wake-ups' worth.
  static constexpr std::int64_t kInlineStepNs = 10'000;
  // inner_parallelism::automatic() gives each subtask at least this much
  // predicted work.
  static constexpr std::int64_t kMinSubtaskNs = 8'000;

  hand_off mode = hand_off::automatic;

  constexpr hand_off_policy() = default;
  constexpr hand_off_policy(hand_off m) : mode(m) {}  // NOLINT: implicit

  // Whether a system predicted to take `predicted_ns` should be posted.
  constexpr bool worth_handing_off(std::int64_t predicted_ns) const {
    return forced_or(predicted_ns >= kHandOffNs);
  }
  // Whether a system predicted to take `predicted_ns` should run its
  // `subtasks` subtasks on several threads (else in order, on the thread
  // that runs it). Without this rule a fixed strategy split small systems
  // and sent halves to a sleeping worker, slower than one thread
  // (update_benchmark, SystemsUpdateMixed strata_mt at 16k entities).
  // (Always inlined, like predict(): GCC kept both out of line, a call
  // each per system and step.)
  [[gnu::always_inline]] constexpr bool worth_splitting(
      std::int64_t predicted_ns, std::size_t subtasks) const {
    const auto count = static_cast<std::int64_t>(subtasks);
    return forced_or(count >= 2 && predicted_ns > 0 &&
                     predicted_ns - predicted_ns / count >= kMinSubtaskNs);
  }
  // Whether a step with `predicted_ns` of work off its critical path should
  // use the pool at all.
  constexpr bool worth_threads(std::int64_t predicted_ns) const {
    return forced_or(predicted_ns >= kInlineStepNs);
  }

 private:
  // hand_off::always and never decide; automatic takes `automatic_answer`.
  constexpr bool forced_or(bool automatic_answer) const {
    switch (mode) {
      case hand_off::always:
        return true;
      case hand_off::never:
        return false;
      case hand_off::automatic:
        break;
    }
    return automatic_answer;
  }
};

// Who decides for a context (settings().run_policy(...)):
//   * run_policy::adaptive (the default): the model above, from measured
//     costs, as hand_off::automatic asks;
//   * run_policy::fixed: nothing is measured or predicted and nothing
//     remembered; the decisions come from the settings alone: a threaded
//     scheduler hands every system off and splits it as its strategy says
//     (hand_off::never: everything on the calling thread). Its steps cost no
//     clock read; a context on the sequential scheduler always has it.
namespace run_policy {
struct fixed_t {};
struct adaptive_t {};
inline constexpr fixed_t fixed{};
inline constexpr adaptive_t adaptive{};
}  // namespace run_policy

// The measured cost of one system's runs.
class run_cost {
 public:
  static constexpr std::int64_t unknown = -1;

  // The clock runs are timed with, for record(): base/steady_clock_ns.h,
  // which trace spans read too. Out of line (hand_off.cc), so that a header
  // that names the cost model does not bring <chrono>.
  static std::int64_t now_ns() noexcept;

  // A run over `entities` entities took `ns` nanoseconds.
  void record(std::int64_t ns, std::size_t entities) noexcept {
    if (ns < 0) ns = 0;
    if (entities > 0) {
      const double per_entity =
          static_cast<double>(ns) / static_cast<double>(entities);
      per_entity_ns_ =
          has_per_entity_ ? blend(per_entity_ns_, per_entity) : per_entity;
      has_per_entity_ = true;
    }
    per_run_ns_ = has_per_run_ ? blend(per_run_ns_, static_cast<double>(ns))
                               : static_cast<double>(ns);
    has_per_run_ = true;
    stale_ = false;
  }

  // Predicted ns of a run over `entities` entities, or `unknown`.
  [[gnu::always_inline]] std::int64_t predict(
      std::size_t entities) const noexcept {
    if (entities > 0 && has_per_entity_) {
      return static_cast<std::int64_t>(per_entity_ns_ *
                                       static_cast<double>(entities));
    }
    return has_per_run_ ? static_cast<std::int64_t>(per_run_ns_) : unknown;
  }

  bool known() const noexcept { return has_per_run_; }

  // Stale: the prediction stands, but the next run the scheduler decides
  // from must be measured (runs went unmeasured while the cost may have
  // changed). A recorded run makes it fresh.
  void mark_stale() noexcept { stale_ = true; }
  // Whether the next deciding run must be measured: never measured, or
  // stale.
  bool needs_measuring() const noexcept { return !has_per_run_ || stale_; }

 private:
  // New samples weigh a quarter: a few steps to follow a change, little
  // jitter from one slow run.
  static double blend(double old_value, double sample) noexcept {
    return old_value + (sample - old_value) * 0.25;
  }

  double per_entity_ns_ = 0;
  double per_run_ns_ = 0;
  bool has_per_entity_ = false;
  bool has_per_run_ = false;
  bool stale_ = false;
};

}  // namespace strata

#endif  // STRATA_SCHEDULER_HAND_OFF_H_
