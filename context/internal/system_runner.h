// Running the systems of one execute_systems() call: the per-system entry
// points handed to the scheduler (which adapter runs which system is
// internal/adapter_matching.h; the subtask executor a detailed_instance
// callable receives is internal/subtask_executor.h).
//
// system_runner<Types>::call<Selected>(core)(adapters...) checks the
// adapters at compile time (every selected system matches one; the first
// match wins), builds a constexpr table of one function per selected system,
// and runs the call in three moves: plan (the context's run policy,
// internal/run_policy.h, says how the call runs), run (the settings'
// scheduler runs `run(id)`, and decides whether on the calling thread in its
// sequential order or on its own terms), record (the policy learns what
// happened). Running system I is the same three moves: the policy plans it and
// prepares its subtasks (slices of its subscribed entities), the adapter's
// callable runs once per subtask (for_subtasks) or once with an executor
// (detailed_instance), the policy records the run. Subtasks run on the pool
// when the plan says so, else in order on the running thread.
//
// The compiler's notes on a mistake in a system's code (a static_assert of
// the data proxy, a call the system does not accept) list every template
// between the user's step and the system, each with its arguments: the
// adapter's type names the user's callable, whose name spells the settings
// type when the settings reach make_context by value through a function
// template. So however many functions a run passes through (the table,
// the scheduler, the system's run, the executor), the call of the user's
// code is written in call's operator() itself: lambdas, one per system,
// built by a pack expansion and taking no template parameter of their own,
// whose bodies the compiler checks with the operator()'s. They capture
// nothing (the adapter is their parameter): the run table names their
// types, and each system's run makes its own and calls it. One frame of
// Strata's in those notes, call's operator(), between the user's step and the
// user's system.
//
// Internal: users reach it through the step proxy's execute_systems().
#ifndef STRATA_CONTEXT_INTERNAL_SYSTEM_RUNNER_H_
#define STRATA_CONTEXT_INTERNAL_SYSTEM_RUNNER_H_

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "context/data_proxy.h"
#include "context/execution_adapter.h"
#include "context/internal/adapter_matching.h"
#include "context/internal/context_types.h"
#include "context/internal/diagnostics.h"
#include "context/internal/run_policy.h"
#include "context/internal/subtask_executor.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"
#include "meta/type_name.h"
#include "scheduler/hand_off.h"
#include "threading/task_group.h"

namespace strata::context_internal {

// The types of the systems' calls of the user's code (call's operator()
// writes them, lambdas taking the adapter, the executor and the subtask
// index, capturing nothing): the run functions make their own.
template <typename... Calls>
constexpr type_list<Calls...> call_types_of(const Calls&...) noexcept {
  return {};
}

template <typename Types>
class system_runner {
  using core_type = context_core<Types>;
  using system_list = typename Types::system_list;
  static constexpr std::size_t system_count = Types::system_count;

 public:
  // The callable execute_systems() returns: call(adapters...) runs the
  // systems flagged in Selected (a constexpr array of bool) with the
  // scheduler of the settings. The operator() is the call's entry point,
  // not a forwarder to one (a forwarder would be one more frame in the
  // notes), and it holds each system's call of the user's code (the essay
  // above), in the table's initializer: lambdas that are not generic, so
  // no frame of their own. (Selected is a reference to a named constant, and
  // the core is spelled without the core_type alias: the notes print them.)
  template <const auto& Selected,
            typename Indices = std::make_index_sequence<system_count>>
  class call;
  template <const auto& Selected, std::size_t... I>
  class call<Selected, std::index_sequence<I...>> {
   public:
    explicit call(context_core<Types>& core) noexcept : core_(core) {}

