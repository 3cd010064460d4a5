// The engine behind strata::context: owns the entity and component storage,
// the thread pool, one instance per system and the refresh queue, and runs
// the step/refresh cycle (context/context.h documents the contract).
//
// Reading order: step() (the cycle), then the World interface the refresh
// runs on (entities(), components(), for_each_instance()), then
// construction (internal/core_setup.h). The critical operations the proxies
// forward to (create, kill, add, remove) are a base of the core, with their
// contract: internal/core_critical_operations.h.
//
// Internal: users hold a strata::context, which owns a context_core on the
// heap so proxies and instances keep stable addresses when it moves.
#ifndef STRATA_CONTEXT_INTERNAL_CORE_H_
#define STRATA_CONTEXT_INTERNAL_CORE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "base/internal/flat_tuple.h"
#include "base/internal/owned_ptr.h"
#include "context/internal/adaptive_run_policy.h"
#include "context/internal/change_stamps.h"
#include "context/internal/context_types.h"
#include "context/internal/core_critical_operations.h"
#include "context/internal/core_setup.h"
#include "context/internal/deferred_phase.h"
#include "context/internal/effect_channel.h"
#include "context/internal/hierarchy_phase.h"
#include "context/internal/hook_phase.h"
#include "context/internal/kill_phase.h"
#include "context/internal/match_phase.h"
#include "context/internal/refresh_queue.h"
#include "context/internal/run_policy.h"
#include "context/internal/subscription.h"
#include "context/internal/system_runner.h"
#include "context/settings.h"
#include "context/step_proxy.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "entity/entity_id.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata::context_internal {

