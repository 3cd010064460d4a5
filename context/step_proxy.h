// The step proxy and the defer proxy: where critical operations happen.
//
//   ctx.step([](auto& proxy) {              // a step_proxy
//     strata::entity_id e = proxy.create_entity();
//     proxy.add_component(ct::position, e, 0.f, 0.f);
//     proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
//         [](auto& system, auto& data) { system.process(data); }));
//   });
//   data.defer([](auto& proxy) { ... });    // a defer_proxy, at the refresh
//
// Critical operations change which entities exist and which components they
// have, so they never run concurrently with systems: the step proxy is used
// by the thread that called step(), between system runs; the defer proxy by
// the refresh, after them. Both offer (critical_proxy):
//   * create_entity() / try_create_entity(): a new entity, alive at once,
//     matched to systems at the refresh. A full fixed limit: see below.
//     create_entities(n, f): n entities at once, f([entity_id,] T&...)
//     filling the components its parameters name (value-initialized first,
//     so they must be default-constructible); the refresh matches them as
//     one batch (once per system, not once per entity and system); returns
//     how many it made;
//   * kill_entity(id or handle) / kill_entities(ids): marks them dead,
//     effective at the refresh; false (per id) if not alive or already
//     marked;
//   * add_component(ct::x, id, args...): constructs the component (replacing
//     one the entity has); the entity joins new systems at the refresh.
//     args may refer to components in the storage (e.g. another entity's
//     get_component(ct::x, other)): the component is built before the
//     storage changes. If its constructor throws, the entity is unchanged
//     (a replaced component is kept); if storing it throws after a
//     replaced one was destroyed, the entity is left without it, as after
//     remove_component;
//     remove_component(ct::x, id): destroys it and takes the entity out of
//     every system that requires it before any of them looks again (added
//     back before that: it never left); false if there was none.
//     add_components / remove_components (ct::x, ids, ...): the same for
//     each id of a range;
//   * queries: get_component / has_component, count(ct::x) (entities with
//     the component, O(1)), for_each(f) / for_each(strata::exclude<T...>, f)
//     over every entity with the components f's parameters name (any access:
//     T& or const T&), alive(id), make_handle(id) / valid(h);
//   * resource<T>(): T&, for every resource the settings declare;
//   * with a hierarchy declared (context/hierarchy.h): set_parent(child,
//     parent) / remove_parent(child), applied at the refresh, and the
//     queries parent_of, children_of, depth_of, root_of (the relation as
//     the last refresh left it);
//   * per system: system(st), instance(st), for_system_outputs(st, f),
//     count_entities_in(st), any_entity_in(st), is_in_system(st, id).
// The step proxy adds execute_systems()(adapters...) (every system) and
// execute_systems_from(st...)(adapters...) (those systems and everything
// that depends on them; see context/execution_adapter.h for adapters).
//
// A full fixed entity limit: in a step, create_entity() check-fails with the
// limit in the message and try_create_entity() returns
// std::nullopt. In a deferred function create_entity() never
// aborts: it returns strata::null_entity and counts the refusal
// (ctx.refused_creations() after the step; an observer set with
// ctx.observe_refresh gets a refused_creations event with the count at the
// end of the refresh), and create_entities(n, f) returns how many it made;
// add_component and add_components on that null id construct into a
// scratch object the refresh discards, and the other operations treat it as
// dead (no-ops returning false; get_component check-fails). Existing
// entities are untouched either way.
//
// Misuse results are documented in context/context.h. Proxies must not
// escape the step (or deferred function) they were given to.
#ifndef STRATA_CONTEXT_STEP_PROXY_H_
#define STRATA_CONTEXT_STEP_PROXY_H_

#include <array>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "context/internal/context_types.h"
#include "context/internal/diagnostics.h"
#include "context/internal/for_each.h"
#include "context/internal/hierarchy_queries.h"
#include "context/internal/proxy_hierarchy_queries.h"
#include "context/internal/query_each.h"
#include "entity/entity_handle.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata {

// strata::exclude<T...>: entities with any of these are skipped by a
// proxy's or a context's for_each.
template <typename... Ts>
struct exclusion {
  using types = type_list<Ts...>;
};
template <typename... Ts>
inline constexpr exclusion<Ts...> exclude{};

