// Internal to //context: phase 2 of the refresh (context/refresh.h), the
// kills. Every entity marked dead leaves the systems it was in, its
// components are destroyed and its id reclaimed (the version bumps, so old
// ids and handles turn stale), in entity-index order, so that the result
// does not depend on how systems were split into subtasks.
//
// Two ways, by who must be told:
//   * nobody (no observer, no system with an on_unsubscribe hook): each
//     system with members erases every
//     killed index in one batch (ordered_index_set::erase_all: erasing a
//     non-member does nothing, so no subscription test), and one pass over
//     the kills destroys each entity's components (reading its component
//     bits once) and reclaims its id;
//   * an observer or a hook: the events of each kill (its unsubscribes,
//     then its reclaim) come together, in index order, and whether the
//     entity was a member is tested against the components it had at the
//     last refresh.
//
// The World the refresh's phases run on (the context core,
// internal/core.h, or a test's) provides: entities() (a
// basic_entity_storage whose metadata `extra` is an entity_refresh_flags);
// components(); for_each_instance_that_left(kind, f) (f(runtime), in
// system id order, with the runtime part, internal/instance_runtime.h, of
// every system instance whose subtasks left `kind`,
// internal/refresh_queue.h's subtask_work, since the last refresh);
// for_each_subscription(f, parallel) (f(subscription) for every system's
// subscription, internal/subscription.h, in id order or in parallel);
// run_subscription_hook(system id, kind, entity) (the system's on_subscribe or
// on_unsubscribe); observer() (a pointer to a refresh_observer, or null);
// system_name(id). The phases that visit every system work on subscriptions, a
// type without the system's, so each is compiled once.
//
// Complexity: O(kills * systems with members) bit clears, plus a sort of
// the kills when they are out of index order, plus O(changes) to index the
// match queue when subscriptions are tested.
#ifndef STRATA_CONTEXT_INTERNAL_KILL_PHASE_H_
#define STRATA_CONTEXT_INTERNAL_KILL_PHASE_H_

#include <cstddef>
#include <cstdint>

#include "absl/base/attributes.h"
#include "context/internal/entity_order.h"
#include "context/internal/refresh_queue.h"
#include "context/internal/subscription.h"
#include "context/internal/subscription_events.h"
#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// Phase 2 needs the components a killed entity had at the last refresh
// (components_at_last_refresh); for one that changed in this step its queue
// entry holds them. Where each entry is gets written here, once per refresh
// with kills, rather than on every change.
template <typename EntityStorage>
void index_match_entries(refresh_queue<EntityStorage>& changes,
                         const EntityStorage& entities) {
  if (changes.to_match.empty()) return;
  if (changes.slots.size() < entities.slot_count()) {
    changes.slots.resize(entities.slot_count());
  }
  for (std::size_t slot = 0; slot < changes.to_match.size(); ++slot) {
    changes.slots[changes.to_match[slot].id.index()] =
        static_cast<std::uint32_t>(slot);
  }
}

// The components `id` had at the last refresh (after index_match_entries).
// Only for entities that went through a refresh (`matched`): batch entities
// are queued without a match entry, but were never matched.
template <typename EntityStorage>
const auto& components_at_last_refresh(
    const refresh_queue<EntityStorage>& changes, const EntityStorage& entities,
    entity_id id) {
  const auto& meta = entities.metadata_at(id.index());
  return meta.extra.queued ? changes.to_match[changes.slots[id.index()]].before
                           : meta.components;
}

// One (system, killed entity) when subscriptions are tested; inlined into the
// per-system loop over the kills.
template <typename World, typename EntityStorage>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void leave_if_member(
    World& world, const refresh_queue<EntityStorage>& changes,
    subscription<EntityStorage>& system, entity_id id) {
  const auto& entities = world.entities();
  if (!entities.metadata_at(id.index()).extra.matched ||
      !system.matches(components_at_last_refresh(changes, entities, id))) {
    return;
  }
  system.raw_subscribed_indices().erase(id.index());
  notify(world, system, refresh_event::kind::unsubscribe, id);
}

// Kills requested by subtasks join the step's own. The subtask states are
// visited in system id, then state order (a system's states hold its passes
// of the step one after the other, each in subtask order:
// internal/instance_runtime.h), so the result does not depend on which
// thread ran which subtask, nor on how many subtasks a pass had; a run that
// threw left nothing there (instance_runtime::discard_run). The per-system
// work is out of line and depends only on the subtask state type, so a
// context of many systems compiles it once, not once per system.
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
  world.for_each_instance_that_left(subtask_work::kills, [&](auto& runtime) {
    gather_kills_of(runtime.states(), runtime.state_count(), entities, queue);
  });
}

struct index_of_id {  // one type for every system's erase_all
  std::size_t operator()(entity_id id) const noexcept { return id.index(); }
};

// Phase 2. Subtask kills are gathered first when `subtask_work`. Forced
// inline: called once per context type (the refresh), and GCC leaves
// COMDAT copies out of line when the settings have external linkage.
template <typename World, typename EntityStorage>
[[gnu::always_inline]] inline void apply_kills(
    World& world, refresh_queue<EntityStorage>& changes, bool parallel,
    bool subtask_work) {
  using subscription_type = subscription<EntityStorage>;
  if (subtask_work) gather_subtask_kills(world, changes);
  auto& kills = changes.to_kill;
  if (kills.empty()) return;
  // Usually in index order already (a pass over a system's entities, or
  // ids created in a row); sort_by_index checks before sorting.
  sort_by_index(kills.begin(), kills.end());
  auto& entities = world.entities();
  const refresh_observer* observer = world.observer();
  // Queue entries are read only by subscription tests (observer, hooks).
  bool tests_subscription = observer != nullptr;
  world.for_each_subscription(
      [&](subscription_type& system) {
        tests_subscription |= system.hooks().on_unsubscribe;
      },
      /*parallel=*/false);
  if (tests_subscription) index_match_entries(changes, entities);
  if (observer == nullptr) {
    world.for_each_subscription(
        [&](subscription_type& system) {
          if (system.hooks().on_unsubscribe) {
            // No shortcut on an empty subscription: an entity that lost a
            // required component this step already left it, yet was a
            // member at the last refresh and is owed its unsubscribe.
            for (entity_id id : kills) {
              leave_if_member(world, changes, system, id);
            }
          } else if (!system.raw_subscribed_indices().empty()) {
            // Nobody to tell: erase, no per-kill test (erasing a
            // non-member does nothing).
            system.raw_subscribed_indices().erase_all(
                kills.begin(), kills.end(), index_of_id{});
          }
        },
        parallel);
    // One pass: each entity's components (its bits read once; reclaim
    // resets them), then its id. Every kill is a distinct live id
    // (queue_kill checks both), so the reclaim skips the liveness check.
    world.components().destroy_all_of(
        kills.begin(), kills.end(),
        [&](entity_id id) -> auto& {
          return entities.metadata_at(id.index()).components;
        },
        [&](entity_id id) { entities.reclaim_alive(id); });
    kills.clear();
    return;
  }
  // With an observer, the events of each kill (its unsubscribes, then its
  // reclaim) come together, in index order.
  for (entity_id id : kills) {
    world.for_each_subscription(
        [&](subscription_type& system) {
          leave_if_member(world, changes, system, id);
        },
        /*parallel=*/false);
    world.components().remove_all(id, entities.bits(id));
    entities.reclaim_alive(id);
    (*observer)(
        {refresh_event::kind::reclaim, id, refresh_event::no_system, {}});
  }
  kills.clear();
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_KILL_PHASE_H_
