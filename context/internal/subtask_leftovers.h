// Internal to //context: what the refresh (context/refresh.h) takes from
// the subtask states systems left behind: their deferred functions (phase
// 1) and their kill requests (the start of phase 2). Both visit the states
// sequentially, in system id and then state order (a system's states hold
// its passes of the step one after the other, each in subtask order:
// internal/instance_runtime.h), so the result does not depend on which
// thread ran which subtask, nor on how many subtasks a pass had. A run that
// threw left nothing there (instance_runtime::discard_run). Called only
// when the world says some subtask left work (take_subtask_work()).
#ifndef STRATA_CONTEXT_INTERNAL_SUBTASK_LEFTOVERS_H_
#define STRATA_CONTEXT_INTERNAL_SUBTASK_LEFTOVERS_H_

#include <cstddef>
#include <exception>

#include "entity/entity_id.h"

namespace strata::context_internal {

// Phase 1 of the refresh: every deferred function of every subtask state,
// in system id, run within the step, subtask, then deferral order, through
// the defer proxy. Every one runs even if an earlier one threw; returns the
// first exception thrown.
//
// The per-system work is out of line and depends only on the subtask state
// type (systems without outputs share one), so a context of many systems
// compiles it once, not once per system.
template <typename State, typename DeferProxy>
[[gnu::noinline]] void run_deferred_of(State* states, std::size_t count,
                                       DeferProxy& proxy,
                                       std::exception_ptr& failure) {
  for (std::size_t s = 0; s < count; ++s) {
    std::exception_ptr thrown = states[s].deferred.run_all(proxy);
    if (thrown && !failure) failure = std::move(thrown);
  }
}
template <typename World, typename DeferProxy>
std::exception_ptr run_deferred(World& world, DeferProxy& proxy) {
  std::exception_ptr failure;
  world.for_each_instance_in_order([&](auto& instance) {
    run_deferred_of(instance.states(), instance.state_count(), proxy, failure);
  });
  return failure;
}

// Kills requested by subtasks join the step's own (per system out of line,
// as above).
template <typename State, typename Entities, typename Queue>
[[gnu::noinline]] void gather_kills_of(State* states, std::size_t count,
                                       Entities& entities, Queue& queue) {
  for (std::size_t s = 0; s < count; ++s) {
    auto& state = states[s];
    for (entity_id id : state.to_kill) queue.queue_kill(entities, id);
    state.to_kill.clear();
  }
}
template <typename World, typename Queue>
void gather_subtask_kills(World& world, Queue& queue) {
  auto& entities = world.entities();
  world.for_each_instance_in_order([&](auto& instance) {
    gather_kills_of(instance.states(), instance.state_count(), entities, queue);
  });
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SUBTASK_LEFTOVERS_H_
