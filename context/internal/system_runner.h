// Running the systems of one execute_systems() call: which adapter runs
// which system, the per-system entry points handed to the scheduler, and the
// subtask executor a detailed_instance callable receives.
//
// system_runner<Types>::execute<Selected>(core, adapters...) checks the
// adapters at compile time (every selected system matches one; the first
// match wins), builds a constexpr table of one function per selected system,
// and hands the scheduler `run(id)`. Running system I prepares its subtasks
// (slices of its subscribed entities) and calls the adapter's callable once
// per subtask (for_subtasks) or once with an executor (detailed_instance).
// Subtasks run on the pool when the scheduler and the settings allow inner
// parallelism, else in order on the running thread.
//
// Internal: users reach it through the step proxy's execute_systems().
#ifndef STRATA_CONTEXT_INTERNAL_SYSTEM_RUNNER_H_
#define STRATA_CONTEXT_INTERNAL_SYSTEM_RUNNER_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "context/data_proxy.h"
#include "context/execution_adapter.h"
#include "context/internal/context_types.h"
#include "context/internal/diagnostics.h"
#include "context/internal/subtask_loop.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "scheduler/hand_off.h"
#include "settings/diagnostic.h"
#include "settings/type_list.h"
#include "settings/type_name.h"
#include "threading/task_group.h"

namespace strata {

// Runs a system's subtasks (given to detailed_instance callables).
template <typename Types, std::size_t I>
class subtask_executor {
 public:
  subtask_executor(context_core<Types>& core,
                   system_instance<Types, I>& instance, bool parallel,
                   bool measure)
      : core_(core),
        instance_(instance),
        parallel_(parallel),
        measure_(measure) {}

  // f(system&, data_proxy&) once per subtask; concurrently when the context
  // runs subtasks in parallel. Every subtask runs even if another throws;
  // then the exception of the lowest subtask index is rethrown, whatever the
  // thread count (context_internal::run_subtasks, shared by every system).
  template <typename F>
  void for_subtasks(F&& f) {
    run_each_subtask([&](std::size_t subtask) {
      data_proxy<Types, I> data = data_of(subtask);
      f(instance_.system(), data);
    });
  }

  // What for_subtasks does, with the call to the user's callable written by
  // the caller: system_runner::run_system calls a for_subtasks adapter's
  // callable itself, so that the compiler's notes on a mistake in a system's
  // code count one template less (settings/diagnostic.h).
  template <typename Call>
  void run_each_subtask(Call call) {
    measured_ = measure_;
    context_internal::run_subtasks(core_.pool(), instance_.states(),
                                   instance_.subtask_count(),
                                   {.parallel = parallel_,
                                    .measure = measure_,
                                    .cost = &instance_.cost(),
                                    .entities = instance_.entity_count()},
                                   context_internal::make_subtask_body(call));
  }
  data_proxy<Types, I> data_of(std::size_t subtask) {
    return data_proxy<Types, I>(core_, instance_, instance_.state(subtask),
                                subtask);
  }

  // Whether for_subtasks measured the run (a detailed_instance callable may
  // not call it).
  bool measured() const noexcept { return measured_; }

 private:
  context_core<Types>& core_;
  system_instance<Types, I>& instance_;
  bool parallel_;
  bool measure_;
  bool measured_ = false;
};

template <typename Types>
class system_runner {
  using core_type = context_core<Types>;
  using system_list = typename Types::system_list;
  static constexpr std::size_t system_count = Types::system_count;

 public:
  // Runs the systems flagged in Selected (a constexpr array of bool) with
  // the scheduler of the settings.
  // (Selected is a reference to a named constant, and the core is spelled
  // without the core_type alias: the compiler's notes on a mistake in a
  // system's code print these signatures, at a length that does not grow
  // with the number of systems.)
  template <const auto& Selected, typename... Adapters>
  static void execute(context_core<Types>& core, Adapters&... adapters) {
    if constexpr (!(is_execution_adapter_v<std::remove_cvref_t<Adapters>> &&
                    ...)) {
      diagnostic::report(
          diagnostic::not_an_execution_adapter<type_list<Adapters...>>);
    } else {
      constexpr bool every_system_has_an_adapter =
          check_adapters<Selected, std::remove_cvref_t<Adapters>...>(
              std::make_index_sequence<system_count>{});
      if constexpr (every_system_has_an_adapter) {
        auto adapter_refs = std::tie(adapters...);
        using refs_type = decltype(adapter_refs);
        static constexpr auto table = make_run_table<Selected, refs_type>(
            std::make_index_sequence<system_count>{});
        static constexpr auto predictions =
            make_prediction_table(std::make_index_sequence<system_count>{});
        // A step too small for threads runs as the sequential scheduler
        // would: hand_off::never makes the threaded scheduler skip its
        // ranking (the systems' own decisions still use the context's
        // policy, and take the same answers).
        const strata::hand_off_policy policy =
            too_small_for_threads<Selected>(
                core, std::make_index_sequence<system_count>{})
                ? strata::hand_off_policy(hand_off::never)
                : core.hand_off_policy();
        Types::scheduler_type::template execute<system_list, Selected>(
            core.pool(),
            [&core, &adapter_refs](std::size_t id) {
              table[id](core, adapter_refs);
            },
            [&core](std::size_t id) { return predictions[id](core); }, policy);
        if constexpr (Types::trace_enabled) {
          record_trace<Selected>(core,
                                 std::make_index_sequence<system_count>{});
        }
      }
    }
  }

