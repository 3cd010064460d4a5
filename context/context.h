// The context: entities, their components, the systems, and the step/refresh
// cycle that ties them together.
//
//   auto ctx = strata::make_context<settings>();  // settings: a constant
//   ctx.step([](auto& proxy) {                   // critical operations here
//     auto e = proxy.create_entity();
//     proxy.add_component(ct::position, e, 0.f, 0.f);
//   });                                          // refresh runs here
//   ctx.step([&](auto& proxy) {
//     proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
//         [dt](auto& system, auto& data) { system.process(dt, data); }));
//   });
//
// make_context (context/make_context.h) builds a context from settings
// (context/settings.h), optionally with run options (context/run_options.h),
// system constructor arguments or an engine's job system
// (context/context_arguments.h).
//
// Where things live: context/step_proxy.h (the step and defer proxies:
// critical operations and queries), context/data_proxy.h (what a system's
// subtask sees), context/refresh.h (the three refresh phases and their
// events), context/settings.h, context/resources.h, context/execution_adapter.h
// (which callable runs which system), context/system_instance.h,
// context/deferred_queue.h and context/trace.h. The engine that ties them
// together, context_core, and the system runner are under context/internal/.
//
// step(f): f gets a step proxy, which allows critical operations (create and
// kill entities, add and remove components) and running systems. Systems get
// data proxies, which allow only non-critical work: read and write their
// declared components and resources, read earlier systems' outputs, mark
// entities dead, defer critical work. After f returns, the refresh runs
// (context/refresh.h):
//   1. every deferred function, sequentially, through a defer proxy (system
//      id order, then run within the step, then subtask order, then the
//      order they were deferred: the same at every thread count, also when
//      a system runs more than once in a step). One that throws does not
//      stop the others (see exceptions below);
//   2. kills: every entity marked dead in the step (by the proxy or by any
//      subtask) leaves its systems, its components are destroyed, and its id
//      reclaimed (the version bumps, so old ids and handles turn stale).
//      Kills are applied in entity-index order, so the result does not
//      depend on how systems were split into subtasks;
//   3. matching: every entity created, or given or stripped of a component,
//      in the step is matched again against the systems that care about
//      what changed.
// Steps 2 and 3 run systems in parallel on the pool when refresh
// parallelism is on (and nobody observes refresh events).
//
// Timing rules (what a user observes):
//   * a created entity is alive at once but in no system until the refresh;
//   * a killed entity stays alive (and in its systems) until the refresh;
//   * add_component makes the component readable at once; the entity joins
//     new systems (and leaves those that exclude the component) at the
//     refresh;
//   * remove_component destroys the component at once and takes the entity
//     out of every system that requires it before any of them looks again
//     (a run, or a query such as is_in_system), so a system never sees a
//     subscribed entity without its required components. If the component
//     is added back before such a look, the entity never left; if after, it
//     is back at the refresh. Either way: no unsubscribe/subscribe events;
//   * refresh events (per system: the system's on_subscribe(entity_id) /
//     on_unsubscribe(entity_id) members; context-wide: observe_refresh) fire
//     during the refresh, only when a subscription really changes, in the order
//     context/refresh.h gives; the context-wide observer also sees reclaims.
//
// Ids: ids that a system's iteration hands out (data.for_each,
// data.for_entities) are valid by construction and unchecked in optimized
// builds. Any other id may be stale: ask data.try_read / data.alive (and, in
// a step, alive / has_component); data.get and data.write refuse dead and
// reused slots with a check failure in every build (context/data_proxy.h).
//
// Races: systems the scheduler runs at once never write what another uses
// (the compile-time race check, scheduler/dag.h). Within a system that may
// split (inner parallelism allowed, .parallelism(...) not none()), the
// subtasks write only the entity they visit: random access to a component
// the system writes, and data.resource<T>() of a resource it writes, are
// compile errors with Strata's message, and the subtasks receive the system
// object as const (the split rule, context/data_proxy.h).
//
// Run-time misuse (documented results, never corruption):
//   * killing a dead or stale id, or removing a component an entity does not
//     have: a no-op returning false;
//   * add/get_component on a dead or stale id, get_component of a missing
//     component, a stale handle passed to kill_entity: a STRATA_CHECK failure
//     naming the problem (use alive()/valid()/has_component() first);
//   * a full fixed entity limit: in a step, create_entity() check-fails with
//     the limit in the message and try_create_entity() returns
//     std::nullopt; in a deferred function create_entity() returns
//     null_entity instead and the refusal is counted (refused_creations()),
//     never aborting the refresh (context/step_proxy.h). Existing entities
//     are untouched either way;
//   * an exception thrown by a system: every selected system that does not
//     depend, directly or transitively, on a throwing system still runs to
//     completion; none of a throwing system's dependents runs; all the
//     subtasks of a throwing system run, and a data.for_each or
//     data.for_entities whose callable throws still visits every entity of
//     its slice, then rethrows the first exception; the throwing run's
//     kills, deferred functions and outputs are discarded (its component
//     writes stay; another run of the system in the same step keeps its own
//     work); the refresh applies the work of exactly the runs that
//     completed; step() then rethrows the exception of the lowest system id
//     (of its lowest subtask, of the lowest entity of a for_each or
//     for_entities). When the exceptions come from for_each or for_entities
//     callables, the exception and the state after the step are the same
//     under every scheduler and thread count. Code of a subtask outside
//     them that throws stops that subtask there, so what the rest of its
//     slice would have done depends on the split. An exception thrown
//     by f itself stops f; either way the refresh still runs first, so the
//     work requested before the throw takes effect and the context stays
//     consistent and usable;
//   * an exception thrown by a deferred function: the other deferred
//     functions still run, then kills and matching; step() rethrows the
//     first deferred function's exception, unless f or a system threw,
//     whose exception wins;
//   * a component constructor that throws in add_component leaves the
//     entity as it was (a replaced component is kept); the arguments may
//     refer to components of the same storage (context/step_proxy.h).
//
// Thread-safety: a context is used from one thread at a time; step() runs
// systems on its own thread pool, or on an engine's job system given as
// make_context(settings, strata::run_on(executor)) (threading/executor.h).
// Proxies must not escape their step. Data proxies of different subtasks run
// concurrently: each touches only its own subtask state, and the compile-time
// race check guarantees that concurrently running systems never write the same
// component or resource.
#ifndef STRATA_CONTEXT_CONTEXT_H_
#define STRATA_CONTEXT_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <iosfwd>
#include <type_traits>
#include <utility>

