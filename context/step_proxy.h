// The step proxy and the defer proxy: where critical operations happen.
//
//   ctx.step([](auto& proxy) {              // a step_proxy
//     strata::entity_id e = proxy.create_entity();
//     proxy.add_component(ct::position, e, 0.f, 0.f);
//     proxy.execute_systems()(strata::sea::all().for_subtasks(
//         [](auto& system, auto& data) { system.process(data); }));
//   });
//   data.defer([](auto& proxy) { ... });    // a defer_proxy, at the refresh
//
// Critical operations change which entities exist and which components they
// have, so they never run concurrently with systems: the step proxy is used
// by the thread that called step(), between system runs; the defer proxy by
// the refresh, after them. Both offer (critical_proxy):
//   * create_entity() / try_create_entity(): a new entity, alive at once,
//     matched to systems at the refresh. At a full fixed limit
//     create_entity() check-fails and try_create_entity() returns
//     ResourceExhaustedError; existing entities are untouched either way.
//   * kill_entity(id or handle): marks it dead, effective at the refresh;
//     false if it is not alive or already marked;
//   * add_component(ct::x, id, args...): constructs the component (replacing
//     one the entity has); the entity joins new systems at the refresh;
//     remove_component(ct::x, id): destroys it and takes the entity out of
//     every system that needs it at once; false if there was none;
//   * get_component / has_component, alive(id), create_handle(id) / valid(h);
//   * per system: system(st), instance(st), for_system_outputs(st, f),
//     count_entities_in(st), any_entity_in(st), is_in_system(st, id).
// The step proxy adds execute_systems()(adapters...) (every system) and
// execute_systems_from(st...)(adapters...) (those systems and everything
// that depends on them; see context/execution_adapter.h for adapters).
//
// Misuse results are documented in context/context.h. Proxies must not
// escape the step (or deferred function) they were given to.
#ifndef STRATA_CONTEXT_STEP_PROXY_H_
#define STRATA_CONTEXT_STEP_PROXY_H_

#include <array>
#include <cstddef>
#include <utility>

#include "absl/status/statusor.h"
#include "context/internal/context_types.h"
#include "entity/entity_handle.h"
#include "entity/entity_id.h"
#include "settings/tag.h"

namespace strata {

// Critical operations: the step proxy and the defer proxy share them.
template <typename Types>
class critical_proxy {
 public:
  explicit critical_proxy(context_core<Types>& core) : core_(core) {}

  // A new entity: alive at once, matched to systems at the refresh.
  entity_id create_entity() { return core_.create_entity(); }
  absl::StatusOr<entity_id> try_create_entity() {
    return core_.try_create_entity();
  }

  entity_handle create_handle(entity_id id) {
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

  // Constructs the component from args (replacing an existing one).
  template <tag_value Tag, typename... Args>
  tag_type<Tag>& add_component(Tag, entity_id id, Args&&... args) {
    return core_.template add_component<tag_type<Tag>>(
        id, std::forward<Args>(args)...);
  }
  // Destroys the component; false if the entity is dead or lacks it.
  template <tag_value Tag>
  bool remove_component(Tag, entity_id id) {
    return core_.template remove_component<tag_type<Tag>>(id);
  }
  template <tag_value Tag>
  tag_type<Tag>& get_component(Tag, entity_id id) {
    return core_.template get_component<tag_type<Tag>>(id);
  }
  template <tag_value Tag>
  bool has_component(Tag, entity_id id) const {
    return core_.template has_component<tag_type<Tag>>(id);
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
    return instance(t).entity_count();
  }
  template <tag_value Tag>
  bool any_entity_in(Tag t) {
    return instance(t).entity_count() > 0;
  }
  template <tag_value Tag>
  bool is_in_system(Tag t, entity_id id) {
    return instance(t).subscribed().contains(id);
  }
  std::size_t entity_count() const { return core_.entities().size(); }

 protected:
  context_core<Types>& core_;
};

template <typename Types>
class defer_proxy : public critical_proxy<Types> {
 public:
  using critical_proxy<Types>::critical_proxy;
};

template <typename Types>
class step_proxy : public critical_proxy<Types> {
 public:
  using critical_proxy<Types>::critical_proxy;

  // Runs every system: execute_systems()(adapters...).
  auto execute_systems() {
    return [this](auto&&... adapters) {
      this->core_.template execute<Types::system_list::chain(all_systems())>(
          adapters...);
    };
  }
  // Runs the given systems and every system that depends on them
  // (transitively). Their other dependencies are treated as satisfied: the
  // caller chose where the chain starts.
  template <tag_value... Tags>
  auto execute_systems_from(Tags...) {
    [[maybe_unused]] static constexpr auto starts =
        Types::system_list::as_flags(std::array<std::size_t, sizeof...(Tags)>{
            Types::template system_id<tag_type<Tags>>()...});
    return [this](auto&&... adapters) {
      this->core_.template execute<Types::system_list::chain(starts)>(
          adapters...);
    };
  }

 private:
  static constexpr std::array<bool, Types::system_count> all_systems() {
    std::array<bool, Types::system_count> all{};
    for (bool& b : all) b = true;
    return all;
  }
};

}  // namespace strata

#endif  // STRATA_CONTEXT_STEP_PROXY_H_
