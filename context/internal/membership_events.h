// Internal to //context: telling a system and the world's observer that an
// entity joined or left the system's subscription (context/refresh.h decides
// when). The system's optional hooks run first, then the observer gets a
// refresh_event; the order of events is refresh_event.h's.
#ifndef STRATA_CONTEXT_INTERNAL_MEMBERSHIP_EVENTS_H_
#define STRATA_CONTEXT_INTERNAL_MEMBERSHIP_EVENTS_H_

#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// Whether the system of an instance (a reference type) has
// on_unsubscribe(entity_id): without it, and without an observer, a kill
// needs no per-system membership test.
template <typename InstanceRef>
inline constexpr bool has_unsubscribe_hook = requires(InstanceRef instance,
                                                      entity_id id) {
  instance.system().on_unsubscribe(id);
};

// `what` (subscribe or unsubscribe) happened to `id` in `instance`'s system.
template <typename World, typename Instance>
void notify(World& world, Instance& instance, refresh_event::kind what,
            entity_id id) {
  if (what == refresh_event::kind::subscribe) {
    if constexpr (requires { instance.system().on_subscribe(id); }) {
      instance.system().on_subscribe(id);
    }
  } else {
    if constexpr (requires { instance.system().on_unsubscribe(id); }) {
      instance.system().on_unsubscribe(id);
    }
  }
  if (const refresh_observer* observer = world.observer()) {
    (*observer)({what, id, Instance::id, world.system_name(Instance::id)});
  }
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_MEMBERSHIP_EVENTS_H_
