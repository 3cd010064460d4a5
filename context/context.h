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

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <ostream>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/check.h"
#include "base/limit.h"
#include "component_storage/component_storage.h"
#include "component_storage/signature.h"
#include "context/execution_adapter.h"
#include "context/settings.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "entity/entity_handle.h"
#include "entity/entity_id.h"
#include "entity/entity_metadata.h"
#include "entity/entity_storage.h"
#include "scheduler/dag.h"
#include "settings/diagnostic.h"
#include "settings/tag.h"
#include "settings/type_list.h"
#include "settings/type_name.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata {

namespace diagnostic {

template <typename System, typename Component>
struct system_uses_undeclared_component {
  static_assert(always_false<System, Component>,
                "a system reads or writes a component its signature does not "
                "declare; add it to .read(...) or .write(...) of that system "
                "(system and component are named above)");
};

template <typename System>
struct system_has_no_output {
  static_assert(always_false<System>,
                "data.output(): this system's signature declares no output; "
                "add .output<T>() to it (the system is named above)");
};

template <typename System, typename Other>
struct output_read_without_dependency {
  static_assert(always_false<System, Other>,
                "for_previous_outputs(st, f): a system reads the output of a "
                "system it does not depend on (directly or transitively), so "
                "that output may not exist yet; add the dependency (reader "
                "and producer are named above)");
};

template <typename System>
struct system_not_in_context {
  static_assert(always_false<System>,
                "this system is not in the context's system_signatures(...) "
                "(it is named above)");
};

template <typename Given>
struct not_an_execution_adapter {
  static_assert(always_false<Given>,
                "execute_systems()(...) takes adapters made by sea::all(), "
                "sea::t(...) or sea::matching(...) with .for_subtasks(f) or "
                ".detailed_instance(f)");
};

}  // namespace diagnostic

// Per-entity flags the refresh keeps in entity metadata (reset on reclaim).
struct entity_refresh_flags {
  bool pending_kill = false;
  bool pending_match = false;
  friend constexpr bool operator==(entity_refresh_flags,
                                   entity_refresh_flags) = default;
};

template <typename Types>
class context_core;
template <typename Types>
class defer_proxy;
template <typename Types>
class step_proxy;
template <typename Types, std::size_t I>
class data_proxy;

namespace context_internal {

// Accepts any assignment; stands in after a reported misuse.
struct assignment_sink {
  template <typename T>
  assignment_sink& operator=(T&&) {
    return *this;
  }
};

template <typename Types, typename Indices>
struct instance_tuple;
template <typename Types, std::size_t... I>
struct instance_tuple<Types, std::index_sequence<I...>> {
  using type = std::tuple<std::unique_ptr<system_instance<Types, I>>...>;
};

}  // namespace context_internal

// Every type a context derives from its settings.
template <typename Settings>
struct context_types {
  using settings_type = Settings;
  using component_list = typename Settings::component_list_type;
  using system_list = typename Settings::system_list_type;
  using scheduler_type = typename Settings::scheduler_type;
  static constexpr bool inner_parallelism_allowed =
      Settings::inner_parallelism_allowed;
  static constexpr bool trace_enabled = Settings::trace_enabled;
  static constexpr std::size_t component_count = component_list::count;
  static constexpr std::size_t system_count = system_list::count;
  using bitset_type =
      component_bitset<(component_count > 0 ? component_count : 1)>;
  using metadata_type =
      entity_metadata<(component_count > 0 ? component_count : 1),
                      entity_refresh_flags>;
  using limit_type = typename Settings::entity_limit_type;
  using entity_storage_type =
      basic_entity_storage<limit_type, entity_traits32, metadata_type>;
  using component_storage_type = component_storage<component_list, limit_type>;
  using defer_proxy_type = defer_proxy<context_types>;
  using instances_type = typename context_internal::instance_tuple<
      context_types, std::make_index_sequence<system_count>>::type;

  template <typename System>
  static constexpr std::size_t system_id() {
    if constexpr (!system_list::template has_system<System>) {
      diagnostic::report<diagnostic::system_not_in_context<System>>();
      return 0;
    } else {
      return system_list::template id_of<System>();
    }
  }
};

