// Internal to //context: the critical operations (create and kill entities,
// add and remove components) as the context core (internal/core.h) does
// them for the step, defer and hook proxies, which forward to these
// (context/step_proxy.h states the user's side).
//
// Contract. Each takes effect on the storages at once and notes the entity
// for the refresh (context/refresh.h), which matches it to systems again
// at the step's end; a kill only queues:
//   * create_entity: alive at once; check-fails at a full fixed limit, where
//     try_create_entity returns std::nullopt and create_entity_or_null (the
//     defer proxy's) returns the null id and counts the refusal for the
//     refresh's observer; add_component_or_discard onto that null id
//     constructs into a scratch slot the refresh discards.
//   * mark_dead: queues a kill; false if `id` is not alive or already queued.
//   * add_component constructs at once (replacing one already there);
//     check-fails on a dead or stale id. A constructor that throws leaves
//     the entity as it was; if storing a replacement fails after the old
//     component was destroyed (component_storage::add), the entity lacks
//     it and departs as after remove_component. Either way the exception
//     propagates.
//   * remove_component destroys at once and notes the entity's departure
//     from every system that requires the component; the core applies
//     them before systems next run (context_core::settle_departures), and
//     an add before then cancels it. False, nothing changed, on a dead id or
//     without the component.
//   * get_component check-fails unless has_component.
// Each is O(1) besides the component's construction or destruction
// (amortized where a dynamic storage grows); create_batch is O(n). Called
// on the context's thread, never while systems run. add and remove are
// always inlined: a user's loop calls them per entity.
//
// A base of context_core (the Core parameter) with no state of its own: it
// works on the core's storages, refresh queue, change stamps and hooks.
#ifndef STRATA_CONTEXT_INTERNAL_CORE_CRITICAL_OPERATIONS_H_
#define STRATA_CONTEXT_INTERNAL_CORE_CRITICAL_OPERATIONS_H_

#include <cstddef>
#include <optional>
#include <utility>

#include "absl/base/attributes.h"
#include "base/check.h"
#include "context/internal/change_stamps.h"
#include "context/internal/create_batch.h"
#include "context/internal/subscription.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

template <typename Core, typename Types>
class core_critical_operations {
  using component_list = typename Types::component_list;

 public:
  entity_id create_entity() {
    Core& core = self();
    const entity_id id = core.entities().create();
    core.refresh_.note_created(core.entities(), id);
    return id;
  }
  std::optional<entity_id> try_create_entity() {
    Core& core = self();
    std::optional<entity_id> id = core.entities().try_create();
    if (id.has_value()) core.refresh_.note_created(core.entities(), *id);
    return id;
  }
  entity_id create_entity_or_null() {
    std::optional<entity_id> id = try_create_entity();
    if (id.has_value()) return *id;
    ++self().refused_creations_;
    return null_entity;
  }
  // create_entities(n, f) (internal/create_batch.h).
  template <typename... Ts, typename Fill>
  std::size_t create_batch(std::size_t n, bool or_null, Fill& fill) {
    return context_internal::create_batch<Ts...>(self(), n, or_null, fill);
  }
  bool mark_dead(entity_id id) {
    Core& core = self();
    return core.refresh_.queue_kill(core.entities(), id);
  }

  template <typename T, typename... Args>
  ABSL_ATTRIBUTE_ALWAYS_INLINE T& add_component(entity_id id, Args&&... args) {
    Core& core = self();
    STRATA_CHECK(
        core.entities().alive(id),
        "add_component: the entity is not alive (killed, or a stale id)");
    core.refresh_.note_change(core.entities(), id);
    auto& bits = core.entities().metadata_at(id.index()).components;
    constexpr std::size_t bit = component_list::template id_of<T>();
    const bool replacing = bits.test(bit);
    if constexpr (change_tracking<Types>::template tracks<T>) {
      core.changes_.template note_add<T>(id.index(), replacing);
    }
    try {
      return core.components_.template add<T>(id, bits,
                                              std::forward<Args>(args)...);
    } catch (...) {
      if (replacing && !bits.test(bit)) {
        depart_systems_requiring<bit>(core, id);
        core.departures_noted_ = true;
      }
      throw;
    }
  }
  template <typename T, typename... Args>
  T& add_component_or_discard(entity_id id, Args&&... args) {
    if (id.is_null()) {
      return self().scratch_.template emplace<T>(
          component_list::template id_of<T>(), std::forward<Args>(args)...);
    }
    return add_component<T>(id, std::forward<Args>(args)...);
  }
  template <typename T>
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool remove_component(entity_id id) {
    Core& core = self();
    constexpr std::size_t bit = component_list::template id_of<T>();
    if (!core.entities().alive(id)) return false;
    auto& bits = core.entities().metadata_at(id.index()).components;
    if (!bits.test(bit)) return false;
    if constexpr (Core::hook_runner_type::template keeps_removed<T>) {
      core.hooks_.keep_removed(id, core.components_.template get<T>(id));
    }
    core.refresh_.note_change(core.entities(), id);
    // Departs before the component goes: none of the systems that need it
    // ever sees a subscribed entity without it.
    depart_systems_requiring<bit>(core, id);
    core.departures_noted_ = true;
    core.components_.template remove<T>(id, bits);
    return true;
  }

  template <typename T>
  T& get_component(entity_id id) {
    STRATA_CHECK(
        has_component<T>(id),
        "get_component: the entity is not alive or lacks this component "
        "(check has_component first)");
    return self().components_.template get<T>(id);
  }
  template <typename T>
  bool has_component(entity_id id) const {
    constexpr std::size_t bit = component_list::template id_of<T>();
    const Core& core = static_cast<const Core&>(*this);
    return core.entities().alive(id) &&
           core.entities().metadata_at(id.index()).components.test(bit);
  }

 private:
  Core& self() { return static_cast<Core&>(*this); }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_CORE_CRITICAL_OPERATIONS_H_
