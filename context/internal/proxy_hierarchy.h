// Internal to //context: the data proxy's hierarchy members
// (context/hierarchy.h; context/data_proxy.h states the contract): the
// deferred requests set_parent / remove_parent, the queries shared with the
// critical proxies (internal/proxy_hierarchy_queries.h), and parent(ct::x,
// e) and for_each_with_parent(ct::x, f) in a system declared
// .in_hierarchy_order().
#ifndef STRATA_CONTEXT_INTERNAL_PROXY_HIERARCHY_H_
#define STRATA_CONTEXT_INTERNAL_PROXY_HIERARCHY_H_

#include <cstddef>

#include "base/check.h"
#include "context/internal/diagnostics.h"
#include "context/internal/for_each.h"
#include "context/internal/hierarchy_for_each.h"
#include "context/internal/hierarchy_queries.h"
#include "context/internal/hierarchy_storage.h"
#include "context/internal/proxy_hierarchy_queries.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata::context_internal {

// set_parent / remove_parent / parent of data_proxy (Proxy), which
// befriends it.
template <typename Proxy>
class proxy_hierarchy : public hierarchy_query_members<Proxy> {
 public:
  // Deferred: queued when the refresh runs this subtask's deferred
  // functions, in their order among them.
  void set_parent(entity_id child, entity_id parent) {
    if constexpr (!Proxy::types_type::has_hierarchy) {
      diagnostic::report(
          diagnostic::hierarchy_not_declared<hierarchy_operation::set_parent,
                                             typename Proxy::system_type>);
    } else {
      self().defer(
          [child, parent](auto& proxy) { proxy.set_parent(child, parent); });
    }
  }
  void remove_parent(entity_id child) {
    if constexpr (!Proxy::types_type::has_hierarchy) {
      diagnostic::report(
          diagnostic::hierarchy_not_declared<hierarchy_operation::remove_parent,
                                             typename Proxy::system_type>);
    } else {
      self().defer([child](auto& proxy) { proxy.remove_parent(child); });
    }
  }

  // In a system declared .in_hierarchy_order(): f([entity_id,] const T*
  // parent, components...), the parent's x handed in (null for a root or a
  // parent without x); otherwise as for_each (internal/hierarchy_for_each.h).
  template <tag_value Tag, typename F>
  void for_each_with_parent(Tag, F&& f) {
    using T = tag_type<Tag>;
    using Types = typename Proxy::types_type;
    using signature_type = typename Proxy::signature_type;
    using check = parent_pass_check<T, signature_type, F>;
    if constexpr (check::problem != parent_pass_problem::none) {
      diagnostic::report(
          diagnostic::parent_pass_misuse<check::problem,
                                         typename Proxy::system_type, T,
                                         typename check::given>);
    } else {
      context_internal::for_each_with_parent<
          T, Types, signature_type,
          Types::settings_type::checked_access_enabled>(
          self(), self().core_.components(), f);
    }
  }
  // In a system declared .in_hierarchy_order(): the parent's component of
  // `id`, the entity being visited; null for a root or a parent without it.
  template <tag_value Tag>
  const tag_type<Tag>* parent(Tag, entity_id id) {
    using T = tag_type<Tag>;
    using signature_type = typename Proxy::signature_type;
    using system_type = typename Proxy::system_type;
    if constexpr (!signature_type::visits_in_hierarchy_order) {
      diagnostic::report(
          diagnostic::parent_read_outside_hierarchy_order<system_type, T>);
      return nullptr;
    } else if constexpr (!contains_v<T,
                                     typename signature_type::accessed_types>) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system_type, T>);
      return nullptr;
    } else if constexpr (!Proxy::types_type::has_hierarchy) {
      return nullptr;  // make_context reported it
    } else {
      // All the lookup needs but the entry is read before the check: a
      // load that follows a check which may fail cannot leave the caller's
      // loop, these can (no visit writes them).
      const auto& cursor = self().cursor_;
      const bool every_entity = cursor.every_entity;
      const parent_lookup<T> lookup(self().core_);
      const hierarchy_storage::level_entry visiting = cursor.visiting();
      STRATA_CHECK(id.index() == visiting.index,
                   "data.parent(ct::x, e): e must be the entity being "
                   "visited (its parent's level is the one finished)");
      return lookup(visiting.parent, every_entity);
    }
  }

 private:
  Proxy& self() { return static_cast<Proxy&>(*this); }

  // Component T of the visited entity's parent (index `up`, alive: the
  // hierarchy holds live entities only), or null; by index when T's chunk
  // allows (internal/for_each.h). When every live entity is the system's,
  // a component the system requires needs no test.
  template <typename T>
  struct parent_lookup {
    using Types = typename Proxy::types_type;
    static constexpr std::size_t bit =
        Types::component_list::template id_of<T>();
    static constexpr bool required =
        contains_v<T, typename Proxy::signature_type::required_types>;
    const typename Types::entity_storage_type& entities;
    component_access<T, typename Types::component_storage_type, false> access;

    explicit parent_lookup(auto& core)
        : entities(core.entities()), access(core.components()) {}
    const T* operator()(std::size_t up, bool every_entity) const {
      if (up == hierarchy_storage::none) return nullptr;
      if (!(required && every_entity) &&
          !entities.metadata_at(up).components.test(bit)) {
        return nullptr;
      }
      const T* component = &access(entities, up, entities.live_id_at(up));
      // An object's address: a caller's test of the pointer folds away.
      if (component == nullptr) __builtin_unreachable();
      return component;
    }
  };
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_PROXY_HIERARCHY_H_