// What a subtask sees: its slice of the system's entities, the components
// the system declared, its own kill list, deferred functions and output.
template <typename Types, std::size_t I>
class data_proxy {
 public:
  using instance_type = system_instance<Types, I>;
  using system_type = typename instance_type::system_type;
  using signature_type = typename instance_type::signature_type;
  using output_type = typename instance_type::output_type;

  data_proxy(context_core<Types>& core, instance_type& instance,
             typename instance_type::state_type& state, std::size_t subtask)
      : core_(core), instance_(instance), state_(state), subtask_(subtask) {}

  // f(entity_id) for each entity of this subtask's slice.
  template <typename F>
  void for_entities(F&& f) {
    const entity_id* ids = instance_.subscribed().data();
    for (std::size_t i = state_.begin; i < state_.end; ++i) f(ids[i]);
  }
  // f(entity_id) for the system's entities outside this subtask's slice.
  template <typename F>
  void for_other_entities(F&& f) {
    const entity_id* ids = instance_.subscribed().data();
    const std::size_t size = instance_.subscribed().size();
    for (std::size_t i = 0; i < state_.begin; ++i) f(ids[i]);
    for (std::size_t i = state_.end; i < size; ++i) f(ids[i]);
  }
  // f(entity_id) for every entity of the system.
  template <typename F>
  void for_all_entities(F&& f) {
    for (entity_id id : instance_.subscribed()) f(id);
  }
  std::size_t entity_count() const noexcept {
    return state_.end - state_.begin;
  }
  std::size_t all_entity_count() const noexcept {
    return instance_.entity_count();
  }
  std::size_t subtask_index() const noexcept { return subtask_; }
  std::size_t subtask_count() const noexcept {
    return instance_.subtask_count();
  }

  // T& for a component in write(), const T& for one in read(); any other
  // component is a compile error.
  template <tag_value Tag>
  decltype(auto) get(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (contains_v<T, typename signature_type::write_types>) {
      return static_cast<T&>(core_.components_.template get<T>(id));
    } else if constexpr (contains_v<T, typename signature_type::read_types>) {
      return static_cast<const T&>(core_.components_.template get<T>(id));
    } else {
      diagnostic::report<
          diagnostic::system_uses_undeclared_component<system_type, T>>();
      return static_cast<const T&>(*static_cast<const T*>(nullptr));
    }
  }

  // Whether `id` has the component (any stored component may be asked).
  template <tag_value Tag>
  bool has(Tag, entity_id id) const {
    return core_.template has_component<tag_type<Tag>>(id);
  }

  // Marks `id` dead; it is removed at the refresh. Ids that are not alive
  // then are ignored.
  void kill_entity(entity_id id) { state_.to_kill.push_back(id); }

  // Runs f(defer_proxy&) during the refresh, where critical operations are
  // allowed.
  template <typename F>
  void defer(F&& f) {
    state_.deferred.emplace_back(std::forward<F>(f));
  }

  // This subtask's output (reset before the run).
  auto& output() {
    if constexpr (!instance_type::has_output) {
      diagnostic::report<diagnostic::system_has_no_output<system_type>>();
      // Absorbs whatever the caller does next, so the report stays the only
      // error.
      static context_internal::assignment_sink absorb;
      return absorb;
    } else {
      return state_.output;
    }
  }

  // f(system&, output&) for each subtask output of `st`, which must be a
  // (transitive) dependency of this system.
  template <tag_value Tag, typename F>
  void for_previous_outputs(Tag, F&& f) {
    using other = tag_type<Tag>;
    constexpr std::size_t other_id = Types::template system_id<other>();
    if constexpr (!Types::system_list::runs_before(other_id, I)) {
      diagnostic::report<
          diagnostic::output_read_without_dependency<system_type, other>>();
    } else {
      core_.template instance<other_id>().for_outputs(std::forward<F>(f));
    }
  }

 private:
  context_core<Types>& core_;
  instance_type& instance_;
  typename instance_type::state_type& state_;
  std::size_t subtask_;
};

// Runs a system's subtasks (given to detailed_instance callables).
template <typename Types, std::size_t I>
class subtask_executor {
 public:
  subtask_executor(context_core<Types>& core,
                   system_instance<Types, I>& instance, bool parallel)
      : core_(core), instance_(instance), parallel_(parallel) {}

