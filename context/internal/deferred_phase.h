// Internal to //context: phase 1 of the refresh (context/refresh.h), the
// deferred functions. Every deferred function of every subtask state runs,
// in system id, run within the step, subtask, then deferral order, through
// the defer proxy (the same order of states as gather_subtask_kills,
// internal/kill_phase.h). Every one runs even if an earlier one threw; the
// phase returns the first exception thrown.
//
// The World it runs on (internal/kill_phase.h lists what the phases need)
// visits the systems whose subtasks left deferred functions:
// for_each_instance_that_left(subtask_work::deferred, f).
//
// Complexity: O(deferred functions), plus a visit per system noted.
#ifndef STRATA_CONTEXT_INTERNAL_DEFERRED_PHASE_H_
#define STRATA_CONTEXT_INTERNAL_DEFERRED_PHASE_H_

#include <cstddef>
#include <exception>
#include <utility>

#include "context/internal/refresh_queue.h"

namespace strata::context_internal {

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
  world.for_each_instance_that_left(subtask_work::deferred, [&](auto& runtime) {
    run_deferred_of(runtime.states(), runtime.state_count(), proxy, failure);
  });
  return failure;
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_DEFERRED_PHASE_H_