    template <typename... Adapters>
    void operator()(Adapters&&... adapters) const {
      if constexpr (!all_adapters<Adapters...>) {
        diagnostic::report(
            diagnostic::not_an_execution_adapter<type_list<Adapters...>>);
      } else if constexpr (check_adapters<Selected, system_list,
                                          std::remove_cvref_t<Adapters>...>(
                               std::index_sequence<I...>{})) {
        using refs = std::tuple<std::remove_reference_t<Adapters>&...>;
        // Each system's adapter, type-erased: the first that matches it,
        // or, unselected, one that does nothing.
        void* const found[] = {erased(adapters)..., erased(no_adapter)};
        static constexpr std::size_t slot_of_system[] = {
            adapter_slot<system_list, Selected[I], I, refs>()..., 0};
        void* const adapter_of_system[] = {found[slot_of_system[I]]...,
                                           nullptr};
        static constexpr auto table =
            run_table_of<Selected, refs>(call_types_of(
                [](adapter_type<system_list, Selected[I], I, refs>& adapter,
                   subtask_executor<Types, I>& executor,
                   std::size_t subtask) ABSL_ATTRIBUTE_ALWAYS_INLINE {
                  if constexpr (std::remove_cvref_t<decltype(adapter)>::kind ==
                                execution_adapter::adapter_kind::detailed) {
                    adapter.callable(executor.instance_, executor);
                  } else {
                    data_proxy<Types, I> data = executor.data_of(subtask);
                    adapter.callable(executor.subtask_system(), data);
                  }
                }...));
        run_call<Selected, table>(core_, adapter_of_system);
      }
    }

   private:
    context_core<Types>& core_;
  };

 private:
  // The run functions take each system's adapter type-erased: an array of
  // pointers, one per system. Each run function is then named by its
  // system and its own call only: naming every adapter would spell every
  // system's call in every system's function (and in the scheduler's), a
  // symbol name growing with the square of the system count; and nothing
  // is compiled per system to hold or reach the calls (a call captures
  // nothing: its run function makes it). `unplanned`: the call runs by a
  // decision the policy made for the whole call
  // (call_mode::calling_thread_unplanned).
  using run_fn = void (*)(core_type&, void* const* adapters, bool unplanned);

  // An adapter as the run functions receive it.
  template <typename Adapter>
  ABSL_ATTRIBUTE_ALWAYS_INLINE static void* erased(Adapter& adapter) noexcept {
    return const_cast<void*>(static_cast<const void*>(&adapter));
  }
  // One run function per selected system, each the run of its call of
  // the user's code (the I-th of Calls) with its adapter (the I-th of Refs).
  template <const auto& Selected, typename Refs, typename... Calls>
  static constexpr auto run_table_of(type_list<Calls...>) {
    return make_run_table<Selected, Refs, Calls...>(
        std::make_index_sequence<system_count>{});
  }
  template <const auto& Selected, typename Refs, typename... Calls,
            std::size_t... I>
  static constexpr auto make_run_table(std::index_sequence<I...>) {
    return std::array<run_fn, system_count>{
        run_entry<Selected[I], I,
                  adapter_type<system_list, Selected[I], I, Refs>, Calls>()...};
  }
  template <bool Selected, std::size_t I, typename Adapter, typename Call>
  static constexpr run_fn run_entry() {
    if constexpr (Selected) {
      return &system_runner::run_system<I, Adapter, Call>;
    } else {
      return nullptr;
    }
  }

  // One call: the core begins the execution, then plan (the run policy,
  // internal/run_policy.h), run the systems with the settings' scheduler
  // (given each system's adapter, type-erased), record. The table's address
  // keys the call in the policy's remembered decisions.
  template <const auto& Selected, const auto& Table>
  static void run_call(core_type& core, void* const* adapters) {
    core.begin_execution();
    constexpr const auto* key = &Table;
    auto& policy = core.policy();
    const auto plan =
        policy.template before_call<Selected>(core.subscriptions(), key);
    const scheduler_internal::step_decision decision =
        run_systems<Selected, Table>(core, adapters, plan);
    policy.template after_call<Selected>(core.subscriptions(), key, plan,
                                         decision);
    if constexpr (Types::trace_enabled) {
      record_trace<Selected>(core, std::make_index_sequence<system_count>{});
    }
  }