  // f(system&, data_proxy&) once per subtask; concurrently when the context
  // runs subtasks in parallel.
  template <typename F>
  void for_subtasks(F&& f) {
    auto run = [&](std::size_t subtask) {
      auto& state = instance_.state(subtask);
      data_proxy<Types, I> data(core_, instance_, state, subtask);
      if constexpr (Types::trace_enabled) state.span.begin();
      f(instance_.system(), data);
      if constexpr (Types::trace_enabled) state.span.end();
    };
    const std::size_t count = instance_.subtask_count();
    if (parallel_ && count > 1) {
      parallel_for(core_.pool(), count, run);
    } else {
      for (std::size_t i = 0; i < count; ++i) run(i);
    }
  }

 private:
  context_core<Types>& core_;
  system_instance<Types, I>& instance_;
  bool parallel_;
};

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

template <typename Types>
class context_core {
 public:
  using entity_storage_type = typename Types::entity_storage_type;
  using component_storage_type = typename Types::component_storage_type;
  using component_list = typename Types::component_list;
  using system_list = typename Types::system_list;
  static constexpr std::size_t system_count = Types::system_count;

  template <typename... SystemArgs>
  context_core(const typename Types::settings_type& settings,
               SystemArgs&&... args)
      : entities_ptr_(make_entities(settings)),
        components_(initial_capacity(settings)),
        thread_count_(thread_count_of(settings)),
        refresh_parallel_(
            settings.template get<context_keys::refresh_parallelism>()),
        pool_(thread_count_ - 1) {
    const auto& systems = settings.template get<context_keys::systems>();
    auto all_args = std::forward_as_tuple(args...);
    construct_instances(systems, all_args,
                        std::make_index_sequence<system_count>{});
  }

  template <std::size_t I>
  system_instance<Types, I>& instance() {
    return *std::get<I>(instances_);
  }
  thread_pool& pool() { return pool_; }
  std::size_t thread_count() const { return thread_count_; }

  template <typename F>
  void step(F&& f) {
    if constexpr (Types::trace_enabled)
      main_thread_ = std::this_thread::get_id();
    step_proxy<Types> proxy(*this);
    std::exception_ptr failure;
    try {
      f(proxy);
    } catch (...) {
      failure = std::current_exception();
    }
    if constexpr (Types::trace_enabled) {
      trace_span span;
      span.begin();
      refresh();
      span.end();
      trace_.add({trace_event::kind::refresh, "refresh", 0, 0, span.thread,
                  span.start_ns, span.end_ns, step_count_});
    } else {
      refresh();
    }
    ++step_count_;
    if (failure) std::rethrow_exception(failure);
  }

  trace_log& trace() { return trace_; }
  std::thread::id main_thread() const { return main_thread_; }
  std::uint64_t step_count() const { return step_count_; }

  template <auto Selected, typename... Adapters>
  void execute(Adapters&... adapters) {
    if constexpr (!(is_execution_adapter_v<std::remove_cvref_t<Adapters>> &&
                    ...)) {
      diagnostic::report<
          diagnostic::not_an_execution_adapter<type_list<Adapters...>>>();
    } else {
      constexpr bool every_system_has_an_adapter =
          check_adapters<Selected, std::remove_cvref_t<Adapters>...>(
              std::make_index_sequence<system_count>{});
      if constexpr (every_system_has_an_adapter) {
        auto adapter_refs = std::tie(adapters...);
        using refs_type = decltype(adapter_refs);
        static constexpr auto table = make_run_table<Selected, refs_type>(
            std::make_index_sequence<system_count>{});
        Types::scheduler_type::template execute<system_list>(
            Selected, pool_, [this, &adapter_refs](std::size_t id) {
              table[id](*this, adapter_refs);
            });
        if constexpr (Types::trace_enabled) {
          record_trace<Selected>(std::make_index_sequence<system_count>{});
        }
      }
    }
  }

