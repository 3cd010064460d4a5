// Inner parallelism: how one system's subscribed entities split into
// subtasks.
//
// A strategy answers one question: into how many subtasks should a system
// with `entities` subscribed entities split when `threads` threads can run
// them? Any type with
//     std::size_t subtasks(std::size_t entities, std::size_t threads) const;
// is a strategy (`inner_parallelism_strategy` concept), so users can write
// their own. The context clamps the answer to [1, max(entities, 1)], so a
// system always runs at least one subtask (systems that only read outputs
// still run) and never gets an empty slice; there is no cap on the count.
// Slices are contiguous, in the order of the subscribed set, and differ in
// size by at most one (`slice_bounds`).
//
// A strategy may also take the system's predicted run time,
//     std::size_t subtasks(std::size_t entities, std::size_t threads,
//                          std::int64_t predicted_ns) const;
// (`cost_aware_strategy`; predicted_ns is run_cost::unknown, -1, before the
// system was ever measured; scheduler/hand_off.h). The context calls that
// form when a strategy has it.
//
// Built-in strategies (`strata::inner_parallelism`): automatic() (the default:
// as many subtasks as the predicted work fills at
// hand_off_policy::kMinSubtaskNs each, up to one per thread, one while the cost
// is unknown, so small systems never pay for a split; work that fills 16 or
// more per thread is cut into 2 to 4 slices per thread of at least 8 subtasks'
// worth each, so a thread free early takes slices a busy one has not started),
// none(), split_evenly(n), split_evenly_per_core(), split_every_n(n). Composers
// (`strata::inner_parallelism_composer`):
// fixed_threshold(t, above, below) uses `above` from t entities up and `below`
// under it; none_below_threshold(t, s) is fixed_threshold(t, s, none()).
//
// A zero count (split_evenly(0), split_every_n(0)) is a compile error in a
// constant expression and a STRATA_CHECK failure at run time.
//
// Describing a strategy: a strategy may also have
//     std::string describe() const;
// saying how it splits, for people (the system graph of scheduler/dot.h
// prints it). Built-ins describe themselves as the call that makes them,
// without the namespace: "none", "split_evenly(4)", "split_evenly_per_core",
// "split_every_n(4096)"; fixed_threshold composes its parts' descriptions,
// "fixed_threshold(2048, split_evenly_per_core, none)" (none_below_threshold
// is a fixed_threshold and says so); a signature without .parallelism(...)
// has default_parallelism (scheduler/system_signature.h): "context default".
// describe_strategy(s) returns s.describe(), or "custom strategy" when s has
// no describe() (or one whose result does not make a std::string), so a
// strategy without one still works everywhere, composed or not. describe()
// returns a std::string rather than appending to one: it is one expression
// to write, composes by concatenation, and describing is a cold path (once
// per graph export). This header declares std::string without defining it
// (it does not include <string>, which every program including strata.h
// would parse): code that calls describe() or describe_strategy(), or asks
// describable_strategy, includes <string> first, as it would to use the
// text.
//
// Strategies are small literal values, usable in constexpr signatures;
// subtasks() is O(1) and thread-safe; describe() allocates and is
// thread-safe.
#ifndef STRATA_SCHEDULER_INNER_PARALLELISM_H_
#define STRATA_SCHEDULER_INNER_PARALLELISM_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "base/check.h"
#include "base/internal/dependent_string.h"
#include "base/internal/standard_parts.h"
#include "scheduler/hand_off.h"

namespace strata {

template <typename S>
concept inner_parallelism_strategy = requires(const S& s, std::size_t entities,
                                              std::size_t threads) {
  { s.subtasks(entities, threads) } -> std::convertible_to<std::size_t>;
};

template <typename S>
concept cost_aware_strategy = inner_parallelism_strategy<S> &&
    requires(const S& s, std::size_t entities, std::size_t threads,
             std::int64_t predicted_ns) {
  {
    s.subtasks(entities, threads, predicted_ns)
    } -> std::convertible_to<std::size_t>;
};

namespace scheduler_internal {

// s.subtasks(entities, threads[, predicted_ns]).
template <inner_parallelism_strategy S>
constexpr std::size_t requested_subtasks(const S& s, std::size_t entities,
                                         std::size_t threads,
                                         std::int64_t predicted_ns) {
  if constexpr (cost_aware_strategy<S>) {
    return s.subtasks(entities, threads, predicted_ns);
  } else {
    return s.subtasks(entities, threads);
  }
}

}  // namespace scheduler_internal

// Descriptions are std::string named through the strategy's type
// (base/internal/dependent_string.h), so that they are checked where a
// caller that included <string> asks for them. The built-in strategies'
// describe() are defined in inner_parallelism.cc.

// A strategy (or anything) whose describe() makes a std::string.
template <typename S>
concept describable_strategy = requires(const S& s) {
  base_internal::dependent_string<S>(s.describe());
};

// s.describe(), or "custom strategy" for a strategy without one.
template <typename S>
base_internal::dependent_string<S> describe_strategy(const S& strategy) {
  if constexpr (describable_strategy<S>) {
    return base_internal::dependent_string<S>(strategy.describe());
  } else {
    return "custom strategy";
  }
}

namespace scheduler_internal {

// "fixed_threshold(threshold, above, below)".
std::string fixed_threshold_text(std::size_t threshold, std::string_view above,
                                 std::string_view below);

}  // namespace scheduler_internal

namespace inner_parallelism {

struct automatic_t {
  // A system whose work fills many subtasks splits into up to this many
  // per thread, so that a thread that finishes early (its share of other
  // systems done) takes slices still queued instead of waiting for a
  // thread that is busy elsewhere; each slice keeps at least
  // kMinSubtasksPerSlice subtasks' worth of work, so the hand-offs stay a
  // small part of it.
  static constexpr std::size_t kMaxSlicesPerThread = 4;
  static constexpr std::size_t kMinSubtasksPerSlice = 8;