template <typename Types>
class critical_proxy
    : public context_internal::hierarchy_query_members<critical_proxy<Types>> {
 public:
  explicit critical_proxy(context_internal::context_core<Types>& core)
      : core_(core) {}

  // A new entity: alive at once, matched to systems at the refresh.
  entity_id create_entity() { return core_.create_entity(); }
  // A new entity, or std::nullopt when a fixed entity limit is full
  // (nothing changed).
  std::optional<entity_id> try_create_entity() {
    return core_.try_create_entity();
  }
  // n new entities; f([entity_id,] T&...) fills their components.
  // Returns n (a full fixed limit check-fails here; see the defer proxy's).
  template <typename F>
  std::size_t create_entities(std::size_t n, F&& f) {
    return create_entities_with(n, f, /*or_null=*/false);
  }

  entity_handle make_handle(entity_id id) {
    return core_.entities().make_handle(id);
  }
  bool alive(entity_id id) const { return core_.entities().alive(id); }
  bool valid(entity_handle handle) const {
    return core_.entities().valid(handle);
  }

  // Marks `id` dead (effective at the refresh). False if it is not alive or
  // already marked through a step or defer proxy (kills requested by systems
  // are gathered at the refresh, so they are not seen here).
  bool kill_entity(entity_id id) { return core_.mark_dead(id); }
  bool kill_entity(entity_handle handle) {
    return core_.mark_dead(core_.entities().id_of(handle));
  }
  // kill_entity for each id; how many were marked.
  template <typename Ids>
  std::size_t kill_entities(const Ids& ids) {
    std::size_t marked = 0;
    for (entity_id id : ids) marked += core_.mark_dead(id);
    return marked;
  }

  // Constructs the component from args (replacing an existing one).
  // add/remove are always inlined, down to the core: with several call
  // sites in a unit GCC left one layer or another as a call, which slowed
  // a remove+add loop (BM_RemoveAddComponent).
  template <tag_value Tag, typename... Args>
  ABSL_ATTRIBUTE_ALWAYS_INLINE tag_type<Tag>& add_component(Tag, entity_id id,
                                                            Args&&... args) {
    return core_.template add_component<tag_type<Tag>>(
        id, std::forward<Args>(args)...);
  }
  // add_component for each id, with the same arguments (copied).
  template <tag_value Tag, typename Ids, typename... Args>
  void add_components(Tag tag, const Ids& ids, const Args&... args) {
    for (entity_id id : ids) add_component(tag, id, args...);
  }
  // Destroys the component; false if the entity is dead or lacks it.
  template <tag_value Tag>
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool remove_component(Tag, entity_id id) {
    return core_.template remove_component<tag_type<Tag>>(id);
  }
  // remove_component for each id; how many had it.
  template <tag_value Tag, typename Ids>
  std::size_t remove_components(Tag tag, const Ids& ids) {
    std::size_t removed = 0;
    for (entity_id id : ids) removed += remove_component(tag, id);
    return removed;
  }
  template <tag_value Tag>
  tag_type<Tag>& get_component(Tag, entity_id id) {
    return core_.template get_component<tag_type<Tag>>(id);
  }
  template <tag_value Tag>
  bool has_component(Tag, entity_id id) const {
    return core_.template has_component<tag_type<Tag>>(id);
  }
  // Entities with the component: O(1).
  template <tag_value Tag>
  std::size_t count(Tag) const {
    return core_.components().template count<tag_type<Tag>>();
  }

  // f([entity_id,] T&... / const T&...) for every entity with the components
  // f's parameters name, in index order.
  template <typename F>
  void for_each(F&& f) {
    for_each(exclude<>, f);
  }
  template <typename... Excluded, typename F>
  void for_each(exclusion<Excluded...>, F&& f) {
    context_internal::query_each<Types, /*ReadOnly=*/false>(
        core_, exclusion<Excluded...>{}, f);
  }

  template <typename T>
  T& resource() {
    return core_.template resource<T>();
  }

  template <tag_value Tag>
  auto& system(Tag) {
    return core_.template instance<Types::template system_id<tag_type<Tag>>()>()
        .system();
  }
  template <tag_value Tag>
  auto& instance(Tag) {
    return core_
        .template instance<Types::template system_id<tag_type<Tag>>()>();
  }
  // f(system&, output&) for each subtask output of the system's latest run.
  template <tag_value Tag, typename F>
  void for_system_outputs(Tag t, F&& f) {
    instance(t).for_outputs(std::forward<F>(f));
  }
  template <tag_value Tag>
  std::size_t count_entities_in(Tag t) {
    return instance(t).subscribed_count();
  }
  template <tag_value Tag>
  bool any_entity_in(Tag t) {
    return instance(t).subscribed_count() > 0;
  }
  template <tag_value Tag>
  bool is_in_system(Tag t, entity_id id) {
    return instance(t).subscribed().contains(id);
  }
  std::size_t entity_count() const { return core_.entities().size(); }

  // The hierarchy (context/hierarchy.h): requests applied at the refresh;
  // the queries (parent_of, children_of, depth_of, root_of) of the
  // relation as the last refresh left it come from the base.
  void set_parent(entity_id child, entity_id parent) {
    context_internal::request_parent<hierarchy_operation::set_parent>(
        core_, child, parent);
  }
  void remove_parent(entity_id child) {
    context_internal::request_parent<hierarchy_operation::remove_parent>(
        core_, child, null_entity);
  }

 protected:
  template <typename F>
  std::size_t create_entities_with(std::size_t n, F& f, bool or_null);

  context_internal::context_core<Types>& core_;

 private:
  friend class context_internal::hierarchy_query_members<critical_proxy>;
};