  // Critical operations (through the step and defer proxies).
  entity_id create_entity() {
    const entity_id id = entities().create();
    queue_match(id);
    return id;
  }
  absl::StatusOr<entity_id> try_create_entity() {
    absl::StatusOr<entity_id> id = entities().try_create();
    if (id.ok()) queue_match(*id);
    return id;
  }
  bool mark_dead(entity_id id) {
    if (!entities().alive(id)) return false;
    auto& flags = entities().metadata(id).extra;
    if (flags.pending_kill) return false;
    flags.pending_kill = true;
    to_kill_.push_back(id);
    return true;
  }
  template <typename T, typename... Args>
  T& add_component(entity_id id, Args&&... args) {
    STRATA_CHECK(
        entities().alive(id),
        "add_component: the entity is not alive (killed, or a stale id)");
    T& component = components_.template add<T>(id, entities().bits(id),
                                               std::forward<Args>(args)...);
    queue_match(id);
    return component;
  }
  template <typename T>
  bool remove_component(entity_id id) {
    if (!entities().alive(id)) return false;
    auto& bits = entities().bits(id);
    if (!bits.test(component_list::template id_of<T>())) return false;
    // Leave every system that needs T now, so no system ever sees a
    // subscribed entity without it.
    unsubscribe_requiring<T>(id, std::make_index_sequence<system_count>{});
    components_.template remove<T>(id, bits);
    queue_match(id);
    return true;
  }
  template <typename T>
  T& get_component(entity_id id) {
    STRATA_CHECK(
        has_component<T>(id),
        "get_component: the entity is not alive or lacks this component "
        "(check has_component first)");
    return components_.template get<T>(id);
  }
  template <typename T>
  bool has_component(entity_id id) const {
    constexpr std::size_t bit = component_list::template id_of<T>();
    return entities().alive(id) && entities().bits(id).test(bit);
  }

  entity_storage_type& entities() { return *entities_ptr_; }
  const entity_storage_type& entities() const { return *entities_ptr_; }

 private:
  friend class critical_proxy<Types>;
  template <typename, std::size_t>
  friend class data_proxy;

  static std::size_t initial_capacity(
      const typename Types::settings_type& settings) {
    // Fixed contiguous buffers size themselves; sparse and hash-map chunks
    // hold rare components and grow with them.
    if constexpr (Types::settings_type::entity_limit_type::is_fixed) {
      return 0;
    } else {
      return settings.template get<context_keys::entity_limit>()
          .initial_capacity;
    }
  }
  static std::unique_ptr<entity_storage_type> make_entities(
      const typename Types::settings_type& settings) {
    if constexpr (Types::settings_type::entity_limit_type::is_fixed) {
      return std::make_unique<entity_storage_type>();
    } else {
      return std::make_unique<entity_storage_type>(initial_capacity(settings));
    }
  }
  static std::size_t thread_count_of(
      const typename Types::settings_type& settings) {
    std::size_t n = settings.template get<context_keys::threads>();
    if (n == 0) n = std::max(1u, std::thread::hardware_concurrency());
    return n;
  }

  template <typename Systems, typename ArgsTuple, std::size_t... I>
  void construct_instances(const Systems& systems, ArgsTuple& args,
                           std::index_sequence<I...>) {
    ((std::get<I>(instances_) =
          make_instance<I>(systems.template signature<I>(), args)),
     ...);
  }
  template <std::size_t I, typename Signature, typename ArgsTuple>
  static auto make_instance(const Signature& signature, ArgsTuple& args) {
    using system_type = typename Signature::system_type;
    constexpr std::size_t found =
        []<typename... A>(std::type_identity<std::tuple<A...>>) {
          constexpr bool is_for[] = {
              std::is_same_v<typename std::remove_cvref_t<A>::system_type,
                             system_type>...,
              false};
          for (std::size_t i = 0; i < sizeof...(A); ++i) {
            if (is_for[i]) return i;
          }
          return sizeof...(A);
        }(std::type_identity<ArgsTuple>{});
    if constexpr (found < std::tuple_size_v<ArgsTuple>) {
      return std::apply(
          [&](auto&... a) {
            return std::make_unique<system_instance<Types, I>>(signature, a...);
          },
          std::get<found>(args).arguments);
    } else {
      static_assert(std::is_default_constructible_v<system_type>,
                    "a system type is not default-constructible: pass its "
                    "constructor arguments to make_context with "
                    "strata::system_arguments(st::x, args...)");
      return std::make_unique<system_instance<Types, I>>(signature);
    }
  }