template <typename Types>
class context_core
    : public core_critical_operations<context_core<Types>, Types> {
 public:
  using entity_storage_type = typename Types::entity_storage_type;
  using component_storage_type = typename Types::component_storage_type;
  using component_list = typename Types::component_list;
  using system_list = typename Types::system_list;
  static constexpr std::size_t system_count = Types::system_count;
  using subscription_type = context_internal::subscription<entity_storage_type>;
  using bitset_type = typename Types::bitset_type;
  static constexpr bool has_hierarchy = Types::has_hierarchy;
  // The run policy (internal/run_policy.h): adaptive on a threaded
  // scheduler unless the settings fix it (internal/adaptive_run_policy.h);
  // fixed on the sequential one.
  using policy_type = std::conditional_t<
      Types::scheduler_type::runs_subtasks_in_parallel &&
          std::is_same_v<typename Types::settings_type::run_policy_type,
                         strata::run_policy::adaptive_t>,
      adaptive_run_policy<Types>, fixed_run_policy<Types>>;

  template <typename... SystemArgs>
  context_core(const typename Types::settings_type& settings,
               SystemArgs&&... args)
      : entities_ptr_(context_internal::make_entities<Types>(
            settings, context_internal::run_options_in(args...))),
        components_(context_internal::initial_capacity<Types>(
            settings, context_internal::run_options_in(args...))),
        thread_count_(context_internal::thread_count_of<Types>(
            settings, context_internal::executor_in(args...),
            context_internal::run_options_in(args...))),
        refresh_parallel_(
            settings.template get<context_keys::refresh_parallelism>()),
        runs_in_parallel_(context_internal::runs_in_parallel<Types>(
            context_internal::run_options_in(args...))),
        pool_(thread_count_ - 1, context_internal::executor_in(args...)),
        policy_(context_internal::hand_off_of<Types>(
                    settings, context_internal::run_options_in(args...)),
                runs_in_parallel(), pool_.worker_count()),
        hooks_(settings.template get<context_keys::hooks>()) {
    const auto& systems = settings.template get<context_keys::systems>();
    auto all_args = std::forward_as_tuple(args...);
    context_internal::construct_instances<Types>(
        systems, entities(), all_args, instances_, subscriptions_, policy_);
  }

  // The cycle, run by context_base::step (context/context.h): begin_step(),
  // f(step_proxy&), then end_step(), which runs the refresh and rethrows what f
  // threw. (f is called by that step itself: one template less between a user's
  // misuse and its report, meta/diagnostic.h.)
  void begin_step() {
    if constexpr (Types::trace_enabled) {
      main_thread_ = this_thread_token();
    }
    refused_creations_ = 0;
    if constexpr (has_hierarchy) hierarchy_.refused = 0;
    policy_.before_step(step_count_);
    if constexpr (change_tracking<Types>::tracks_anything) {
      changes_.begin_step(step_count_, *this);
    }
  }
  void end_step(std::exception_ptr failure) {
    if constexpr (Types::trace_enabled) {
      trace_span span;
      span.begin();
      refresh_keeping_first(failure);
      span.end();
      trace_.add({trace_event::kind::refresh, "refresh", 0, 0, span.thread,
                  span.start_ns, span.end_ns, step_count_});
    } else {
      refresh_keeping_first(failure);
    }
    ++step_count_;
    if (failure) std::rethrow_exception(failure);
  }

  // Before execute_systems() runs systems: the departures remove_component
  // noted are settled and, with change filters, the execution count moves
  // on.
  void begin_execution() {
    settle_departures();
    if constexpr (change_tracking<Types>::tracks_anything) {
      changes_.begin_execution();
    }
  }
  // The departures remove_component noted are applied here, on this
  // thread, so that looks at a subscription during the run only read
  // (system_instance.h).
  void settle_departures() {
    if (departures_noted_) {
      for (subscription_type* subscription : subscriptions_) {
        subscription->settle_departures();
      }
      departures_noted_ = false;
    }
  }

  template <typename T>
  T& resource() {
    return resources_.template get<T>();
  }
  typename Types::resource_storage_type& resources() { return resources_; }
  const typename Types::resource_storage_type& resources() const {
    return resources_;
  }

  // The World the refresh and the proxies work on.
  entity_storage_type& entities() { return *entities_ptr_; }
  const entity_storage_type& entities() const { return *entities_ptr_; }
  component_storage_type& components() { return components_; }
  const component_storage_type& components() const { return components_; }
  template <std::size_t I>
  system_instance<Types, I>& instance() {
    return *static_cast<system_instance<Types, I>*>(instances_.get(I));
  }
  // f(subscription) for every system's subscription
  // (context/internal/subscription.h), in id order on this thread, or in
  // parallel on the pool when asked and possible. A loop, not an unrolled
  // call per system: f is compiled once.
  template <typename F>
  void for_each_subscription(F&& f, bool parallel) {
    if (parallel && pool_.worker_count() > 0 && system_count > 1) {
      parallel_for(pool_, system_count,
                   [&](std::size_t i) { f(*subscriptions_[i]); });
    } else {
      for (subscription_type* subscription : subscriptions_) f(*subscription);
    }
  }
  // The hook of system `system` for `what` (the refresh calls it only for
  // systems that have one, subscription::hooks()).
  void run_subscription_hook(std::size_t system, refresh_event::kind what,
                             entity_id id) {
    context_internal::run_hook_of<system_list>(*this, system, what, id);
  }
  // f(instance) for every system in id order, on this thread: unrolled, so
  // f inlines for each instance and work f skips at compile time (a system
  // the call does not concern) costs nothing.
  template <typename F>
  void for_each_instance_in_order(F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (f(instance<I>()), ...);
    }
    (std::make_index_sequence<system_count>{});
  }

  // A subtask of `system` left kills or deferred functions for the refresh
  // (noted by data proxies, possibly from several threads; taken by the
  // refresh, after systems joined).
  void note_subtask_work(subtask_work kind, std::size_t system) noexcept {
    subtask_work_.note(kind, system);
  }
  // f(runtime), in id order, for every system whose subtasks left `kind`
  // in the step the refresh is for: the instance's runtime part (its
  // subtask states), which systems of one shape share, so f is compiled
  // once per shape rather than once per system.
  template <typename F>
  void for_each_instance_that_left(subtask_work kind, F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((subtask_work_.taken(kind, I)
            ? f(static_cast<runtime_of<Types, I>&>(instance<I>()))
            : void()),
       ...);
    }
    (std::make_index_sequence<system_count>{});
  }

  // Component hooks (context/hooks.h): the refresh runs them between its
  // deferred functions and its kills when the settings declare any.
  static constexpr bool has_component_hooks =
      context_internal::hook_runner<Types>::active;

  // The context-wide observer of refresh events, or null.
  const refresh_observer* observer() const {
    return observer_ ? &observer_ : nullptr;
  }
  void set_observer(refresh_observer observer) {
    observer_ = std::move(observer);
  }
  static constexpr std::string_view system_name(std::size_t id) {
    return Types::system_name(id);
  }

  // Entities deferred code asked for in the latest step that a full fixed
  // limit refused.
  std::size_t refused_creations() const { return refused_creations_; }
  void note_refused_creations(std::size_t n) { refused_creations_ += n; }
  typename Types::refresh_queue_type& refresh_queue() { return refresh_; }
  // Messages of the latest step sent to dead or stale ids (dropped).
  std::size_t dropped_messages() const { return dropped_messages_; }

  thread_pool& pool() { return pool_; }
  std::size_t thread_count() const { return thread_count_; }
  // Whether systems run on the parallel scheduler: the settings' scheduler
  // runs subtasks in parallel and the run options did not choose the
  // sequential one (context/run_options.h).
  bool runs_in_parallel() const {
    return Types::scheduler_type::runs_subtasks_in_parallel &&
           runs_in_parallel_;
  }
  // How systems run on threads: decided, measured and remembered by the
  // run policy (internal/run_policy.h).
  policy_type& policy() { return policy_; }
  subscription_type& subscription(std::size_t system) {
    return *subscriptions_[system];
  }
  const std::array<subscription_type*, system_count>& subscriptions() const {
    return subscriptions_;
  }
  trace_log& trace() { return trace_; }
  // The parent/child relation and its queue (context/hierarchy.h), in a
  // program whose settings declare one.
  auto& hierarchy() requires has_hierarchy { return hierarchy_; }
  const auto& hierarchy() const requires has_hierarchy { return hierarchy_; }
  std::size_t refused_parent_changes() const requires has_hierarchy {
    return hierarchy_.refused;
  }
  // Stamps for changed() / added() filters (internal/change_stamps.h).
  context_internal::change_tracking<Types>& changes() { return changes_; }
  thread_token main_thread() const { return main_thread_; }
  std::uint64_t step_count() const { return step_count_; }
  // A restored snapshot's step count (context/snapshot.h): change stamps
  // count steps, so the two go back together.
  void restore_step_count(std::uint64_t steps) { step_count_ = steps; }

 private:
  // The refresh at the end of a step whose function threw `failure` (or
  // null): the step's exception wins over one a deferred function threw,
  // which is kept only when the step threw none. Then the observer hears of
  // the step's refused creations, if any.
  void refresh_keeping_first(std::exception_ptr& failure) {
    if constexpr (sends_messages<system_list>) {
      dropped_messages_ = end_messages(*this);
    }
    // A settled world's step queues nothing: then there is nothing to run
    // (BM_SystemsUpdate/strata_1t/1 shows the per-step cost).
    if (!refresh_has_work()) {
      scratch_.reset();
      return;
    }
    try {
      refresh();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
    policy_.after_refresh(refresh_.take_subscription_growth());
    if (observer_ && refused_creations_ > 0) {
      try {
        observer_({.what = refresh_event::kind::refused_creations,
                   .entity = null_entity,
                   .system_id = refresh_event::no_system,
                   .system_name = {},
                   .count = refused_creations_});
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
    }
  }
  // Whether the refresh has anything to do: work a subtask left (deferred
  // functions, kills), kills, matches, refused creations or parent changes
  // queued.
  bool refresh_has_work() const noexcept {
    bool parent_changes = false;  // set_parent / remove_parent requests
    if constexpr (has_hierarchy) parent_changes = !hierarchy_.requests.empty();
    return subtask_work_.any_noted() || refresh_.pending_kills() != 0 ||
           refresh_.pending_matches() != 0 || refused_creations_ != 0 ||
           parent_changes;
  }
  // The refresh's phases in order (context/refresh.h), each in its own
  // header. The systems noted for subtask work are visited in phases 1 and
  // 2 only. The first exception of a deferred function or a hook is
  // rethrown after every phase ran. Forced inline, as the phases are:
  // called once per context type, which GCC inlines on its own only when
  // the settings have internal linkage (it leaves COMDAT copies out of
  // line).
  [[gnu::always_inline]] inline void refresh() {
    defer_proxy<Types> proxy(*this);
    const bool subtask_work = subtask_work_.take();
    std::exception_ptr failure =
        subtask_work ? run_deferred(*this, proxy) : nullptr;
    if constexpr (has_hierarchy || has_component_hooks) {
      // The hierarchy's cascade and the component hooks need every kill,
      // the subtasks' included.
      if (subtask_work) gather_subtask_kills(*this, refresh_);
      run_hierarchy_and_hooks(failure);
    }
    apply_kills(*this, refresh_, refresh_parallel_,
                subtask_work && !has_hierarchy && !has_component_hooks);
    apply_matches(*this, refresh_, refresh_parallel_);
    if (failure) std::rethrow_exception(failure);
    scratch_.reset();
  }
  // Parent changes, then the cascade (context/hierarchy.h), so that hooks
  // see the entities killed with their parents; then the hooks' rounds,
  // each followed by the cascade of its kills.
  void run_hierarchy_and_hooks(std::exception_ptr& failure) {
    if constexpr (has_hierarchy) apply_hierarchy(*this, refresh_);
    if constexpr (has_component_hooks) {
      std::exception_ptr thrown = hooks_.run(
          *this, refresh_, cascade_after_hook_round(*this, refresh_));
      if (thrown && !failure) failure = std::move(thrown);
    }
  }

  // On the heap: a fixed-limit storage keeps its arrays inline.
  base_internal::owned_ptr<entity_storage_type> entities_ptr_;
  component_storage_type components_;
  std::size_t thread_count_;
  bool refresh_parallel_;
  bool runs_in_parallel_;
  thread_pool pool_;
  policy_type policy_;
  typename Types::instances_type instances_;
  // Each instance's subscription, for the refresh's loops.
  std::array<subscription_type*, system_count> subscriptions_{};
  typename Types::refresh_queue_type refresh_;
  typename Types::resource_storage_type resources_;
  refresh_observer observer_;
  // Where add_component puts a component for a refused creation's null id.
  context_internal::scratch_slots<component_list::count> scratch_;
  std::size_t refused_creations_ = 0;
  std::size_t dropped_messages_ = 0;
  // A remove_component since the last run: some instance may hold
  // departures to settle before systems run.
  bool departures_noted_ = false;
  subtask_work_set<system_count> subtask_work_;
  std::uint64_t step_count_ = 0;
  context_internal::change_tracking<Types> changes_;
  [[no_unique_address]] std::conditional_t<Types::trace_enabled, trace_log,
                                           no_trace_span>
      trace_;
  [[no_unique_address]] std::conditional_t<
      has_hierarchy,
      context_internal::hierarchy_state<typename Types::hierarchy_type>,
      no_hierarchy>
      hierarchy_;
  thread_token main_thread_ = 0;
  friend class core_critical_operations<context_core, Types>;
  // Empty without hooks.
  using hook_runner_type = context_internal::hook_runner<Types>;
  [[no_unique_address]] hook_runner_type hooks_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_CORE_H_