template <typename Types>
class defer_proxy : public critical_proxy<Types> {
 public:
  using critical_proxy<Types>::critical_proxy;

  // Never aborts: null (and counted) when a full fixed limit refuses.
  entity_id create_entity() { return this->core_.create_entity_or_null(); }
  // How many it made: fewer than n when a full fixed limit refused the
  // rest (counted; nothing else changes).
  template <typename F>
  std::size_t create_entities(std::size_t n, F&& f) {
    return this->create_entities_with(n, f, /*or_null=*/true);
  }
  // On the null id of a refused creation: a discarded scratch component.
  template <tag_value Tag, typename... Args>
  tag_type<Tag>& add_component(Tag, entity_id id, Args&&... args) {
    return this->core_.template add_component_or_discard<tag_type<Tag>>(
        id, std::forward<Args>(args)...);
  }
  // add_component for each id (a null id's component discarded, as above).
  template <tag_value Tag, typename Ids, typename... Args>
  void add_components(Tag tag, const Ids& ids, const Args&... args) {
    for (entity_id id : ids) add_component(tag, id, args...);
  }
};

template <typename Types>
class step_proxy : public critical_proxy<Types> {
 public:
  using critical_proxy<Types>::critical_proxy;

  // Runs every system: execute_systems()(adapters...).
  auto execute_systems() {
    using runner = context_internal::system_runner<Types>;
    return typename runner::template call<
        context_internal::every_system<Types::system_count>>(this->core_);
  }
  // Runs the given systems and every system that depends on them
  // (transitively). Their other dependencies are treated as satisfied: the
  // caller chose where the chain starts.
  template <tag_value... Tags>
  auto execute_systems_from(Tags...) {
    static constexpr auto starts =
        Types::system_list::as_flags(std::array<std::size_t, sizeof...(Tags)>{
            Types::template system_id<tag_type<Tags>>()...});
    [[maybe_unused]] static constexpr auto selected =
        Types::system_list::chain(starts);
    using runner = context_internal::system_runner<Types>;
    return typename runner::template call<selected>(this->core_);
  }
};

template <typename Types>
template <typename F>
std::size_t critical_proxy<Types>::create_entities_with(std::size_t n, F& f,
                                                        bool or_null) {
  using signature = context_internal::for_each_signature<F>;
  if constexpr (!signature::known) {
    diagnostic::report(
        diagnostic::for_each_needs_typed_parameters<std::decay_t<F>>);
    return 0;
  } else {
    return [&]<typename... P>(type_list<P...>) {
      static_assert(((std::is_lvalue_reference_v<P> &&
                      !std::is_const_v<std::remove_reference_t<P>>)&&...),
                    "create_entities(n, f): f takes an optional leading "
                    "strata::entity_id, then the components to give each "
                    "entity as T& (value-initialized, then filled by f)");
      static_assert(
          (std::is_default_constructible_v<std::remove_cvref_t<P>> && ...),
          "create_entities(n, f): the components f names must be "
          "default-constructible; create such entities one at a time with "
          "add_component(ct::x, e, args...)");
      auto fill = [&f](entity_id id, std::remove_cvref_t<P>&... components) {
        if constexpr (signature::takes_id) {
          f(id, components...);
        } else {
          f(components...);
        }
      };
      return core_.template create_batch<std::remove_cvref_t<P>...>(n, or_null,
                                                                    fill);
    }(typename signature::component_parameters{});
  }
}

}  // namespace strata

#endif  // STRATA_CONTEXT_STEP_PROXY_H_
