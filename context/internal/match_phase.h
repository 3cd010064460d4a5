// Internal to //context: phase 3 of the refresh (context/refresh.h), the
// matching. Every entity created or whose components changed in the step is
// matched again, but only against the systems that can care: a created
// entity against all, a changed one against the systems whose required or
// excluded components include a component it gained or lost (the
// subscription rule's interest bits).
//
// Passes, in order:
//   1. drop_unchanged: an entity whose components are what they were at the
//      last refresh (a remove followed by an add of the same component, a
//      replaced component), in systems that saw no departure since, stays
//      where it was, without events: its entry goes, so a cancelled change
//      costs one visit instead of one per system. Entities created one at a
//      time, consecutive and with the same components, are gathered into
//      batches, matched like those of create_entities;
//   2. batches (create_entities): each batch's components are matched once
//      per system, and a matching system takes the whole batch in one pass
//      (ordered_index_set::insert_all). A batch entity killed in the step is
//      skipped; one whose components changed after its batch was made is
//      matched on its own in pass 3. With an observer or an on_subscribe
//      hook, whose events come entity by entity, batches are matched as
//      single entities instead (after the other entries: the context
//      makes no batch when events are observed, so that events keep the
//      order entities were queued in);
//   3. per system (in parallel when asked and nobody observes), every
//      remaining entry that concerns it is matched: it joins, leaves, or,
//      when it matches still and the system saw no departure, stays;
//   4. the entries' flags are reset, and a subscription that grew past its
//      growth limit is reported (subscription::set_growth_limit).
//
// Complexity: O(changes * systems) tests, O(1) per real subscription change,
// and per batch O(systems) tests plus O(entities * matching systems) bit
// sets.
#ifndef STRATA_CONTEXT_INTERNAL_MATCH_PHASE_H_
#define STRATA_CONTEXT_INTERNAL_MATCH_PHASE_H_

#include <cstddef>

#include "absl/base/attributes.h"
#include "base/check.h"
#include "context/internal/kill_phase.h"
#include "context/internal/refresh_queue.h"
#include "context/internal/subscription.h"
#include "context/internal/subscription_events.h"
#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// Pass 1. Killed entities' entries go too. With `gather_created`, entities
// created one at a time join batches too: consecutive ones with the same
// components (a spawn loop, typically) form one, matched once per system
// like a create_entities batch. The order of the rest is kept. Forced
// inline, as apply_matches is.
template <typename World, typename EntityStorage>
[[gnu::always_inline]] inline void drop_unchanged(
    World& world, refresh_queue<EntityStorage>& changes, bool gather_created) {
  bool any_left = false;
  world.for_each_subscription(
      [&](const subscription<EntityStorage>& system) {
        any_left |= system.left_since_refresh();
      },
      /*parallel=*/false);
  auto& entities = world.entities();
  // Gathered runs extend a batch this pass began, never one of
  // create_entities (settle_batches compacts those in place).
  const std::size_t own_batches = changes.batches.size();
  std::size_t kept = 0;
  // Two loops, one per value of any_left, so that the common one (no
  // departure applied) tests nothing per entry that it could know before.
  // Inlined: out of line, the loop reloaded the captured state per entry.
  const auto drop = [&]<bool AnyLeft>() ABSL_ATTRIBUTE_ALWAYS_INLINE {
    for (const auto& change : changes.to_match) {
      // Killed in this step: phase 2 reclaimed it and reset its flags, and
      // nothing was created since (the index is free), so `queued` off
      // says dead without the id's liveness check.
      auto& meta = entities.metadata_at(change.id.index());
      if (!meta.extra.queued) continue;
      STRATA_DCHECK(entities.alive(change.id),
                    "refresh: a queued entry whose entity is dead");
      if (!meta.extra.matched) {
        if (gather_created) {
          if (changes.batches.size() == own_batches ||
              !(changes.batches.back().bits == meta.components)) {
            changes.begin_batch(meta.components);
          }
          changes.batch_ids.append() = change.id;
          ++changes.batches.back().count;
          continue;
        }
      } else if (!AnyLeft && meta.components == change.before) {
        meta.extra.queued = false;
        continue;
      }
      changes.to_match[kept++] = change;
    }
  };
  if (any_left) {
    drop.template operator()<true>();
  } else {
    drop.template operator()<false>();
  }
  changes.to_match.shrink_to(kept);
}

// Pass 2, first half: keeps in each create_entities batch (the first
// `own_batches`) the entities still alive with the batch's components, and
// moves the ones that changed since to the match queue, as created
// entities (with `singly`, moves them all); batches gathered by pass 1 hold
// live entities with their components by construction. Kept entities are
// flagged matched.
template <typename EntityStorage>
void settle_batches(EntityStorage& entities,
                    refresh_queue<EntityStorage>& changes, bool singly,
                    std::size_t own_batches) {
  for (std::size_t b = 0; b < changes.batches.size(); ++b) {
    auto& batch = changes.batches[b];
    const bool checked = b < own_batches;
    std::size_t kept = batch.first;
    for (std::size_t k = batch.first; k < batch.first + batch.count; ++k) {
      const entity_id id = changes.batch_ids[k];
      auto& meta = entities.metadata_at(id.index());
      // Killed in this step: reclaimed in phase 2, which reset its flags
      // (no entity was created since, so the index is free).
      if (checked && !meta.extra.queued) continue;
      if (!checked || (!singly && meta.components == batch.bits)) {
        meta.extra.queued = false;
        meta.extra.matched = true;
        changes.batch_ids[kept++] = id;
      } else {
        auto& change = changes.to_match.append();
        change.id = id;
        change.before = {};  // never matched: compared against nothing
      }
    }
    batch.count = kept - batch.first;
  }
}