// First, so that when a rule of a system's code fires, the compiler names
// the header in few lines (meta/diagnostic.h).
#include "context/internal/diagnostics.h"
#include "context/internal/effect_channel.h"  // its rules, for the same reason
// The rest.
#include "base/internal/owned_ptr.h"
#include "context/data_proxy.h"
#include "context/effect_channel.h"
#include "context/execution_adapter.h"
#include "context/internal/context_types.h"
#include "context/internal/core.h"
#include "context/internal/query_each.h"
#include "context/internal/world_common.h"
#include "context/refresh.h"
#include "context/resources.h"
#include "context/run_options.h"
#include "context/settings.h"
#include "context/snapshot.h"
#include "context/step_proxy.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata {

namespace context_internal {

// The part of a context keyed by its types rather than its settings: the
// engine and the step. A misuse in a step function or in a system is
// reported under a note for every frame between the step and the mistake,
// and a member of a class template prints the class's arguments: the types'
// key is short (internal/context_types.h) where settings passed by value
// spell every signature.
template <typename Types>
class context_base {
 public:
  // Runs f(step_proxy&), then the refresh (see the top of this file).
  template <typename F>
  void step(F&& f) {
    core_->begin_step();
    step_proxy<Types> proxy(*core_);
    std::exception_ptr failure;
    try {
      f(proxy);
    } catch (...) {
      failure = std::current_exception();
    }
    core_->end_step(failure);
  }

 protected:
  explicit context_base(base_internal::owned_ptr<context_core<Types>> core)
      : core_(std::move(core)) {}

  base_internal::owned_ptr<context_core<Types>> core_;
};

}  // namespace context_internal

