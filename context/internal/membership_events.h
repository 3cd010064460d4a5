// Internal to //context: telling a system and the world's observer that an
// entity joined or left the system's subscription (context/refresh.h decides
// when). The system's optional hook runs first, then the observer gets a
// refresh_event; the order of events is refresh_event.h's.
#ifndef STRATA_CONTEXT_INTERNAL_MEMBERSHIP_EVENTS_H_
#define STRATA_CONTEXT_INTERNAL_MEMBERSHIP_EVENTS_H_

#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// `what` (subscribe or unsubscribe) happened to `id` in the system of
// `subscription` (internal/subscription.h). Its hook, if it has one, is
// reached through the world (run_membership_hook), which knows the
// system's type; the refresh does not.
template <typename World, typename Subscription>
[[gnu::always_inline]] inline void notify(World& world,
                                          const Subscription& subscription,
                                          refresh_event::kind what,
                                          entity_id id) {
  const bool hooked = what == refresh_event::kind::subscribe
                          ? subscription.hooks().on_subscribe
                          : subscription.hooks().on_unsubscribe;
  if (hooked) world.run_membership_hook(subscription.system_id(), what, id);
  if (const refresh_observer* observer = world.observer()) {
    (*observer)({what, id, subscription.system_id(),
                 world.system_name(subscription.system_id())});
  }
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_MEMBERSHIP_EVENTS_H_