  // Runs the selected systems with the settings' scheduler, which decides
  // whether the call runs on the calling thread (in its sequential order:
  // hand_off::never, or no worker) or on its own terms. A call the policy
  // runs unplanned tells each system's run so (a run-time flag: one run
  // function per system, and the scheduler's walks over the systems,
  // sequential order, and ranking and pool, compiled once per call).
  template <const auto& Selected, const auto& Table, typename Plan>
  static scheduler_internal::step_decision run_systems(core_type& core,
                                                       void* const* adapters,
                                                       const Plan& plan) {
    bool unplanned = false;
    if constexpr (Types::scheduler_type::runs_subtasks_in_parallel) {
      unplanned = plan.mode == call_mode::calling_thread_unplanned;
    }
    return Types::scheduler_type::template execute<system_list, Selected>(
        core.pool(),
        [&core, adapters, unplanned](std::size_t id) {
          Table[id](core, adapters, unplanned);
        },
        [&core](std::size_t id) {
          return core.policy().predicted_ns(core.subscription(id), id);
        },
        plan.hand_off);
  }

  // Runs system I through its call of the user's code, Call, with its
  // adapter, `adapters[I]` (traced; a throw marks the run failed): plan,
  // run its subtasks, record. `unplanned`: the call
  // runs by a decision made for the whole call (a remembered inline
  // decision, internal/adaptive_run_policy.cc), so the run is neither
  // predicted, measured nor split: its plan says so (plan_system), and the
  // rest of the run follows the plan. Only the adapter call and the
  // subtask body are compiled per system; planning works on the instance's
  // runtime (internal/instance_runtime.h) through the policy's before_system,
  // out of line (plan_system) and compiled once for every system of the same
  // strategy and state types. A for_subtasks adapter's call is run through
  // a bound_call: one subtask body per system. Its run is one pass over the
  // subtasks, untraced (most systems), is the same but for that body for
  // every system of a runtime type: run_one_pass, out of line.
  template <std::size_t I, typename Adapter, typename Call>
  static void run_system(context_core<Types>& core, void* const* adapters,
                         bool unplanned) {
    auto& instance = core.template instance<I>();
    // What the plan and the record work on: the instance as its runtime.
    runtime_of<Types, I>& runtime = instance;
    using signature = typename system_list::template signature_at<I>;
    if constexpr (signature::has_change_filter ||
                  size_v<typename signature::received_types> != 0) {
      before_run<I>(core, instance);
    }
    Adapter& adapter = *static_cast<Adapter*>(adapters[I]);
    if constexpr (runs_in_one_pass<signature, Adapter>) {
      // The executor is only the body's way to the core and the instance.
      subtask_executor<Types, I> executor(core, instance, false, false);
      using bound_type =
          typename subtask_executor<Types, I>::template bound_call<Call,
                                                                   Adapter>;
      bound_type bound{&executor, &adapter};
      run_one_pass(core, runtime, unplanned, {&bound_type::run, &bound});
    } else {
      const system_plan plan = plan_system(core, runtime, unplanned);
      subtask_executor<Types, I> executor(core, instance, plan.parallel,
                                          plan.measure);
      run_subtasks_of<Call>(adapter, executor, instance);
      record_system(core, runtime, plan, executor.measured_);
    }
  }

  // Whether a system's run is one measured pass over its subtasks with the
  // call of a for_subtasks adapter, untraced: not in hierarchy order (a
  // pass per level) nor in the order of a component (brought up to date
  // first), as subtask_executor::run_each_subtask would run it.
  template <typename Signature, typename Adapter>
  static constexpr bool runs_in_one_pass =
      std::remove_cv_t<Adapter>::kind !=
          execution_adapter::adapter_kind::detailed &&
      !Types::trace_enabled &&
      !(Signature::visits_in_hierarchy_order && Types::has_hierarchy) &&
      !Signature::visits_in_component_order;

  // Such a run: plan, the pass (a throw discards what the run left for
  // the refresh and propagates), and nothing to record (a measured pass
  // records its work). Out of line: compiled once per runtime type, the
  // system's code being `body`.
  template <typename Runtime>
  [[gnu::noinline]] static void run_one_pass(core_type& core, Runtime& runtime,
                                             bool unplanned,
                                             subtask_body body) {
    const system_plan plan = plan_system(core, runtime, unplanned);
    try {
      context_internal::run_pass_of(core.pool(), runtime, plan.parallel,
                                    plan.measure, body);
    } catch (...) {
      runtime.discard_run();
      throw;
    }
  }

