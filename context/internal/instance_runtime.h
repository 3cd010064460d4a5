// Internal to //context: the part of a system instance
// (context/system_instance.h) that running the system works on, with
// nothing of the system's type in it.
//
// An instance_runtime holds the system's subscription
// (internal/subscription.h), its inner-parallelism strategy, its per-subtask
// states (entities to kill, deferred functions, outputs), the number of
// subtasks of the latest run, whether that run threw, and the measured cost
// of its runs (scheduler/hand_off.h). It is parameterized by the strategy
// and state types only, and almost every system has the same ones (the
// automatic strategy, no output): the code that plans a run, prepares its
// subtasks and records its cost (system_runner.h) is compiled once per
// context for all of them, instead of twice per system (7 % of the compile
// time of a 64-component, 32-system program).
//
// Thread-safety: during a run each subtask touches only its own state; the
// rest is mutated only by the context, outside system execution.
#ifndef STRATA_CONTEXT_INTERNAL_INSTANCE_RUNTIME_H_
#define STRATA_CONTEXT_INTERNAL_INSTANCE_RUNTIME_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "context/internal/subscription.h"
#include "scheduler/hand_off.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/signature.h"

namespace strata::context_internal {

template <typename Output>
void reset_output(Output& output) {
  if constexpr (requires { output.clear(); }) {
    output.clear();
  } else {
    output = Output{};
  }
}

// Splits `entities` into subtasks and sets each state's slice (and resets
// its output); returns the count.
template <typename Strategy, typename States>
std::size_t prepare_states(const Strategy& strategy, States& states,
                           std::size_t entities, std::size_t threads,
                           bool allow_split, std::int64_t predicted_ns) {
  // (One entity or none: one subtask, whatever the strategy says.)
  const std::size_t count =
      allow_split && entities > 1
          ? ::strata::subtask_count(strategy, entities, threads, predicted_ns)
          : 1;
  if (states.size() < count) states.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    auto [begin, end] = slice_bounds(i, count, entities);
    states[i].begin = begin;
    states[i].end = end;
    if constexpr (!std::is_same_v<decltype(states[i].output),
                                  ::strata::no_output>) {
      reset_output(states[i].output);
    }
  }
  return count;
}

template <typename EntityStorage, typename Strategy, typename State>
class instance_runtime {
 public:
  using subscription_type = subscription<EntityStorage>;
  using bitset_type = typename subscription_type::bitset_type;
  using state_type = State;
  using strategy_type = Strategy;

  instance_runtime(Strategy strategy, std::size_t system_id,
                   const bitset_type& required, const bitset_type& excluded,
                   membership_hooks hooks, const EntityStorage& entities)
      : strategy_(std::move(strategy)),
        subscription_(system_id, required, excluded, hooks, entities) {}

  instance_runtime(const instance_runtime&) = delete;
  instance_runtime& operator=(const instance_runtime&) = delete;

  // Subscribed entities after pending departures (a look).
  std::size_t entity_count() const { return subscription_.members().size(); }
  // Subtasks of the latest run (or prepared for the current one).
  std::size_t subtask_count() const noexcept { return active_subtasks_; }

  // For the context, its proxies and the refresh: the subscription. A
  // remove_component of a required component notes a departure there; the
  // entity leaves at the next look at the subscription (subscribed(),
  // entity_count(), a run), unless it has the component again by then. So
  // a remove followed by an add of the same component costs no set
  // operation in the step, and nothing at the refresh.
  subscription_type& membership() noexcept { return subscription_; }
  const subscription_type& membership() const noexcept { return subscription_; }
  void note_departure(std::uint32_t index) {
    subscription_.note_departure(index);
  }
  State& state(std::size_t subtask) noexcept { return states_[subtask]; }
  State* states() noexcept { return states_.data(); }
  std::size_t state_count() const noexcept { return states_.size(); }

  // The measured cost of the system's runs (scheduler/hand_off.h).
  run_cost& cost() noexcept { return cost_; }
  const run_cost& cost() const noexcept { return cost_; }

  // Splits the subscribed set for a run and resets the outputs.
  // `predicted_ns` reaches cost-aware strategies
  // (inner_parallelism::automatic()).
  void prepare_subtasks(std::size_t threads, bool allow_split,
                        std::int64_t predicted_ns = run_cost::unknown) {
    active_subtasks_ = prepare_states(strategy_, states_, entity_count(),
                                      threads, allow_split, predicted_ns);
    failed_ = false;
  }

  // Whether the latest run threw: the refresh then discards the kills and
  // deferred functions of its subtasks (context/context.h, exceptions).
  bool failed() const noexcept { return failed_; }
  void mark_failed() noexcept { failed_ = true; }

 private:
  Strategy strategy_;
  subscription_type subscription_;
  std::vector<State> states_;
  std::size_t active_subtasks_ = 0;
  bool failed_ = false;
  run_cost cost_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_INSTANCE_RUNTIME_H_