// Whether pass 3 must look at `change` for a system with rule `rule`: the
// entity is new, or gained or lost a component the system cares about, or
// the system let entities go since the last refresh (`left`: this one may
// have to come back). Kept apart from rematch so this test inlines into
// the loop.
template <typename World, typename Rule, typename Change>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool concerns(World& world,
                                                  const Rule& rule, bool left,
                                                  const Change& change) {
  const auto& meta = world.entities().metadata_at(change.id.index());
  return !meta.extra.matched ||
         ((change.before ^ meta.components) & rule.interest).any() || left;
}

// Pass 3 for one (system, changed entity) that concerns() the system.
// Always inlined: compiled once per context (not per system), so inlining
// costs no code size, and GCC kept it out of line, a call per changed
// entity and system (BM_CreateEntitiesWarm, benchmarks/entity_benchmark.cc).
template <typename World, typename EntityStorage, typename Rule,
          typename Change>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void rematch(
    World& world, subscription<EntityStorage>& system, const Rule& rule,
    bool left, const Change& change) {
  const auto& meta = world.entities().metadata_at(change.id.index());
  const bool created = !meta.extra.matched;
  const bool was = !created && rule.matches(change.before);
  const bool now = rule.matches(meta.components);
  const std::size_t index = change.id.index();
  // A member that matches still and whose system saw no departure since
  // the last refresh is where it was (a remove cancelled by an add).
  if (was && now && !left) return;
  if (now) {
    system.raw_subscribed_indices().insert(index);  // back after a departure
    if (!was) notify(world, system, refresh_event::kind::subscribe, change.id);
  } else {
    system.raw_subscribed_indices().erase(index);
    if (was) notify(world, system, refresh_event::kind::unsubscribe, change.id);
  }
}

// Phase 3. Departures (subscription.h) are noted only with a change queued,
// so an empty queue means no system has any to forget. Forced inline:
// called once per context type (the refresh), and GCC leaves COMDAT copies
// out of line when the settings have external linkage.
template <typename World, typename EntityStorage>
[[gnu::always_inline]] inline void apply_matches(
    World& world, refresh_queue<EntityStorage>& changes, bool parallel) {
  using subscription_type = subscription<EntityStorage>;
  if (changes.pending_matches() == 0) return;
  auto& entities = world.entities();
  const refresh_observer* observer = world.observer();
  // Subscribe events come entity by entity, in queue order: then nothing
  // is matched as a batch.
  bool singly = observer != nullptr;
  world.for_each_subscription(
      [&](const subscription_type& system) {
        singly |= system.hooks().on_subscribe;
      },
      /*parallel=*/false);
  const std::size_t own_batches = changes.batches.size();
  drop_unchanged(world, changes, /*gather_created=*/!singly);
  if (!changes.batches.empty()) {
    settle_batches(entities, changes, singly, own_batches);
  }
  if (observer == nullptr) {
    world.for_each_subscription(
        [&](subscription_type& system) {
          const auto rule = system.rule();  // in registers
          for (const auto& batch : changes.batches) {
            if (batch.count == 0 || !rule.matches(batch.bits)) continue;
            const entity_id* first = changes.batch_ids.begin() + batch.first;
            system.raw_subscribed_indices().insert_all(
                first, first + batch.count, index_of_id{});
          }
          const bool left = system.left_since_refresh();
          for (const auto& change : changes.to_match) {
            if (concerns(world, rule, left, change)) {
              rematch(world, system, rule, left, change);
            }
          }
          system.finish_refresh();
        },
        parallel);
  } else {
    for (const auto& change : changes.to_match) {
      world.for_each_subscription(
          [&](subscription_type& system) {
            const bool left = system.left_since_refresh();
            if (concerns(world, system.rule(), left, change)) {
              rematch(world, system, system.rule(), left, change);
            }
          },
          /*parallel=*/false);
    }
    world.for_each_subscription(
        [](subscription_type& system) { system.finish_refresh(); },
        /*parallel=*/false);
  }
  // Every entry left is a live entity's (pass 1 dropped the killed).
  for (const auto& change : changes.to_match) {
    auto& flags = entities.metadata_at(change.id.index()).extra;
    flags.queued = false;
    flags.matched = true;
  }
  changes.to_match.clear();
  changes.batch_ids.clear();
  changes.batches.clear();
  world.for_each_subscription(
      [&](const subscription_type& system) {
        changes.subscription_grew |= system.outgrew_limit();
      },
      /*parallel=*/false);
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_MATCH_PHASE_H_
