// The refresh: how the structural changes of a step take effect (seed 003).
//
//   refresh_queue<EntityStorage, ComponentStorage> queue;
//   queue.note_created(entities, id);        // during the step
//   queue.note_change(entities, id);         // before a component's bit flips
//   queue.queue_kill(entities, id);          // mark dead
//   queue.run(world, defer_proxy, parallel); // after the step
//
// A step may create and kill entities and add and remove components; the
// refresh, run once after the step's function returns, makes those changes
// visible to systems in three named phases:
//   1. run_deferred: every deferred function of every subtask state, in
//      system id, subtask, then deferral order, sequentially, through the
//      defer proxy (where critical operations are allowed, so they may queue
//      more kills and changes). The first exception is kept; the remaining
//      deferred functions are dropped; the other phases still run. States of
//      systems that failed in the step (their run threw) are discarded.
//   2. apply_kills: every entity marked dead (by a critical proxy or by a
//      subtask of a system that did not fail) leaves the systems it was in,
//      its components are destroyed and its id reclaimed (the version bumps,
//      so old ids and handles turn stale). In entity-index order, so the
//      result does not depend on how systems were split into subtasks.
//   3. apply_matches: every entity created or whose components changed in
//      the step is matched again, but only against the systems that can care:
//      a created entity against all, a changed one against the systems whose
//      required or excluded components include a component it gained or lost
//      (compile-time interest bits). An entity whose components are what
//      they were at the last refresh (a remove followed by an add of the same
//      component, a replaced component) is dropped in one pass before the
//      per-system passes, and stays where it was, without events.
// Phases 2 and 3 visit systems in parallel when asked and nobody observes
// events (each system's subscription is touched by one thread; entity and
// component storage are only read there).
//
// Subscriptions. A system's subscription is the set of indices of the
// entities that matched it (subscription::matches: every required component,
// no excluded one) at the last refresh. Between refreshes exactly one thing
// changes it: remove_component makes the entity depart from every system
// that requires the removed component (depart_systems_requiring). A
// departure is applied at the system's next look at its subscription (a
// run, a query): an entity that lacks a required component then leaves, so
// no system ever sees a subscribed entity without its required components;
// one that has it again (removed, then added back) stays. Whether a
// departure is real is decided here: if the entity matches again at the
// refresh it is back (or never left), and nothing is reported.
//
// Events. When membership really changes, the system's optional hooks
// `on_subscribe(entity_id)` / `on_unsubscribe(entity_id)` run, and the
// world's observer (if any) gets a refresh_event, in the order
// refresh_event.h documents.
//
// The World a phase runs on provides: entities() (a basic_entity_storage
// whose metadata `extra` is an entity_refresh_flags); components();
// take_subtask_work() (whether any subtask state holds kills or deferred
// functions since the last refresh; it resets the answer);
// for_each_instance_in_order(f) (f(instance) for every system instance,
// system_instance.h, in system id order); for_each_subscription(f,
// parallel) (f(subscription) for every system's subscription,
// internal/subscription.h, in id order or in parallel);
// run_membership_hook(system id, kind, entity) (the system's on_subscribe
// or on_unsubscribe); observer() (a pointer to a refresh_observer, or
// null); system_name(id). The phases that visit every system work on
// subscriptions, a type without the system's, so each is compiled once.
//
// Complexity: phase 1 O(deferred functions); phase 2 O(kills * systems)
// bit clears (a membership test first only for systems with an
// on_unsubscribe hook, or with an observer) plus the sort of kills when
// they are out of index order (and O(changes) to find the changed
// entities' entries, when both happen and membership is tested);
// phase 3 O(changes * systems) bit tests, and O(1) per real membership
// change. The queues keep their capacity, so a steady state allocates
// nothing.
//
// Thread-safety: one thread (the context's) calls everything here, never
// while systems run.
#ifndef STRATA_CONTEXT_REFRESH_H_
#define STRATA_CONTEXT_REFRESH_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "context/internal/append_buffer.h"
#include "context/internal/membership_events.h"
#include "context/internal/subscription.h"
#include "context/internal/subtask_leftovers.h"
#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata {

template <typename EntityStorage, typename ComponentStorage>
class refresh_queue {
 public:
  using bitset_type = typename EntityStorage::metadata_type::bitset_type;
  using subscription_type = context_internal::subscription<EntityStorage>;
  using rule_type = typename subscription_type::rule_type;

  // A new entity: matched against every system at the refresh.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_created(EntityStorage& entities,
                                                 entity_id id) {
    queue_change(entities, id);
  }
  // A component of live entity `id` (the caller checked) is about to be
  // added or removed. What changed is read at the refresh, against the
  // components it had at the last one.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_change(EntityStorage& entities,
                                                entity_id id) {
    queue_change(entities, id);
  }

  // Marks `id` dead; false if it is not alive or already marked.
  bool queue_kill(EntityStorage& entities, entity_id id) {
    if (!entities.alive(id)) return false;
    auto& flags = entities.metadata(id).extra;
    if (flags.pending_kill) return false;
    flags.pending_kill = true;
    to_kill_.push_back(id);
    return true;
  }

  // The three phases in order; rethrows the first exception of a deferred
  // function after all of them ran.
  // Phases 1 and 2 visit the subtask states only when the world says a
  // subtask left work there (world.take_subtask_work()).
  template <typename World, typename DeferProxy>
  void run(World& world, DeferProxy& proxy, bool parallel) {
    const bool subtask_work = world.take_subtask_work();
    const std::exception_ptr failure =
        subtask_work ? context_internal::run_deferred(world, proxy) : nullptr;
    apply_kills(world, parallel, subtask_work);
    apply_matches(world, parallel);
    if (failure) std::rethrow_exception(failure);
  }

  // Phase 2.
  template <typename World>
  void apply_kills(World& world, bool parallel, bool subtask_work = true) {
    if (subtask_work) context_internal::gather_subtask_kills(world, *this);
    if (to_kill_.empty()) return;
    sort_kills_by_index();
    auto& entities = world.entities();
    const refresh_observer* observer = world.observer();
    // Queue entries are read only by membership tests (observer, hooks).
    bool tests_membership = observer != nullptr;
    world.for_each_subscription(
        [&](subscription_type& system) {
          tests_membership |= system.hooks().on_unsubscribe;
        },
        /*parallel=*/false);
    if (tests_membership) index_match_entries(entities);
    if (observer == nullptr) {
      world.for_each_subscription(
          [&](subscription_type& system) {
            if (system.hooks().on_unsubscribe) {
              // No shortcut on an empty subscription: an entity that lost a
              // required component this step already left it, yet was a
              // member at the last refresh and is owed its unsubscribe.
              for (entity_id id : to_kill_) {
                leave_if_member(world, system, id);
              }
            } else {
              // Nobody to tell: erase, no per-kill test (erasing a
              // non-member does nothing).
              system.raw_members().erase_all(to_kill_.begin(), to_kill_.end(),
                                             index_of{});
            }
          },
          parallel);
      // In batches (reclaim resets the component bits).
      world.components().destroy_all_of(
          to_kill_.begin(), to_kill_.end(), [&](entity_id id) -> auto& {
            return entities.metadata_at(id.index()).components;
          });
      for (entity_id id : to_kill_) entities.reclaim(id);
      to_kill_.clear();
      return;
    }
    // With an observer, the events of each kill (its unsubscribes, then its
    // reclaim) come together, in index order.
    for (entity_id id : to_kill_) {
      world.for_each_subscription(
          [&](subscription_type& system) {
            leave_if_member(world, system, id);
          },
          /*parallel=*/false);
      world.components().remove_all(id, entities.bits(id));
      entities.reclaim(id);
      (*observer)(
          {refresh_event::kind::reclaim, id, refresh_event::no_system, {}});
    }
    to_kill_.clear();
  }

  // Phase 3.
  // Departures (system_instance.h) are noted only with a change queued
  // here, so an empty queue means no system has any to forget.
  template <typename World>
  void apply_matches(World& world, bool parallel) {
    if (to_match_.empty()) return;
    drop_unchanged(world);
    auto& entities = world.entities();
    if (world.observer() == nullptr) {
      world.for_each_subscription(
          [&](subscription_type& system) {
            const rule_type rule = system.rule();  // in registers
            const bool left = system.left_since_refresh();
            for (const pending_match& change : to_match_) {
              if (concerns(world, rule, left, change)) {
                rematch(world, system, rule, left, change);
              }
            }
            system.finish_refresh();
          },
          parallel);
    } else {
      for (const pending_match& change : to_match_) {
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
    for (const pending_match& change : to_match_) {
      if (!entities.alive(change.id)) continue;
      auto& flags = entities.metadata(change.id).extra;
      flags.queued = false;
      flags.matched = true;
    }
    to_match_.clear();
    world.for_each_subscription(
        [&](const subscription_type& system) {
          membership_grew_ |= system.outgrew_limit();
        },
        /*parallel=*/false);
  }

  // Whether a subscription grew past its growth limit since the last call
  // (subscription::set_growth_limit); resets the answer.
  bool take_membership_growth() noexcept {
    return std::exchange(membership_grew_, false);
  }

  std::size_t pending_kills() const noexcept { return to_kill_.size(); }
  std::size_t pending_matches() const noexcept { return to_match_.size(); }

 private:
  struct index_of {  // one type for every system's erase_all
    std::size_t operator()(entity_id id) const noexcept { return id.index(); }
  };

  struct pending_match {
    entity_id id;
    bitset_type before;  // its components at the last refresh
  };

  // Phase 3's first pass. Entities whose components are what they were at
  // the last refresh, in systems that saw no departure since, are where
  // they belong: their entries go (flags reset), so a remove cancelled by
  // an add costs one visit here instead of one per system. So do entities
  // killed in this refresh. The order of the rest is kept.
  template <typename World>
  void drop_unchanged(World& world) {
    bool any_left = false;
    world.for_each_subscription(
        [&](const subscription_type& system) {
          any_left |= system.left_since_refresh();
        },
        /*parallel=*/false);
    auto& entities = world.entities();
    std::size_t kept = 0;
    for (const pending_match& change : to_match_) {
      if (!entities.alive(change.id)) continue;
      auto& meta = entities.metadata_at(change.id.index());
      if (!any_left && meta.extra.matched && meta.components == change.before) {
        meta.extra.queued = false;
        continue;
      }
      to_match_[kept++] = change;
    }
    to_match_.shrink_to(kept);
  }

  // The entry of live entity `id` in the match queue, made on its first
  // change. Unchecked (metadata_at): every caller has just checked or
  // created the id, and a second check here was a third of its cost.
  // Always inlined, with its two callers: GCC kept it out of line (it has
  // many call sites), and the call was a third of a remove+add.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void queue_change(EntityStorage& entities,
                                                 entity_id id) {
    auto& meta = entities.metadata_at(id.index());
    if (!meta.extra.queued) {
      meta.extra.queued = true;
      // Fields written in place: a braced temporary was assembled on the
      // stack in pieces and copied with one wide load, a store-forwarding
      // stall that was half of a remove+add's cost.
      pending_match& change = to_match_.append();
      change.id = id;
      change.before = meta.components;
    }
  }

  // Phase 2 needs the components a killed entity had at the last refresh
  // (components_at_last_refresh); for one that changed in this step its
  // queue entry holds them. Where each entry is gets written here, once per
  // refresh with kills, rather than on every change: slots_[i] is the entry
  // of the queued entity with index i.
  void index_match_entries(const EntityStorage& entities) {
    if (to_match_.empty()) return;
    if (slots_.size() < entities.slot_count()) {
      slots_.resize(entities.slot_count());
    }
    for (std::size_t slot = 0; slot < to_match_.size(); ++slot) {
      slots_[to_match_[slot].id.index()] = static_cast<std::uint32_t>(slot);
    }
  }

  // The components `id` had at the last refresh (during phase 2, after
  // index_match_entries).
  const bitset_type& components_at_last_refresh(const EntityStorage& entities,
                                                entity_id id) const {
    const auto& meta = entities.metadata_at(id.index());
    return meta.extra.queued ? to_match_[slots_[id.index()]].before
                             : meta.components;
  }

  // Phase 2 for one (system, killed entity); inlined into the per-system
  // loop over the kills.
  template <typename World>
  ABSL_ATTRIBUTE_ALWAYS_INLINE void leave_if_member(World& world,
                                                    subscription_type& system,
                                                    entity_id id) const {
    const auto& entities = world.entities();
    if (!entities.metadata_at(id.index()).extra.matched ||
        !system.matches(components_at_last_refresh(entities, id))) {
      return;
    }
    system.raw_members().erase(id.index());
    context_internal::notify(world, system, refresh_event::kind::unsubscribe,
                             id);
  }

  // Whether phase 3 must look at `change` for `instance`: the entity is
  // new, or gained or lost a component the system cares about, or the
  // system let entities go since the last refresh (this one may have to
  // come back). Entities killed in this refresh were dropped before.
  // Kept apart from rematch so this test inlines into the loop.
  // `left`: the system's left_since_refresh().
  template <typename World>
  ABSL_ATTRIBUTE_ALWAYS_INLINE static bool concerns(
      World& world, const rule_type& rule, bool left,
      const pending_match& change) {
    const auto& entities = world.entities();
    const auto& meta = entities.metadata_at(change.id.index());
    return !meta.extra.matched ||
           ((change.before ^ meta.components) & rule.interest).any() ||
           left;  // it may have to come back
  }

  // Phase 3 for one (system, changed entity) that concerns() the system.
  // Always inlined: compiled once per context (not per system), so inlining
  // costs no code size, and GCC kept it out of line (measured: a fifth of
  // CreateEntitiesWarm's time went to the call).
  template <typename World>
  ABSL_ATTRIBUTE_ALWAYS_INLINE void rematch(World& world,
                                            subscription_type& system,
                                            const rule_type& rule, bool left,
                                            const pending_match& change) const {
    const auto& meta = world.entities().metadata_at(change.id.index());
    const bool created = !meta.extra.matched;
    const bool was = !created && rule.matches(change.before);
    const bool now = rule.matches(meta.components);
    const std::size_t index = change.id.index();
    // A member that matches still and whose system saw no departure since
    // the last refresh is where it was (a remove cancelled by an add).
    if (was && now && !left) return;
    if (now) {
      system.raw_members().insert(index);  // back after a departure
      if (!was)
        context_internal::notify(world, system, refresh_event::kind::subscribe,
                                 change.id);
    } else {
      system.raw_members().erase(index);
      if (was) {
        context_internal::notify(world, system,
                                 refresh_event::kind::unsubscribe, change.id);
      }
    }
  }

  // Kills usually arrive in index order already (a pass over a system's
  // entities, or over ids created in a row): check before sorting, since
  // introsort costs O(n log n) even on sorted input.
  void sort_kills_by_index() {
    const auto by_index = [](entity_id a, entity_id b) {
      return a.index() < b.index();
    };
    if (!std::is_sorted(to_kill_.begin(), to_kill_.end(), by_index)) {
      std::sort(to_kill_.begin(), to_kill_.end(), by_index);
    }
  }

  std::vector<entity_id> to_kill_;
  context_internal::append_buffer<pending_match> to_match_;
  std::vector<std::uint32_t> slots_;
  bool membership_grew_ = false;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_REFRESH_H_