  // Reports the first selected system no adapter matches; true if none.
  template <auto Selected, typename... Adapters, std::size_t... I>
  static constexpr bool check_adapters(std::index_sequence<I...>) {
    return (
        check_adapter<Selected[I], typename system_list::template system_at<I>,
                      Adapters...>() &&
        ...);
  }
  template <bool Selected, typename System, typename... Adapters>
  static constexpr bool check_adapter() {
    if constexpr (Selected && first_matching_adapter<System, Adapters...>() ==
                                  sizeof...(Adapters)) {
      diagnostic::report<diagnostic::no_execution_adapter_for_system<System>>();
      return false;
    } else {
      return true;
    }
  }

  template <auto Selected, typename Refs, std::size_t... I>
  static constexpr auto make_run_table(std::index_sequence<I...>) {
    using fn = void (*)(context_core&, Refs&);
    return std::array<fn, system_count>{run_entry<Selected[I], I, Refs>()...};
  }
  template <bool Selected, std::size_t I, typename Refs>
  static constexpr auto run_entry() {
    using fn = void (*)(context_core&, Refs&);
    if constexpr (Selected) {
      return static_cast<fn>(&context_core::run_system<I, Refs>);
    } else {
      return static_cast<fn>(nullptr);
    }
  }
  template <std::size_t I, typename Refs>
  static void run_system(context_core& core, Refs& adapters) {
    using system_type = typename system_list::template system_at<I>;
    constexpr std::size_t which = []<typename... A>(
                                      std::type_identity<std::tuple<A...>>) {
      return first_matching_adapter<system_type, std::remove_cvref_t<A>...>();
    }(std::type_identity<Refs>{});
    auto& adapter = std::get<which>(adapters);
    auto& instance = core.instance<I>();
    instance.prepare_subtasks(core.thread_count_,
                              Types::inner_parallelism_allowed);
    subtask_executor<Types, I> executor(
        core, instance,
        Types::inner_parallelism_allowed &&
            Types::scheduler_type::runs_subtasks_in_parallel);
    if constexpr (Types::trace_enabled) instance.run_span.begin();
    if constexpr (std::remove_cvref_t<decltype(adapter)>::kind ==
                  sea::adapter_kind::detailed) {
      adapter.callable(instance, executor);
    } else {
      executor.for_subtasks(adapter.callable);
    }
    if constexpr (Types::trace_enabled) instance.run_span.end();
  }

  template <typename System>
  static constexpr std::string_view system_name() {
    if constexpr (requires { std::string_view(System::name); }) {
      return System::name;
    } else {
      return type_name<System>();
    }
  }

  // Appends the spans of the systems that just ran to the trace log.
  template <auto Selected, std::size_t... I>
  void record_trace(std::index_sequence<I...>) {
    (
        [&] {
          if constexpr (Selected[I]) {
            auto& inst = instance<I>();
            using system_type = typename system_list::template system_at<I>;
            constexpr std::string_view name = system_name<system_type>();
            trace_.add({trace_event::kind::system, name, I, 0,
                        inst.run_span.thread, inst.run_span.start_ns,
                        inst.run_span.end_ns, step_count_});
            for (std::size_t s = 0; s < inst.subtask_count(); ++s) {
              const trace_span& span = inst.state(s).span;
              if (span.start_ns < inst.run_span.start_ns)
                continue;  // did not run
              trace_.add({trace_event::kind::subtask, name, I, s, span.thread,
                          span.start_ns, span.end_ns, step_count_});
            }
          }
        }(),
        ...);
  }

  void queue_match(entity_id id) {
    auto& flags = entities().metadata(id).extra;
    if (!flags.pending_match) {
      flags.pending_match = true;
      to_match_.push_back(id);
    }
  }

  template <typename T, std::size_t... I>
  void unsubscribe_requiring(entity_id id, std::index_sequence<I...>) {
    constexpr std::size_t bit = component_list::template id_of<T>();
    (
        [&] {
          if constexpr (system_instance<Types, I>::required_bits.test(bit)) {
            unsubscribe(instance<I>(), id);
          }
        }(),
        ...);
  }

