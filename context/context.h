// The context: entities, their components, the systems, and the step/refresh
// cycle that ties them together (seed 003).
//
//   auto ctx = strata::make_context(settings);
//   ctx.step([](auto& proxy) {                   // critical operations here
//     auto e = proxy.create_entity();
//     proxy.add_component(ct::position, e, 0.f, 0.f);
//   });                                          // refresh runs here
//   ctx.step([&](auto& proxy) {
//     proxy.execute_systems()(strata::sea::all().for_subtasks(
//         [dt](auto& system, auto& data) { system.process(dt, data); }));
//   });
//
// Where things live: context/step_proxy.h (the step and defer proxies:
// critical operations), context/data_proxy.h (what a system's subtask sees),
// context/refresh.h (the three refresh phases), context/settings.h,
// context/execution_adapter.h (which callable runs which system),
// context/system_instance.h and context/trace.h. The engine that ties them
// together, context_core, and the system runner are under context/internal/.
//
// step(f): f gets a step proxy, which allows critical operations (create and
// kill entities, add and remove components) and running systems. Systems get
// data proxies, which allow only non-critical work: read and write their
// declared components, read earlier systems' outputs, mark entities dead,
// defer critical work. After f returns, the refresh runs:
//   1. every deferred function, sequentially, through a defer proxy (system
//      id order, then subtask order, then the order they were deferred);
//   2. kills: every entity marked dead in the step (by the proxy or by any
//      subtask) is unsubscribed from every system, its components destroyed,
//      and its id reclaimed (the version bumps, so old ids and handles turn
//      stale). Kills are applied in entity-index order, so the result does
//      not depend on how systems were split into subtasks;
//   3. matching: every entity created or given a component in the step is
//      subscribed to each system whose required components it has.
// Steps 2 and 3 run systems in parallel on the pool when refresh
// parallelism is on.
//
// Timing rules (what a user observes):
//   * a created entity is alive at once but in no system until the refresh;
//   * a killed entity stays alive (and in its systems) until the refresh;
//   * add_component makes the component readable at once; the entity joins
//     new systems at the refresh;
//   * remove_component destroys the component at once and removes the
//     entity at once from every system that needs it, so a system never sees
//     a subscribed entity without its components.
//
// Run-time misuse (documented results, never corruption):
//   * killing a dead or stale id, or removing a component an entity does not
//     have: a no-op returning false;
//   * add/get_component on a dead or stale id, get_component of a missing
//     component, a stale handle passed to kill_entity: a STRATA_CHECK failure
//     naming the problem (use alive()/valid()/has_component() first);
//   * a full fixed entity limit: create_entity() check-fails with the limit
//     in the message; try_create_entity() returns ResourceExhaustedError.
//     Existing entities are untouched either way;
//   * an exception thrown by f or by a system propagates out of step() after
//     the running systems stopped; the refresh still runs first, so all the
//     work requested before the throw (creations, kills, deferred functions)
//     takes effect and the context stays consistent and usable.
//
// Thread-safety: a context is used from one thread at a time; step() runs
// systems on its own thread pool. Proxies must not escape their step.
// Data proxies of different subtasks run concurrently: each touches only
// its own subtask state, and the compile-time race check guarantees that
// concurrently running systems never write the same component.
#ifndef STRATA_CONTEXT_CONTEXT_H_
#define STRATA_CONTEXT_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

#include "context/data_proxy.h"
#include "context/execution_adapter.h"
#include "context/internal/context_types.h"
#include "context/internal/core.h"
#include "context/settings.h"
#include "context/step_proxy.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "entity/entity_id.h"
#include "scheduler/dag.h"
#include "settings/diagnostic.h"
#include "settings/type_list.h"

namespace strata {

// The context a user holds: movable, owns everything on the heap (so proxies
// and system instances keep stable addresses when it moves).
template <typename Settings>
class context {
 public:
  using types = context_types<Settings>;
  using core_type = context_core<types>;

  template <typename... SystemArgs>
  explicit context(const Settings& settings, SystemArgs&&... args)
      : core_(std::make_unique<core_type>(settings,
                                          std::forward<SystemArgs>(args)...)) {}

  context(context&&) noexcept = default;
  context& operator=(context&&) noexcept = default;

  // Runs f(step_proxy&), then the refresh (see the top of this file).
  template <typename F>
  void step(F&& f) {
    core_->step(std::forward<F>(f));
  }

  std::size_t entity_count() const { return core_->entities().size(); }
  bool alive(entity_id id) const { return core_->entities().alive(id); }
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
  std::unique_ptr<core_type> core_;
};

namespace diagnostic {

template <typename Given>
struct not_context_settings {
  static_assert(always_false<Given>,
                "make_context(settings): settings must be built with "
                "strata::settings()...");
};

template <typename Given>
struct not_system_arguments {
  static_assert(always_false<Given>,
                "make_context(settings, extra...): each extra argument must "
                "come from strata::system_arguments(st::x, args...)");
};

}  // namespace diagnostic

// Builds a context; systems that are not default-constructible get their
// constructor arguments from strata::system_arguments(st::x, args...).
template <typename Settings, typename... SystemArgs>
auto make_context(const Settings& settings, SystemArgs&&... system_args) {
  if constexpr (!is_context_settings_v<Settings>) {
    diagnostic::report<diagnostic::not_context_settings<Settings>>();
  } else if constexpr (!(is_system_arguments_v<
                             std::remove_cvref_t<SystemArgs>> &&
                         ...)) {
    diagnostic::report<diagnostic::not_system_arguments<
        type_list<std::remove_cvref_t<SystemArgs>...>>>();
  } else {
    check_components_stored(settings.template get<context_keys::components>(),
                            settings.template get<context_keys::systems>());
    return context<Settings>(settings,
                             std::forward<SystemArgs>(system_args)...);
  }
}

}  // namespace strata

#endif  // STRATA_CONTEXT_CONTEXT_H_
