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
// context for all of them, instead of twice per system (the compile cost
// of //benchmarks/compile:large_64x32 shows it).
//
// Runs within a step. Every pass over the subtasks in a step (each run of
// the system, and each further for_subtasks call of a detailed_instance
// callable in one run) gets states of its own, after those of the earlier
// passes of the step: the refresh visits the states in order, so deferred
// functions come in (run within the step, subtask, deferral) order whatever
// the number of subtasks. The count restarts with the first run of the next
// step (run_in_step(): the pass being prepared or run, from 0). When a run
// throws, discard_run() drops the kills and deferred functions of its
// passes at once, so a later run in the same step keeps only its own.
//
// Thread-safety: during a run each subtask touches only its own state; the
// rest is mutated only by the context, outside system execution.
#ifndef STRATA_CONTEXT_INTERNAL_INSTANCE_RUNTIME_H_
#define STRATA_CONTEXT_INTERNAL_INSTANCE_RUNTIME_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "base/internal/owned_ptr.h"
#include "context/internal/subscription.h"
#include "scheduler/hand_off.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/system_signature.h"
#include "sparse_set/ordered_index_set.h"

namespace strata::context_internal {

template <typename Output>
void reset_output(Output& output) {
  if constexpr (requires { output.clear(); }) {
    output.clear();
  } else {
    output = Output{};
  }
}

// The per-subtask states of a system: an array that only grows, by
// resize(), and keeps its states (moved) when it does. Not a std::vector,
// whose growth code, some forty functions per state type, every program
// compiled for each system's state type (//benchmarks/compile:game_8x12);
// a resize is rare (a run split into more subtasks than ever before in a
// step), so nothing of a vector's growth policy is missed.
template <typename State>
class subtask_states {
  static_assert(std::is_nothrow_move_assignable_v<State>,
                "a growth moves the states and must not throw halfway");

 public:
  std::size_t size() const noexcept { return size_; }
  State* data() noexcept { return states_.get(); }
  State& operator[](std::size_t i) noexcept { return states_[i]; }
  // Exactly n states; new ones are default-constructed. Only grows (n >=
  // size()). A failed allocation leaves the states as they were.
  [[gnu::noinline]] void resize(std::size_t n) {
    base_internal::owned_ptr<State[]> grown(new State[n]);
    for (std::size_t i = 0; i < size_; ++i) grown[i] = std::move(states_[i]);
    states_ = std::move(grown);
    size_ = n;
  }

 private:
  base_internal::owned_ptr<State[]> states_;
  std::size_t size_ = 0;
};

// Splits `entities` into subtasks and sets the slices (and resets the
// outputs) of states [first, first + count); returns the count.
template <typename Strategy, typename States>
std::size_t prepare_states(const Strategy& strategy, States& states,
                           std::size_t first, std::size_t entities,
                           std::size_t threads, bool allow_split,
                           std::int64_t predicted_ns) {
  // (One entity or none: one subtask, whatever the strategy says.)
  const std::size_t count =
      allow_split && entities > 1
          ? ::strata::subtask_count(strategy, entities, threads, predicted_ns)
          : 1;
  if (states.size() < first + count) states.resize(first + count);
  for (std::size_t i = 0; i < count; ++i) {
    auto [begin, end] = slice_bounds(i, count, entities);
    states[first + i].begin = begin;
    states[first + i].end = end;
    if constexpr (!std::is_same_v<decltype(states[i].output),
                                  ::strata::no_output>) {
      reset_output(states[first + i].output);
    }
  }
  return count;
}

template <typename EntityStorage, typename Strategy, typename State>
class instance_runtime {
 public:
  using subscription_type = context_internal::subscription<EntityStorage>;
  using bitset_type = typename subscription_type::bitset_type;
  using state_type = State;
  using strategy_type = Strategy;

  // Out of line, as the destructor and begin_pass: the same function for
  // every system of the same strategy and state types, called once per
  // system (GCC would otherwise inline a copy for each system when the
  // settings have external linkage).
  [[gnu::noinline]] instance_runtime(Strategy strategy, std::size_t system_id,
                                     const bitset_type& required,
                                     const bitset_type& excluded,
                                     subscription_hooks hooks,
                                     const EntityStorage& entities)
      : strategy_(std::move(strategy)),
        subscription_(system_id, required, excluded, hooks, entities) {}
  [[gnu::noinline]] ~instance_runtime() = default;

  instance_runtime(const instance_runtime&) = delete;
  instance_runtime& operator=(const instance_runtime&) = delete;

