// Internal to //context: telling a system and the world's observer that an
// entity joined or left the system's subscription (context/refresh.h decides
// when). The system's optional hook runs first, then the observer gets a
// refresh_event; the order of events is refresh_event.h's.
#ifndef STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_EVENTS_H_
#define STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_EVENTS_H_

#include <array>
#include <cstddef>
#include <utility>

#include "context/internal/subscription.h"
#include "context/refresh_event.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// `what` (subscribe or unsubscribe) happened to `id` in the system of
// `subscription` (internal/subscription.h). Its hook, if it has one, is
// reached through the world (run_subscription_hook), which knows the
// system's type; the refresh does not.
template <typename World, typename Subscription>
[[gnu::always_inline]] inline void notify(World& world,
                                          const Subscription& subscription,
                                          refresh_event::kind what,
                                          entity_id id) {
  const bool hooked = what == refresh_event::kind::subscribe
                          ? subscription.hooks().on_subscribe
                          : subscription.hooks().on_unsubscribe;
  if (hooked) world.run_subscription_hook(subscription.system_id(), what, id);
  if (const refresh_observer* observer = world.observer()) {
    (*observer)({what, id, subscription.system_id(),
                 world.system_name(subscription.system_id())});
  }
}

// Whether subscribe events are observed (the world's observer, or a
// system with an on_subscribe hook): then they come in the order entities
// were queued, so a batch creation queues each entity on its own
// (internal/create_batch.h).
template <typename World>
bool observes_subscriptions(const World& world) {
  bool observed = world.observer() != nullptr;
  for (const auto* subscription : world.subscriptions()) {
    observed |= subscription->hooks().on_subscribe;
  }
  return observed;
}

// run_hook_of's entry for system I: null without hooks.
template <typename World, std::size_t I, typename System>
constexpr auto hook_entry() {
  using fn = void (*)(World&, refresh_event::kind, entity_id);
  constexpr subscription_hooks hooks = hooks_of<System>();
  if constexpr (hooks.on_subscribe || hooks.on_unsubscribe) {
    return static_cast<fn>(
        [](World& world, refresh_event::kind what, entity_id id) {
          auto& system = world.template instance<I>().system();
          if (what == refresh_event::kind::subscribe) {
            if constexpr (hooks_of<System>().on_subscribe) {
              system.on_subscribe(id);
            }
          } else {
            if constexpr (hooks_of<System>().on_unsubscribe) {
              system.on_unsubscribe(id);
            }
          }
        });
  } else {
    return static_cast<fn>(nullptr);
  }
}

// The hook of system `system` (of SystemList) for `what`, on the world's
// instance of it (world.template instance<I>().system()). Called only for
// systems that have one (subscription::hooks()): the table holds null for
// the others, so they instantiate nothing here.
template <typename SystemList, typename World>
void run_hook_of(World& world, std::size_t system, refresh_event::kind what,
                 entity_id id) {
  using fn = void (*)(World&, refresh_event::kind, entity_id);
  static constexpr auto table =
      []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<fn, sizeof...(I)>{
        hook_entry<World, I, typename SystemList::template system_at<I>>()...};
  }
  (std::make_index_sequence<SystemList::count>{});
  table[system](world, what, id);
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_EVENTS_H_
