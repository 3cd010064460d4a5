// Internal to //context: the refresh queue, what a context keeps between
// the changes of a step and the refresh that applies them, and the driver
// of the refresh's phases. The refresh's contract (its phases, the
// subscriptions and their events) is in context/refresh.h.
//
//   context_internal::refresh_queue<EntityStorage, ComponentStorage> queue;
//   queue.note_created(entities, id);        // during the step
//   queue.note_change(entities, id);         // before a component's bit flips
//   queue.begin_batch(bits);                 // create_entities(n, f):
//   queue.note_created_in_batch(entities, id);  //   each of the n
//   queue.queue_kill(entities, id);          // mark dead
//   queue.run(world, defer_proxy, parallel); // after the step
//
// The World a phase runs on provides: entities() (a basic_entity_storage
// whose metadata `extra` is an entity_refresh_flags); components();
// take_subtask_work() (whether any subtask state holds kills or deferred
// functions since the last refresh; it resets the answer);
// for_each_instance_that_left(kind, f) (f(instance), in system id order,
// for every system instance, system_instance.h, whose subtasks left `kind`,
// internal/pending_changes.h's subtask_work, by the last
// take_subtask_work()); for_each_subscription(f,
// parallel) (f(subscription) for every system's subscription,
// internal/subscription.h, in id order or in parallel);
// run_subscription_hook(system id, kind, entity) (the system's on_subscribe
// or on_unsubscribe); observer() (a pointer to a refresh_observer, or
// null); system_name(id). The phases that visit every system work on
// subscriptions, a type without the system's, so each is compiled once.
//
// The queues keep their capacity, so a steady state allocates nothing.
//
// Thread-safety: one thread (the context's) calls everything here, never
// while systems run.
#ifndef STRATA_CONTEXT_INTERNAL_REFRESH_QUEUE_H_
#define STRATA_CONTEXT_INTERNAL_REFRESH_QUEUE_H_

#include <cstddef>
#include <exception>
#include <utility>

#include "absl/base/attributes.h"
#include "context/internal/hierarchy_phase.h"
#include "context/internal/kill_phase.h"
#include "context/internal/match_phase.h"
#include "context/internal/pending_changes.h"
#include "context/internal/subscription.h"
#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// Phase 1 of the refresh: every deferred function of every subtask state,
// in system id, run within the step, subtask, then deferral order, through
// the defer proxy (the same order of states as gather_subtask_kills,
// internal/kill_phase.h). Every one runs even if an earlier one threw;
// returns the first exception thrown.
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
  world.for_each_instance_that_left(
      subtask_work::deferred, [&](auto& instance) {
        run_deferred_of(instance.states(), instance.state_count(), proxy,
                        failure);
      });
  return failure;
}

template <typename EntityStorage, typename ComponentStorage>
class refresh_queue {
 public:
  using bitset_type = typename EntityStorage::metadata_type::bitset_type;

  // A new entity: matched against every system at the refresh.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_created(EntityStorage& entities,
                                                 entity_id id) {
    changes_.queue_change(entities, id);
  }
  // A component of live entity `id` (the caller checked) is about to be
  // added or removed. What changed is read at the refresh, against the
  // components it had at the last one.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_change(EntityStorage& entities,
                                                entity_id id) {
    changes_.queue_change(entities, id);
  }

  // create_entities(n, f): the entities noted with note_created_in_batch
  // until the next begin_batch were created with components `bits` (their
  // metadata already says so), and are matched as one at the refresh.
  void begin_batch(const bitset_type& bits) { changes_.begin_batch(bits); }
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_created_in_batch(
      EntityStorage& entities, entity_id id) {
    changes_.add_to_batch(entities, id);
  }

  // Marks `id` dead; false if it is not alive or already marked.
  bool queue_kill(EntityStorage& entities, entity_id id) {
    if (!entities.alive(id)) return false;
    auto& flags = entities.metadata_at(id.index()).extra;
    if (flags.pending_kill) return false;
    flags.pending_kill = true;
    changes_.to_kill.push_back(id);
    return true;
  }

  // The three phases in order; rethrows the first exception of a deferred
  // function after all of them ran (every deferred function runs).
  // Phases 1 and 2 visit the subtask states only when the world says a
  // subtask left work there (world.take_subtask_work()).
  template <typename World, typename DeferProxy>
  void run(World& world, DeferProxy& proxy, bool parallel) {
    const bool subtask_work = world.take_subtask_work();
    std::exception_ptr failure =
        subtask_work ? context_internal::run_deferred(world, proxy) : nullptr;
    constexpr bool has_hooks = requires {
      requires World::has_component_hooks;
    };
    constexpr bool has_hierarchy = context_internal::has_hierarchy_v<World>;
    if constexpr (has_hooks || has_hierarchy) {
      // The hierarchy's cascade and the component hooks need every kill,
      // the subtasks' included.
      if (subtask_work) context_internal::gather_subtask_kills(world, *this);
    }
    if constexpr (has_hierarchy) {
      // Parent changes, then the cascade (context/hierarchy.h): hooks see
      // the entities killed with their parents.
      context_internal::apply_hierarchy(world, changes_.to_kill, *this);
    }
    if constexpr (has_hooks) {
      // After each hook round, what its hooks queued: their parent changes,
      // and the cascade of their kills (the killed entities' nodes already
      // cleared are left as they are), so that the next round tells the
      // descendants killed with a hook's victim.
      std::size_t kills_cascaded = changes_.to_kill.size();
      const auto cascade = [&] {
        if constexpr (has_hierarchy) {
          if (changes_.to_kill.size() == kills_cascaded &&
              world.hierarchy().requests.empty()) {
            return false;
          }
          const std::size_t kills_before = changes_.to_kill.size();
          context_internal::apply_hierarchy(world, changes_.to_kill, *this);
          kills_cascaded = changes_.to_kill.size();
          return kills_cascaded != kills_before;
        } else {
          return false;
        }
      };
      std::exception_ptr thrown = world.run_component_hooks(changes_, cascade);
      if (thrown && !failure) failure = std::move(thrown);
    }
    context_internal::apply_kills(world, changes_, *this, parallel,
                                  subtask_work && !has_hooks && !has_hierarchy);
    context_internal::apply_matches(world, changes_, parallel);
    if (failure) std::rethrow_exception(failure);
  }

  std::size_t pending_kills() const noexcept { return changes_.to_kill.size(); }
  // Entities queued for matching, one at a time or in batches.
  std::size_t pending_matches() const noexcept {
    return changes_.queued_entities();
  }

  // Whether a subscription grew past its growth limit since the last call
  // (subscription::set_growth_limit); resets the answer.
  bool take_subscription_growth() noexcept {
    return std::exchange(changes_.subscription_grew, false);
  }

 private:
  pending_changes<EntityStorage> changes_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_REFRESH_QUEUE_H_
