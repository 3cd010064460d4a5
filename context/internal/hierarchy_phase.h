// Internal to //context: the refresh's hierarchy phase (context/hierarchy.h),
// between the deferred functions (phase 1) and the kills (phase 2) of a
// context whose settings declare a hierarchy; a program without one does
// not compile it (context/refresh.h).
//
//   1. the queued set_parent / remove_parent requests, in queue order, each
//      checked against the relation the earlier ones left (alive child and
//      parent, no cycle) and applied or refused;
//   2. the cascade: breadth-first from the entities killed directly (in
//      index order), each killed entity's children are killed too
//      (kill_children) or made roots (detach_children);
//   3. the nodes of every killed entity are cleared, so that its index
//      names nothing when phase 2 reclaims it;
//   4. each depth level that strayed from index order is sorted again
//      (hierarchy_storage::tidy_levels), so that a pass over it reads the
//      components forward through memory.
//
// Complexity: O(depth + moved subtree) per request; O(kills + their
// children) for the cascade, plus the sort of the kills when they are out of
// index order (phase 2 sorts them anyway); O(levels) for step 4, plus a
// level's sort, amortized over the changes that made it stray.
#ifndef STRATA_CONTEXT_INTERNAL_HIERARCHY_PHASE_H_
#define STRATA_CONTEXT_INTERNAL_HIERARCHY_PHASE_H_

#include <cstddef>
#include <vector>

#include "base/internal/trivial_vector.h"
#include "context/internal/entity_order.h"
#include "context/internal/hierarchy_storage.h"
#include "context/internal/kill_phase.h"
#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// A set_parent (parent not null) or remove_parent (parent null) waiting for
// the refresh.
struct parent_request {
  entity_id child;
  entity_id parent;
};

// What a context with a hierarchy holds: the relation and the queue.
template <typename Relation>
struct hierarchy_state {
  static constexpr bool kills_children = Relation::kills_children;
  hierarchy_storage storage;
  std::vector<parent_request> requests;
  // Requests the latest step's refresh refused (reset as a step begins).
  std::size_t refused = 0;
};

// Whether a refresh's World has a hierarchy phase (context_core says so;
// test worlds do not).
template <typename World>
inline constexpr bool has_hierarchy_v = [] {
  if constexpr (requires { World::has_hierarchy; }) {
    return World::has_hierarchy;
  } else {
    return false;
  }
}();

template <typename World>
void report_hierarchy_event(World& world, refresh_event::kind what,
                            entity_id entity, entity_id other) {
  if (const refresh_observer* observer = world.observer()) {
    (*observer)({.what = what,
                 .entity = entity,
                 .system_id = refresh_event::no_system,
                 .system_name = {},
                 .count = 0,
                 .other = other});
  }
}

// Step 1: the requests, in order.
template <typename World, typename State>
void apply_parent_requests(World& world, State& state) {
  auto& entities = world.entities();
  hierarchy_storage& storage = state.storage;
  for (const parent_request& request : state.requests) {
    const entity_id child = request.child;
    const entity_id parent = request.parent;
    const bool removing = parent.is_null();
    const bool refused = !entities.alive(child) ||
                         (!removing && (!entities.alive(parent) ||
                                        storage.is_ancestor_or_self(
                                            child.index(), parent.index())));
    if (refused) {
      ++state.refused;
      report_hierarchy_event(world, refresh_event::kind::refused_parent, child,
                             parent);
    } else if (removing) {
      storage.detach(child.index());
    } else {
      storage.attach(child.index(), parent.index());
    }
  }
  state.requests.clear();
}

// Steps 2 and 3: `kills` grows with the cascade (queue.queue_kill).
template <typename World, typename State, typename Queue>
void apply_hierarchy_kills(World& world, State& state,
                           base_internal::trivial_vector<entity_id>& kills,
                           Queue& queue) {
  if (kills.empty()) return;
  auto& entities = world.entities();
  hierarchy_storage& storage = state.storage;
  const auto dying = [&](std::size_t index) {
    return entities.metadata_at(index).extra.pending_kill;
  };
  sort_by_index(kills.begin(), kills.end());
  for (std::size_t k = 0; k < kills.size(); ++k) {
    const entity_id parent = kills[k];
    std::size_t child = storage.first_child(parent.index());
    while (child != hierarchy_storage::none) {
      const std::size_t next = storage.next_sibling(child);
      const entity_id child_id = entities.live_id_at(child);
      if constexpr (State::kills_children) {
        if (queue.queue_kill(entities, child_id)) {
          report_hierarchy_event(world, refresh_event::kind::killed_with_parent,
                                 child_id, parent);
        }
      } else if (!dying(child)) {
        storage.detach(child);
        report_hierarchy_event(world, refresh_event::kind::detached_from_parent,
                               child_id, parent);
      }
      child = next;
    }
  }
  for (entity_id id : kills) {
    const std::size_t parent = storage.parent(id.index());
    storage.clear(id.index(),
                  parent != hierarchy_storage::none && !dying(parent));
  }
}

// The phase, on the kills queued so far (internal/refresh_queue.h).
template <typename World, typename Queue>
void apply_hierarchy(World& world, Queue& queue) {
  auto& state = world.hierarchy();
  apply_parent_requests(world, state);
  apply_hierarchy_kills(world, state, queue.to_kill, queue);
  state.storage.tidy_levels();
}

// What the component hooks (internal/hook_phase.h) call after each round:
// the round's parent changes and the cascade of its kills (the killed
// entities' nodes already cleared are left as they are), so that the next
// round tells the descendants killed with a hook's victim. The callable
// returns whether it killed more entities; without a hierarchy it never
// does. Made after the phase ran on the step's own kills.
template <typename World, typename Queue>
auto cascade_after_hook_round(World& world, Queue& queue) {
  if constexpr (has_hierarchy_v<World>) {
    return [&world, &queue, cascaded = queue.to_kill.size()]() mutable {
      if (queue.to_kill.size() == cascaded &&
          world.hierarchy().requests.empty()) {
        return false;
      }
      const std::size_t kills_before = queue.to_kill.size();
      apply_hierarchy(world, queue);
      cascaded = queue.to_kill.size();
      return cascaded != kills_before;
    };
  } else {
    return [] { return false; };
  }
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HIERARCHY_PHASE_H_
