// What a component hook receives (context/hooks.h has the contract): the
// critical operations of a deferred function's proxy, limited to what the
// hook declares.
//
//   .on_add([](auto& proxy, strata::entity_id e, body& b) {
//     proxy.add_component(ct::collider, e, b.radius);  // .writes(ct::collider)
//     proxy.template resource<physics_world>().insert(e);  // .resources()
//   })
//
// Every change it makes (an entity created, killed, given or stripped of a
// component) is applied by the same refresh and reported to hooks in the
// next round. Used by the refresh's thread only; must not escape the hook.
#ifndef STRATA_CONTEXT_HOOK_PROXY_H_
#define STRATA_CONTEXT_HOOK_PROXY_H_

#include <cstddef>
#include <utility>
#include <vector>

#include "context/hooks.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"

namespace strata {

namespace context_internal {

template <typename Types>
class context_core;

}  // namespace context_internal

template <typename Types, typename Hook>
class hook_proxy {
 public:
  hook_proxy(context_internal::context_core<Types>& core,
             std::vector<entity_id>& touched)
      : core_(core), touched_(touched) {}

  // A new entity, alive at once; null (and counted) at a full fixed limit.
  entity_id create_entity() {
    const entity_id id = core_.create_entity_or_null();
    if (!id.is_null()) touched_.push_back(id);
    return id;
  }
  // Marks `id` dead (reclaimed by this refresh); false if it is not alive
  // or already marked.
  bool kill_entity(entity_id id) {
    if (!core_.mark_dead(id)) return false;
    touched_.push_back(id);
    return true;
  }
  bool alive(entity_id id) const { return core_.entities().alive(id); }

  // Constructs the component (a .writes(...) one), replacing one the entity
  // has; on the null id of a refused creation, a discarded scratch object.
  template <tag_value Tag, typename... Args>
  tag_type<Tag>& add_component(Tag, entity_id id, Args&&... args) {
    using T = tag_type<Tag>;
    if constexpr (!Hook::template reads_component<T>) {
      diagnostic::report(diagnostic::hook_uses_undeclared_component<
                         typename Hook::component_type, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (!Hook::template writes_component<T>) {
      diagnostic::report(
          diagnostic::hook_writes_read_component<typename Hook::component_type,
                                                 T>);
      return diagnostic::after_report<T>();
    } else {
      T& component = core_.template add_component_or_discard<T>(
          id, std::forward<Args>(args)...);
      if (!id.is_null()) touched_.push_back(id);
      return component;
    }
  }
  // Destroys the component (a .writes(...) one); false if the entity is
  // dead or lacks it.
  template <tag_value Tag>
  bool remove_component(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (!Hook::template reads_component<T>) {
      diagnostic::report(diagnostic::hook_uses_undeclared_component<
                         typename Hook::component_type, T>);
      return false;
    } else if constexpr (!Hook::template writes_component<T>) {
      diagnostic::report(
          diagnostic::hook_writes_read_component<typename Hook::component_type,
                                                 T>);
      return false;
    } else {
      if (!core_.template remove_component<T>(id)) return false;
      touched_.push_back(id);
      return true;
    }
  }
  // T& for a .writes(...) component, const T& for a .reads(...) one; the
  // entity must be alive and have it (a STRATA_CHECK failure otherwise).
  template <tag_value Tag>
  decltype(auto) get_component(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (!Hook::template reads_component<T>) {
      diagnostic::report(diagnostic::hook_uses_undeclared_component<
                         typename Hook::component_type, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (Hook::template writes_component<T>) {
      return core_.template get_component<T>(id);
    } else {
      return static_cast<const T&>(core_.template get_component<T>(id));
    }
  }
  template <tag_value Tag>
  bool has_component(Tag, entity_id id) const {
    using T = tag_type<Tag>;
    if constexpr (!Hook::template reads_component<T>) {
      diagnostic::report(diagnostic::hook_uses_undeclared_component<
                         typename Hook::component_type, T>);
      return false;
    } else {
      return core_.template has_component<T>(id);
    }
  }
  // A resource the hook declares in .resources(...).
  template <typename R>
  R& resource() {
    if constexpr (!Hook::template uses_resource<R>) {
      diagnostic::report(diagnostic::hook_uses_undeclared_resource<
                         typename Hook::component_type, R>);
      return diagnostic::after_report<R>();
    } else {
      return core_.template resource<R>();
    }
  }

 private:
  context_internal::context_core<Types>& core_;
  // The entities this hook changed: the next round looks at them.
  std::vector<entity_id>& touched_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_HOOK_PROXY_H_