  template <typename Instance>
  static void subscribe(Instance& instance, entity_id id) {
    if (instance.mutable_subscribed().insert(id)) {
      if constexpr (requires { instance.system().on_subscribe(id); }) {
        instance.system().on_subscribe(id);
      }
    }
  }
  template <typename Instance>
  static void unsubscribe(Instance& instance, entity_id id) {
    if (instance.mutable_subscribed().erase(id)) {
      if constexpr (requires { instance.system().on_unsubscribe(id); }) {
        instance.system().on_unsubscribe(id);
      }
    }
  }

  // f(instance) for every system, in parallel on the pool when allowed.
  template <typename F>
  void for_each_instance(F&& f, bool parallel) {
    static constexpr auto table =
        []<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<void (*)(context_core&, F&), system_count>{
          [](context_core& core, F& fn) {
            fn(core.template instance<I>());
          }...};
    }
    (std::make_index_sequence<system_count>{});
    if (parallel && pool_.worker_count() > 0 && system_count > 1) {
      parallel_for(pool_, system_count,
                   [&](std::size_t i) { table[i](*this, f); });
    } else {
      for (std::size_t i = 0; i < system_count; ++i) table[i](*this, f);
    }
  }

  void refresh() {
    std::exception_ptr failure;
    // 1. Deferred functions, in system id, subtask, then deferral order.
    defer_proxy<Types> proxy(*this);
    for_each_instance(
        [&](auto& instance) {
          for (std::size_t s = 0; s < instance.state_count(); ++s) {
            auto& state = instance.state(s);
            for (auto& deferred : state.deferred) {
              if (failure) break;
              try {
                deferred(proxy);
              } catch (...) {
                failure = std::current_exception();
              }
            }
            state.deferred.clear();
          }
        },
        /*parallel=*/false);

    // 2. Kills.
    for_each_instance(
        [&](auto& instance) {
          for (std::size_t s = 0; s < instance.state_count(); ++s) {
            auto& state = instance.state(s);
            for (entity_id id : state.to_kill) mark_dead(id);
            state.to_kill.clear();
          }
        },
        /*parallel=*/false);
    if (!to_kill_.empty()) {
      // Kills usually arrive in index order already (a pass over a system's
      // entities, or over ids created in a row): check before sorting, since
      // introsort costs O(n log n) even on sorted input.
      const auto by_index = [](entity_id a, entity_id b) {
        return a.index() < b.index();
      };
      if (!std::is_sorted(to_kill_.begin(), to_kill_.end(), by_index))
        std::sort(to_kill_.begin(), to_kill_.end(), by_index);
      for_each_instance(
          [&](auto& instance) {
            if (instance.entity_count() == 0) return;
            for (entity_id id : to_kill_) unsubscribe(instance, id);
          },
          refresh_parallel_);
      for (entity_id id : to_kill_) {
        components_.remove_all(id, entities().bits(id));
        entities().reclaim(id);
      }
      to_kill_.clear();
    }

    // 3. Matching.
    if (!to_match_.empty()) {
      for_each_instance(
          [&](auto& instance) {
            using instance_type = std::remove_cvref_t<decltype(instance)>;
            for (entity_id id : to_match_) {
              if (!entities().alive(id)) continue;
              if (entities().bits(id).contains_all(
                      instance_type::required_bits)) {
                subscribe(instance, id);
              } else {
                unsubscribe(instance, id);
              }
            }
          },
          refresh_parallel_);
      for (entity_id id : to_match_) {
        if (entities().alive(id))
          entities().metadata(id).extra.pending_match = false;
      }
      to_match_.clear();
    }
    if (failure) std::rethrow_exception(failure);
  }

 private:
  // On the heap: a fixed-limit storage keeps its arrays inline.
  std::unique_ptr<entity_storage_type> entities_ptr_;
  component_storage_type components_;
  std::size_t thread_count_;
  bool refresh_parallel_;
  thread_pool pool_;
  typename Types::instances_type instances_;
  std::vector<entity_id> to_kill_;
  std::vector<entity_id> to_match_;
  std::uint64_t step_count_ = 0;
  [[no_unique_address]] std::conditional_t<Types::trace_enabled, trace_log,
                                           no_trace_span>
      trace_;
  std::thread::id main_thread_;
};

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