  std::int64_t min_subtask_ns = hand_off_policy::kMinSubtaskNs;
  // Without a prediction: one subtask.
  constexpr std::size_t subtasks(std::size_t, std::size_t) const { return 1; }
  constexpr std::size_t subtasks(std::size_t, std::size_t threads,
                                 std::int64_t predicted_ns) const {
    if (predicted_ns <= 0 || min_subtask_ns <= 0) return 1;
    const auto fills = static_cast<std::size_t>(predicted_ns / min_subtask_ns);
    const std::size_t thread_count = std::max<std::size_t>(threads, 1);
    if (fills <= thread_count || thread_count == 1) {
      return std::clamp<std::size_t>(fills, 1, thread_count);
    }
    return thread_count * std::clamp<std::size_t>(
                              fills / (thread_count * kMinSubtasksPerSlice), 1,
                              kMaxSlicesPerThread);
  }
  std::string describe() const;
};

struct none_t {
  constexpr std::size_t subtasks(std::size_t, std::size_t) const { return 1; }
  std::string describe() const;
};

struct split_evenly_t {
  std::size_t count;
  constexpr std::size_t subtasks(std::size_t, std::size_t) const {
    return count;
  }
  std::string describe() const;
};

struct split_evenly_per_core_t {
  constexpr std::size_t subtasks(std::size_t, std::size_t threads) const {
    return threads;
  }
  std::string describe() const;
};

struct split_every_n_t {
  std::size_t per_subtask;
  constexpr std::size_t subtasks(std::size_t entities, std::size_t) const {
    return (entities + per_subtask - 1) / per_subtask;
  }
  std::string describe() const;
};

// As many subtasks as the predicted work fills, up to one per thread; large
// work in up to kMaxSlicesPerThread slices per thread (automatic_t).
constexpr automatic_t automatic() { return {}; }

constexpr none_t none() { return {}; }

// Exactly `count` subtasks (fewer when there are fewer entities).
constexpr split_evenly_t split_evenly(std::size_t count) {
  STRATA_CHECK(count > 0,
               "inner_parallelism::split_evenly(n): n must be at least 1");
  return {count};
}

// One subtask per thread of the context (the caller included).
constexpr split_evenly_per_core_t split_evenly_per_core() { return {}; }

// Subtasks of at most `per_subtask` entities each.
constexpr split_every_n_t split_every_n(std::size_t per_subtask) {
  STRATA_CHECK(per_subtask > 0,
               "inner_parallelism::split_every_n(n): n must be at least 1");
  return {per_subtask};
}

}  // namespace inner_parallelism

namespace inner_parallelism_composer {

template <inner_parallelism_strategy Above, inner_parallelism_strategy Below>
struct fixed_threshold_t {
  std::size_t threshold;
  Above above;
  Below below;
  constexpr std::size_t subtasks(std::size_t entities,
                                 std::size_t threads) const {
    return entities >= threshold ? above.subtasks(entities, threads)
                                 : below.subtasks(entities, threads);
  }
  constexpr std::size_t subtasks(std::size_t entities, std::size_t threads,
                                 std::int64_t predicted_ns) const {
    return entities >= threshold ? scheduler_internal::requested_subtasks(
                                       above, entities, threads, predicted_ns)
                                 : scheduler_internal::requested_subtasks(
                                       below, entities, threads, predicted_ns);
  }
  base_internal::dependent_string<Above> describe() const {
    return scheduler_internal::fixed_threshold_text(
        threshold, describe_strategy(above), describe_strategy(below));
  }
};

template <inner_parallelism_strategy Above, inner_parallelism_strategy Below>
constexpr fixed_threshold_t<Above, Below> fixed_threshold(std::size_t threshold,
                                                          Above above,
                                                          Below below) {
  return {threshold, above, below};
}

template <inner_parallelism_strategy Strategy>
constexpr auto none_below_threshold(std::size_t threshold, Strategy strategy) {
  return fixed_threshold(threshold, strategy, inner_parallelism::none());
}

}  // namespace inner_parallelism_composer

// The short names of the ECST material, optional, for users who want them:
// strata::ips and strata::ipc.
namespace ips = inner_parallelism;
namespace ipc = inner_parallelism_composer;

// The subtask count a context uses: the strategy's answer clamped to
// [1, max(entities, 1)].
template <inner_parallelism_strategy Strategy>
constexpr std::size_t subtask_count(const Strategy& strategy,
                                    std::size_t entities, std::size_t threads,
                                    std::int64_t predicted_ns = -1) {
  const std::size_t requested = scheduler_internal::requested_subtasks(
      strategy, entities, threads, predicted_ns);
  return std::clamp<std::size_t>(requested, 1,
                                 std::max<std::size_t>(entities, 1));
}

// [begin, end) of slice `index` of `count` over `entities` elements. One
// slice (most systems of a small world) takes everything without the two
// divisions: they were a visible part of a 1-entity step.
constexpr std::pair<std::size_t, std::size_t> slice_bounds(
    std::size_t index, std::size_t count, std::size_t entities) {
  if (count == 1) return {0, entities};
  return {index * entities / count, (index + 1) * entities / count};
}

}  // namespace strata

#endif  // STRATA_SCHEDULER_INNER_PARALLELISM_H_