  // The run itself (traced): the call once with the executor (a
  // detailed_instance adapter) or once per subtask (for_subtasks). A throw
  // discards what the run left for the refresh (kills, deferred functions)
  // and propagates. Part of run_system, always inlined into it.
  template <typename Call, typename Adapter, typename Executor,
            typename Instance>
  ABSL_ATTRIBUTE_ALWAYS_INLINE static void run_subtasks_of(Adapter& adapter,
                                                           Executor& executor,
                                                           Instance& instance) {
    if constexpr (Types::trace_enabled) instance.run_span.begin();
    try {
      if constexpr (std::remove_cv_t<Adapter>::kind ==
                    execution_adapter::adapter_kind::detailed) {
        Call{}(adapter, executor, 0);
      } else {
        using bound_type =
            typename Executor::template bound_call<Call, Adapter>;
        bound_type bound{&executor, &adapter};
        executor.run_each_subtask({&bound_type::run, &bound});
      }
    } catch (...) {
      if constexpr (Types::trace_enabled) instance.run_span.end();
      instance.discard_run();
      throw;
    }
    if constexpr (Types::trace_enabled) instance.run_span.end();
  }

  // Before system I's subtasks: the change filter's window moves on, and
  // the messages it receives are gathered (the effect channel).
  template <std::size_t I, typename Instance>
  static void before_run(core_type& core, Instance& instance) {
    using signature = typename Instance::signature_type;
    if constexpr (signature::has_change_filter) {
      core.changes().template begin_filtered_run<I>(instance);
    }
    if constexpr (size_v<typename signature::received_types> != 0) {
      context_internal::gather_messages<Types>(core, instance);
    }
  }

  // After the run: a measured run its subtasks did not time is timed as a
  // whole by the policy (an unplanned run is not measured).
  template <typename Runtime>
  static void record_system(core_type& core, Runtime& runtime,
                            const system_plan& plan, bool subtasks_measured) {
    if (plan.measure && !subtasks_measured) [[unlikely]] {
      core.policy().after_system(runtime, plan);
    }
  }

  // The run's plan: the policy plans the run and prepares its subtasks, or,
  // unplanned, its subtasks are prepared without a prediction, to run in
  // order on this thread, unmeasured. Out of line: one call per system run,
  // compiled once per strategy and state types.
  template <typename Runtime>
  [[gnu::noinline]] static system_plan plan_system(core_type& core,
                                                   Runtime& runtime,
                                                   bool unplanned) {
    if (unplanned) {
      runtime.prepare_subtasks(core.thread_count(),
                               Types::inner_parallelism_allowed,
                               core.step_count());
      return {};
    }
    return core.policy().before_system(runtime, core.thread_count(),
                                       core.step_count());
  }

  // Appends the spans of the systems that just ran to the trace log.
  template <const auto& Selected, std::size_t... I>
  static void record_trace(core_type& core, std::index_sequence<I...>) {
    (
        [&] {
          if constexpr (Selected[I]) {
            auto& inst = core.template instance<I>();
            using system_type = typename system_list::template system_at<I>;
            constexpr std::string_view name = name_of<system_type>();
            core.trace().add({trace_event::kind::system, name, I, 0,
                              inst.run_span.thread, inst.run_span.start_ns,
                              inst.run_span.end_ns, core.step_count()});
            for (std::size_t s = 0; s < inst.subtask_count(); ++s) {
              const trace_span& span = inst.state(s).span;
              if (span.start_ns < inst.run_span.start_ns)
                continue;  // did not run
              core.trace().add({trace_event::kind::subtask, name, I, s,
                                span.thread, span.start_ns, span.end_ns,
                                core.step_count()});
            }
          }
        }(),
        ...);
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SYSTEM_RUNNER_H_
