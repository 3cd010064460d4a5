// What a refresh reports: one refresh_event per change of a system's
// subscription and per reclaimed entity, given to the observer set with
// ctx.observe_refresh(f) (context.h).
//
//   ctx.observe_refresh([](const strata::refresh_event& e) {
//     if (e.what == strata::refresh_event::kind::subscribe) { ... }
//   });
//
// Order (the refresh's phases are in context/refresh.h): phase 2, for each
// killed entity in index order, an unsubscribe per system it was in (system
// id order), then its reclaim; phase 3, for each changed entity in the
// order it was first changed in the step, its unsubscribes and subscribes in
// system id order. Systems' own hooks (`on_subscribe(entity_id)` /
// `on_unsubscribe(entity_id)`) see the same events; without an observer,
// each system's hooks see its own events in that order (systems may then be
// visited concurrently).
//
// Refused creations: when a full fixed entity limit refused creations in
// the refresh's deferred functions (create_entity() returned null_entity,
// create_entities made fewer than asked), the refresh ends with one event
// of kind refused_creations, `count` saying how many (entity null, no
// system); ctx.refused_creations() says the same after the step.
//
// Hierarchy events (context/hierarchy.h; only in a program whose settings
// declare a hierarchy): refused_parent for a refused set_parent /
// remove_parent (entity: the child, other: the parent or null), then
// killed_with_parent or detached_from_parent for each child a kill touched
// (entity: the child, other: the killed parent), after the deferred
// functions and before phase 2's events, in the order hierarchy.h gives.
//
// `system_name` views a string with static storage duration: the system's
// `static constexpr std::string_view name` if it declares one, else its
// type's name. The observer runs during the refresh, on the thread that
// called step(): while one is set, the refresh visits systems on that
// thread, so the events come in the one order above.
#ifndef STRATA_CONTEXT_REFRESH_EVENT_H_
#define STRATA_CONTEXT_REFRESH_EVENT_H_

#include <cstddef>
#include <string_view>

#include "base/internal/standard_parts.h"
#include "entity/entity_id.h"

namespace strata {

struct refresh_event {
  enum class kind {
    subscribe,
    unsubscribe,
    reclaim,
    refused_creations,
    refused_parent,
    killed_with_parent,
    detached_from_parent
  };
  static constexpr std::size_t no_system = ~std::size_t{0};
  kind what;
  entity_id entity;
  std::size_t system_id = no_system;  // no_system for reclaim and refusals
  std::string_view system_name;       // empty for reclaim and refusals
  std::size_t count = 0;              // refused_creations: how many
  entity_id other = null_entity;      // hierarchy events: the parent
};

// Context-wide observer of refresh events (ctx.observe_refresh(f)).
using refresh_observer = std::function<void(const refresh_event&)>;

}  // namespace strata

#endif  // STRATA_CONTEXT_REFRESH_EVENT_H_
