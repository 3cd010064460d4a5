// The refresh: how the structural changes of a step take effect.
//
// A step may create and kill entities and add and remove components; the
// refresh, run once after the step's function returns, makes those changes
// visible to systems in three named phases:
//   1. run_deferred (internal/deferred_phase.h): every deferred function of
//   every subtask state, in
//      system id, run within the step, subtask, then deferral order,
//      sequentially, through the defer proxy (where critical operations are
//      allowed, so they may queue more kills and changes). A deferred
//      function that throws does not stop the others: every one runs, the
//      other phases still run, and the first exception is rethrown at the
//      end. (A run of a system that threw left no deferred functions and no
//      kills: they were discarded when it threw.)
//      Then, when the settings declare component hooks, the hooks
//      (context/hooks.h), in rounds, with the same exception rule; with a
//      hierarchy, each round's parent changes and kill cascade are applied
//      before the next round, which tells the entities the cascade killed.
//   2. apply_kills (internal/kill_phase.h): every entity marked dead (by a
//      critical proxy or by a subtask of a run that did not throw) leaves
//      the systems it was in, its components are destroyed and its id
//      reclaimed (the version bumps, so old ids and handles turn stale). In
//      entity-index order, so the result does not depend on how systems
//      were split into subtasks.
//   With a hierarchy declared in the settings (context/hierarchy.h), the
//      queued set_parent / remove_parent requests are applied between
//      phases 1 and 2, and killed entities' children are killed or
//      detached (internal/hierarchy_phase.h).
//   3. apply_matches (internal/match_phase.h): every entity created or
//      whose components changed in the step is matched again, but only
//      against the systems that can care: a created entity against all, a
//      changed one against the systems whose required or excluded
//      components include a component it gained or lost (compile-time
//      interest bits). An entity whose components are what they were at
//      the last refresh (a remove followed by an add of the same component,
//      a replaced component) is dropped in one pass before the per-system
//      passes, and stays where it was, without events. A batch of entities
//      made by one create_entities call is matched once per system, not
//      once per entity and system.
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
// Events. When a subscription really changes, the system's optional hooks
// `on_subscribe(entity_id)` / `on_unsubscribe(entity_id)` run, and the
// world's observer (if any) gets a refresh_event, in the order
// refresh_event.h documents.
//
// Complexity: phase 1 O(deferred functions); phase 2 O(kills * systems
// with members) bit clears (a subscription test first only for systems with
// an on_unsubscribe hook, or with an observer) plus the sort of kills when
// they are out of index order (and O(changes) to find the changed
// entities' entries, when both happen and subscriptions are tested); phase 3
// O(changes * systems) bit tests plus, per batch, O(systems) tests and a
// bit set per entity and matching system; O(1) per real subscription change.
// The queues keep their capacity, so a steady state allocates nothing.
//
// Thread-safety: the refresh runs on the context's thread, after the step's
// function returned, never while systems run (phases 2 and 3 may visit
// systems on several threads, as above).
//
// This header is the refresh's contract; the machinery that implements it,
// which users never name, is the queue a step leaves for the refresh,
// context_internal::refresh_queue (internal/refresh_queue.h), and the
// phases above, each in its own header, which the context core runs in
// order (internal/core.h).
#ifndef STRATA_CONTEXT_REFRESH_H_
#define STRATA_CONTEXT_REFRESH_H_

#include "context/internal/refresh_queue.h"
#include "context/refresh_event.h"

#endif  // STRATA_CONTEXT_REFRESH_H_