 private:
  // Reports the first selected system no adapter matches; true if none.
  template <const auto& Selected, typename... Adapters, std::size_t... I>
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
      diagnostic::report(diagnostic::no_execution_adapter_for_system<System>);
      return false;
    } else {
      return true;
    }
  }

  template <const auto& Selected, typename Refs, std::size_t... I>
  static constexpr auto make_run_table(std::index_sequence<I...>) {
    using fn = void (*)(core_type&, Refs&);
    return std::array<fn, system_count>{run_entry<Selected[I], I, Refs>()...};
  }
  template <bool Selected, std::size_t I, typename Refs>
  static constexpr auto run_entry() {
    using fn = void (*)(core_type&, Refs&);
    if constexpr (Selected) {
      return static_cast<fn>(&system_runner::run_system<I, Refs>);
    } else {
      return static_cast<fn>(nullptr);
    }
  }
  template <std::size_t I, typename Refs>
  static void run_system(context_core<Types>& core, Refs& adapters) {
    using system_type = typename system_list::template system_at<I>;
    constexpr std::size_t which = []<typename... A>(
                                      std::type_identity<std::tuple<A...>>) {
      return first_matching_adapter<system_type, std::remove_cvref_t<A>...>();
    }(std::type_identity<Refs>{});
    auto& adapter = std::get<which>(adapters);
    auto& instance = core.template instance<I>();
    // Hand-off decisions (scheduler/hand_off.h): measured only where they
    // matter, i.e. under a threaded scheduler deciding automatically.
    const hand_off_policy policy = core.hand_off_policy();
    const std::int64_t predicted =
        core.measures_costs() ? instance.cost().predict(instance.entity_count())
                              : run_cost::unknown;
    const bool measure = core.measures_costs() &&
                         (core.samples_costs() || !instance.cost().known());
    const std::int64_t strategy_hint =
        policy.mode == hand_off::always
            ? std::numeric_limits<std::int64_t>::max()
        : policy.mode == hand_off::never ? run_cost::unknown
                                         : predicted;
    instance.prepare_subtasks(core.thread_count(),
                              Types::inner_parallelism_allowed, strategy_hint);
    subtask_executor<Types, I> executor(
        core, instance,
        Types::inner_parallelism_allowed &&
            Types::scheduler_type::runs_subtasks_in_parallel &&
            policy.worth_splitting(predicted, instance.subtask_count()),
        measure);
    const std::int64_t start = measure ? trace_span::now_ns() : 0;
    if constexpr (Types::trace_enabled) instance.run_span.begin();
    try {
      if constexpr (std::remove_cvref_t<decltype(adapter)>::kind ==
                    execution_adapter::adapter_kind::detailed) {
        adapter.callable(instance, executor);
      } else {
        executor.run_each_subtask([&](std::size_t subtask) {
          auto data = executor.data_of(subtask);
          adapter.callable(instance.system(), data);
        });
      }
    } catch (...) {
      if constexpr (Types::trace_enabled) instance.run_span.end();
      instance.mark_failed();
      throw;
    }
    if constexpr (Types::trace_enabled) instance.run_span.end();
    if (measure && !executor.measured()) {
      instance.cost().record(trace_span::now_ns() - start,
                             instance.entity_count());
    }
  }

  // Whether a threaded scheduler would, after ranking every system, run
  // this step as the sequential scheduler does: every selected system is
  // measured and together they are predicted below both the work a step
  // needs before it uses the pool (kInlineStepNs) and the work a system
  // needs before it splits (kMinSubtaskNs; no single system exceeds the
  // total). Then the step skips the ranking and runs in topological order
  // on this thread; on a small world, threads switched on cost tens of
  // nanoseconds a step (BENCHMARKS.md). Sample steps
  // (core_type::samples_costs) take the full path, and re-measure; so do
  // steps with a system never measured.
  template <const auto& Selected, std::size_t... I>
  static bool too_small_for_threads(core_type& core,
                                    std::index_sequence<I...>) {
    if constexpr (!Types::scheduler_type::runs_subtasks_in_parallel) {
      return false;
    } else {
      if (!core.measures_costs() || core.samples_costs()) return false;
      constexpr std::int64_t limit = std::min(hand_off_policy::kInlineStepNs,
                                              hand_off_policy::kMinSubtaskNs);
      std::int64_t total = 0;
      bool all_known = true;
      const auto add = [&](const auto& instance) {
        const std::int64_t predicted =
            instance.cost().predict(instance.entity_count());
        all_known &= predicted != run_cost::unknown;
        total += predicted;
      };
      ((Selected[I] ? add(core.template instance<I>()) : void()), ...);
      return all_known && total < limit;
    }
  }

  // Each system's predicted run time, for the scheduler's decisions.
  template <std::size_t... I>
  static constexpr auto make_prediction_table(std::index_sequence<I...>) {
    using fn = std::int64_t (*)(core_type&);
    return std::array<fn, system_count>{+[](core_type& core) {
      if (!core.measures_costs()) return run_cost::unknown;
      auto& instance = core.template instance<I>();
      return instance.cost().predict(instance.entity_count());
    }...};
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

}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_SYSTEM_RUNNER_H_