// The context a user holds: movable, owns everything on the heap (so proxies
// and system instances keep stable addresses when it moves).
template <typename Settings>
class context : public context_internal::context_base<
                    context_internal::context_types_for<Settings>> {
  // Internal: the program's types and the engine (internal/core.h).
  using types = context_internal::context_types_for<Settings>;
  using core_type = context_internal::context_core<types>;
  using base = context_internal::context_base<types>;
  using base::core_;

 public:
  template <typename... SystemArgs>
  explicit context(const Settings& settings, SystemArgs&&... args)
      : base(base_internal::make_owned<core_type>(
            settings, std::forward<SystemArgs>(args)...)) {}

  context(context&&) noexcept = default;
  context& operator=(context&&) noexcept = default;

  // Runs f(step_proxy&), then the refresh (see the top of this file).
  using base::step;

  std::size_t entity_count() const { return core_->entities().size(); }
  bool alive(entity_id id) const { return core_->entities().alive(id); }

  // Read-only queries between steps (tools, tests, inspection).
  template <tag_value Tag>
  bool has(Tag, entity_id id) const {
    return core_->template has_component<tag_type<Tag>>(id);
  }
  // Check-fails unless the entity is alive and has the component.
  template <tag_value Tag>
  const tag_type<Tag>& get(Tag, entity_id id) const {
    return core_->template get_component<tag_type<Tag>>(id);
  }
  // Entities with the component: O(1).
  template <tag_value Tag>
  std::size_t count(Tag) const {
    return core_->components().template count<tag_type<Tag>>();
  }
  // f([entity_id,] const T&...) for every entity with those components (and
  // none of exclude<...>'s), in index order.
  template <typename F>
  void for_each(F&& f) const {
    for_each(exclude<>, f);
  }
  template <typename... Excluded, typename F>
  void for_each(exclusion<Excluded...>, F&& f) const {
    context_internal::query_each<types, /*ReadOnly=*/true>(
        *core_, exclusion<Excluded...>{}, f);
  }

  // The hierarchy between steps (context/hierarchy.h; with one declared in
  // the settings).
  entity_id parent_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::parent_of>(
               *core_)
        .parent_of(id);
  }
  auto children_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::children_of>(
               *core_)
        .children_of(id);
  }
  std::size_t depth_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::depth_of>(
               *core_)
        .depth_of(id);
  }
  entity_id root_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::root_of>(
               *core_)
        .root_of(id);
  }
  // set_parent / remove_parent requests the latest refresh refused.
  std::size_t refused_parent_changes() const {
    return context_internal::refused_parent_changes_of<
        hierarchy_operation::refused_parent_changes>(*core_);
  }

  // Snapshots and the state hash, between steps (context/snapshot.h,
  // context/state_hash.h).
  using snapshot_type = world_snapshot<types>;
  // A copy of the world.
  snapshot_type snapshot() const {
    snapshot_type saved;
    snapshot_into(saved);
    return saved;
  }
  // The same into `saved`, reusing its memory.
  void snapshot_into(snapshot_type& saved) const { saved.capture(*core_); }
  // Makes the world what it was when `saved` was taken.
  void restore(const snapshot_type& saved) { saved.restore_into(*core_); }
  // A 64-bit fingerprint of the world, equal for equal worlds (needs
  // #include "context/state_hash.h").
  template <typename Types = types>
  std::uint64_t state_hash() const {
    if constexpr (!requires { sizeof(context_internal::world_hash<Types>); }) {
      diagnostic::report(diagnostic::state_hash_header_missing<Types>);
      return 0;
    } else {
      return context_internal::world_hash<Types>::of(std::as_const(*core_));
    }
  }

  // Writes the world to `out`; reads one from `in`, replacing this one only
  // if all of it is valid (needs #include "context/save_load.h", which
  // documents the format and the errors).
  template <typename Types = types>
  auto save(std::ostream& out) const {
    if constexpr (!requires { sizeof(context_internal::world_io<Types>); }) {
      diagnostic::report(diagnostic::save_load_header_missing<Types>);
    } else {
      report_unserializable<Types>();
      return context_internal::world_io<Types>::save(std::as_const(*core_),
                                                     out);
    }
  }
  template <typename Types = types>
  auto load(std::istream& in) {
    if constexpr (!requires { sizeof(context_internal::world_io<Types>); }) {
      diagnostic::report(diagnostic::save_load_header_missing<Types>);
    } else {
      report_unserializable<Types>();
      return context_internal::world_io<Types>::load(*core_, in);
    }
  }

  // A resource the settings declare, e.g. to set it up before the first
  // step.
  template <typename T>
  T& resource() {
    return core_->template resource<T>();
  }

  // f(refresh_event) for every subscribe, unsubscribe and reclaim from now
  // on, in the order context/refresh_event.h documents (an empty f stops it).
  // While observed, the refresh visits systems on the calling thread.
  void observe_refresh(refresh_observer f) {
    core_->set_observer(std::move(f));
  }

  // Entities that deferred functions of the latest step asked for and a full
  // fixed limit refused (create_entity() returned null_entity there).
  std::size_t refused_creations() const { return core_->refused_creations(); }
  // Messages of the effect channel that systems sent in the latest step to
  // ids that were not alive (dead, stale or null): dropped, and counted here
  // (context/effect_channel.h).
  std::size_t dropped_messages() const { return core_->dropped_messages(); }
  // Threads that run systems (the caller included).
  std::size_t thread_count() const { return core_->thread_count(); }
  // Steps run so far.
  std::uint64_t step_count() const { return core_->step_count(); }

  // The recorded trace (settings().trace() only).
  trace_log& trace() {
    static_assert(types::trace_enabled,
                  "ctx.trace(): tracing is off; add .trace() to the settings");
    return core_->trace();
  }
  // Chrome trace JSON of everything recorded so far.
  void write_trace_json(std::ostream& out) {
    trace().write_chrome_json(out, core_->main_thread());
  }

 private:
  template <typename Types>
  static constexpr void report_unserializable() {
    using unserializable =
        typename context_internal::world_io<Types>::unserializable;
    if constexpr (!std::is_same_v<unserializable, type_list<>>) {
      diagnostic::report(diagnostic::save_of_unserializable_type<
                         type_at_t<0, unserializable>>);
    }
  }
};

}  // namespace strata

// The factory, after the class it builds (context/make_context.h includes
// this header first, so either header may be included first).
#include "context/make_context.h"  // IWYU pragma: export

#endif  // STRATA_CONTEXT_CONTEXT_H_