  // Subscribed entities after pending departures (a look).
  std::size_t subscribed_count() const {
    return subscription_.subscribed_count();
  }
  // Their indices, ascending (a look): what the data proxy visits.
  const ordered_index_set& subscribed_indices() const {
    return subscription_.subscribed_indices();
  }
  // Subtasks of the latest run (or prepared for the current one).
  std::size_t subtask_count() const noexcept { return active_subtasks_; }

  // For the context, its proxies and the refresh: the subscription. A
  // remove_component of a required component notes a departure there; the
  // entity leaves at the next look at the subscription (subscribed(),
  // subscribed_count(), a run), unless it has the component again by then. So
  // a remove followed by an add of the same component costs no set
  // operation in the step, and nothing at the refresh.
  subscription_type& subscription() noexcept { return subscription_; }
  const subscription_type& subscription() const noexcept {
    return subscription_;
  }
  void note_departure(std::uint32_t index) {
    subscription_.note_departure(index);
  }
  // The states of the current pass (subtask `subtask` of it).
  State& state(std::size_t subtask) noexcept {
    return states_[pass_first_ + subtask];
  }
  State* pass_states() noexcept { return states_.data() + pass_first_; }
  // Every state (those the step's passes used first, then spare ones, left
  // empty by the refresh), for the refresh.
  State* states() noexcept { return states_.data(); }
  std::size_t state_count() const noexcept { return states_.size(); }
  // The states of every pass of the latest run, in pass then subtask order.
  State* run_states() noexcept { return states_.data() + run_first_; }
  std::size_t run_state_count() const noexcept {
    return used_states_ - run_first_;
  }
  // The pass of the step being prepared or run (0 for the first).
  std::size_t run_in_step() const noexcept { return run_in_step_; }

  // The measured cost of the system's runs (scheduler/hand_off.h).
  run_cost& cost() noexcept { return cost_; }
  const run_cost& cost() const noexcept { return cost_; }

  // Splits the subscribed set for a run of step `step` and resets the
  // outputs, in states after those of the step's earlier passes.
  // `predicted_ns` reaches cost-aware strategies
  // (inner_parallelism::automatic()).
  void prepare_subtasks(std::size_t threads, bool allow_split,
                        std::uint64_t step,
                        std::int64_t predicted_ns = run_cost::unknown) {
    if (step != step_ || used_states_ == 0) {
      step_ = step;
      used_states_ = 0;
      run_in_step_ = 0;
    } else {
      ++run_in_step_;
    }
    run_first_ = pass_first_ = used_states_;
    active_subtasks_ =
        prepare_states(strategy_, states_, run_first_, subscribed_count(),
                       threads, allow_split, predicted_ns);
    used_states_ += active_subtasks_;
    pass_started_ = false;
  }

  // Before a pass over the subtasks: the run's first pass uses the states
  // prepare_subtasks set; a further one (a detailed_instance callable
  // calling for_subtasks again) gets fresh states with the same slices.
  // Out of line: once per system run, the same function for every system.
  [[gnu::noinline]] void begin_pass() {
    if (!pass_started_) {
      pass_started_ = true;
      return;
    }
    const std::size_t first = used_states_;
    if (states_.size() < first + active_subtasks_) {
      states_.resize(first + active_subtasks_);
    }
    for (std::size_t i = 0; i < active_subtasks_; ++i) {
      State& fresh = states_[first + i];
      fresh.begin = states_[pass_first_ + i].begin;
      fresh.end = states_[pass_first_ + i].end;
      if constexpr (!std::is_same_v<decltype(fresh.output),
                                    ::strata::no_output>) {
        reset_output(fresh.output);
      }
    }
    pass_first_ = first;
    used_states_ += active_subtasks_;
    ++run_in_step_;
  }

  // The latest run threw: the kills, deferred functions and messages of its
  // passes are dropped (context/context.h, exceptions); earlier runs keep
  // theirs.
  void discard_run() noexcept {
    for (std::size_t s = run_first_; s < used_states_; ++s) {
      states_[s].to_kill.clear();
      states_[s].deferred.clear();
      states_[s].outboxes.clear();
    }
  }

 private:
  Strategy strategy_;
  subscription_type subscription_;
  subtask_states<State> states_;
  std::size_t active_subtasks_ = 0;  // of the current pass
  std::uint64_t step_ = 0;           // of the latest prepare_subtasks
  std::size_t used_states_ = 0;      // by the passes of that step
  std::size_t run_first_ = 0;        // first state of the latest run
  std::size_t pass_first_ = 0;       // first state of the current pass
  std::size_t run_in_step_ = 0;
  bool pass_started_ = false;
  run_cost cost_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_INSTANCE_RUNTIME_H_
