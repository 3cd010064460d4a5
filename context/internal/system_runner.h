// Running the systems of one execute_systems() call: which adapter runs
// which system and the per-system entry points handed to the scheduler (the
// subtask executor a detailed_instance callable receives is in
// internal/subtask_executor.h).
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
#include "context/internal/subtask_executor.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "scheduler/hand_off.h"
#include "scheduler/sequential.h"
#include "settings/diagnostic.h"
#include "settings/type_list.h"
#include "settings/type_name.h"
#include "threading/task_group.h"

namespace strata::context_internal {

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
        static constexpr auto table =
            make_run_table<Selected, refs_type, false>(
                std::make_index_sequence<system_count>{});
        const auto run = [&core, &adapter_refs](std::size_t id) {
          table[id](core, adapter_refs);
        };
        if constexpr (!Types::scheduler_type::runs_subtasks_in_parallel) {
          Types::scheduler_type::template execute<system_list, Selected>(
              core.pool(), run);
        } else if (!core.runs_in_parallel()) {
          // The run options chose the sequential scheduler
          // (context/run_options.h): the run the sequential scheduler makes.
          scheduler::sequential_t::execute<system_list, Selected>(core.pool(),
                                                                  run);
        } else {
          static constexpr auto remembered_table =
              make_run_table<Selected, refs_type, true>(
                  std::make_index_sequence<system_count>{});
          const auto run_remembered = [&core, &adapter_refs](std::size_t id) {
            remembered_table[id](core, adapter_refs);
          };
          using mode = context_internal::inline_decisions::mode;
          const mode how = core.inline_mode_for(&table);
          // A probe: a call to decide runs inline instead, timed
          // (inline_decisions.h: threads that do not pay).
          const bool probe = how == mode::decide &&
                             context_internal::inline_probe_due(core, &table);
          if (how == mode::decide && !probe) [[unlikely]] {
            decide_and_run<Selected>(core, run, &table);
          } else {
            // One call site, so that the sequential loop inlines here.
            const bool timed = how != mode::remembered;
            const std::int64_t start = timed ? trace_span::now_ns() : 0;
            scheduler::sequential_t::execute<system_list, Selected>(
                core.pool(), run_remembered);
            if (timed) [[unlikely]] {
              context_internal::after_timed_inline_run<Selected>(
                  core, &table, probe, trace_span::now_ns() - start);
            }
          }
        }
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

  // One run function per selected system; `Remembered`: the variant for
  // calls that run by a remembered inline decision.
  template <const auto& Selected, typename Refs, bool Remembered,
            std::size_t... I>
  static constexpr auto make_run_table(std::index_sequence<I...>) {
    using fn = void (*)(core_type&, Refs&);
    return std::array<fn, system_count>{
        run_entry<Selected[I], I, Refs, Remembered>()...};
  }
  template <bool Selected, std::size_t I, typename Refs, bool Remembered>
  static constexpr auto run_entry() {
    using fn = void (*)(core_type&, Refs&);
    if constexpr (Selected) {
      return static_cast<fn>(&system_runner::run_system<I, Refs, Remembered>);
    } else {
      return static_cast<fn>(nullptr);
    }
  }
  // The threaded scheduler decides from every selected system's predicted
  // cost. A call it ran inline and unsplit, decided from fresh predictions,
  // is remembered (internal/inline_decisions.h) with its budget and each
  // system's growth limit: the work, and the entity counts, at which the
  // decision could change (the work off the critical path reaching
  // kInlineStepNs, or the largest system kMinSubtaskNs), assuming costs
  // grow with entity counts. A call it ran on threads is timed as a whole,
  // against the inline probes (inline_decisions.h: threads that do not
  // pay).
  template <const auto& Selected, typename Run>
  static void decide_and_run(core_type& core, Run& run, const void* key) {
    const prediction_summary predicted = summarize_predictions(core, Selected);
    // A step too small for threads (every system measured, the total below
    // both the work a step needs before it uses the pool and the work a
    // system needs before it splits) runs as the sequential scheduler
    // would: hand_off::never makes the threaded scheduler skip its ranking
    // (the systems' own decisions still use the context's policy, and take
    // the same answers). Sampling steps take the full path.
    constexpr std::int64_t small = std::min(hand_off_policy::kInlineStepNs,
                                            hand_off_policy::kMinSubtaskNs);
    const bool too_small = core.measures_costs() && !core.samples_costs() &&
                           predicted.all_known && predicted.total < small;
    auto& decisions = core.inline_decisions();
    const bool timed = core.measures_costs();
    const std::int64_t start = timed ? trace_span::now_ns() : 0;
    const step_decision decision =
        Types::scheduler_type::template execute<system_list, Selected>(
            core.pool(), run,
            [&core](std::size_t id) { return core.predicted_ns(id); },
            too_small ? strata::hand_off_policy(hand_off::never)
                      : core.hand_off_policy());
    const std::int64_t elapsed = timed ? trace_span::now_ns() - start : 0;
    const bool split = decisions.take_split();
    if (!timed) return;
    if (decision.used_pool || split) {
      // Timed against the probes' inline runs.
      decisions.record(key, /*on_threads=*/true, elapsed);
      if (decisions.inline_wins(key)) {
        context_internal::remember_threads_lose<Selected>(core, key);
      }
      return;
    }
    if (!predicted.all_fresh) return;
    // Without a ranking (too small), the whole total counts as off the
    // critical path: a lower limit, never a wrong one.
    const std::int64_t off_critical =
        too_small ? predicted.total : decision.off_critical_ns;
    const double headroom = std::max(
        1.0, std::min(static_cast<double>(hand_off_policy::kInlineStepNs) /
                          static_cast<double>(
                              std::max<std::int64_t>(off_critical, 1)),
                      static_cast<double>(hand_off_policy::kMinSubtaskNs) /
                          static_cast<double>(
                              std::max<std::int64_t>(predicted.largest, 1))));
    for (std::size_t id = 0; id < system_count; ++id) {
      if (!Selected[id]) continue;
      auto& subscription = core.subscription(id);
      const double limit =
          static_cast<double>(subscription.raw_members().size()) * headroom;
      subscription.set_growth_limit(limit >= 1e18
                                        ? static_cast<std::size_t>(-1)
                                        : static_cast<std::size_t>(limit));
    }
    core.inline_decisions().remember(
        key, static_cast<std::int64_t>(static_cast<double>(predicted.total) *
                                       headroom));
  }

  // Runs system I through the adapter matching it (traced; a throw marks
  // the run failed). `Remembered`: the call runs by a remembered inline
  // decision (internal/inline_decisions.h), so the run is neither
  // predicted, measured nor split, all known at compile time: the same code
  // as under the sequential scheduler. Only the adapter call and the
  // subtask body are compiled per system; planning the run and recording
  // its cost work on the instance's runtime (internal/instance_runtime.h),
  // out of line and compiled once for every system of the same strategy
  // and state types. (`Remembered` stays a template parameter, not a
  // run-time flag: a flag would compile one variant less but add a branch
  // per system and step to the remembered path, which exists to be cheap;
  // //benchmarks/compile and the update benchmarks' 1-entity rows weigh
  // the two.) A for_subtasks adapter is called through subtask_call, one
  // type for both variants: one subtask body per system, at the price of
  // one more frame in GCC's notes on a mistake in a system's code
  // (settings/diagnostic.h).
  template <std::size_t I, typename Refs, bool Remembered>
  static void run_system(context_core<Types>& core, Refs& adapters) {
    using system_type = typename system_list::template system_at<I>;
    constexpr std::size_t which = []<typename... A>(
                                      std::type_identity<std::tuple<A...>>) {
      return first_matching_adapter<system_type, std::remove_cvref_t<A>...>();
    }(std::type_identity<Refs>{});
    auto& adapter = std::get<which>(adapters);
    auto& instance = core.template instance<I>();
    if constexpr (std::remove_reference_t<
                      decltype(instance)>::signature_type::has_change_filter) {
      core.changes().template begin_filtered_run<I>(instance);
    }
    using signature =
        typename std::remove_reference_t<decltype(instance)>::signature_type;
    if constexpr (size_v<typename signature::received_types> != 0) {
      // The effect channel: the messages it receives, before its subtasks.
      context_internal::gather_messages<Types>(core, instance);
    }
    run_plan plan;
    if constexpr (Remembered) {
      prepare_remembered(core, instance.runtime());
    } else {
      plan = plan_run(core, instance.runtime());
    }
    subtask_executor<Types, I> executor(core, instance, plan.parallel,
                                        plan.measure);
    if constexpr (Types::trace_enabled) instance.run_span.begin();
    try {
      if constexpr (std::remove_cvref_t<decltype(adapter)>::kind ==
                    execution_adapter::adapter_kind::detailed) {
        adapter.callable(instance, executor);
      } else {
        executor.run_each_subtask(subtask_call(executor, adapter));
      }
    } catch (...) {
      if constexpr (Types::trace_enabled) instance.run_span.end();
      instance.discard_run();
      throw;
    }
    if constexpr (Types::trace_enabled) instance.run_span.end();
    if (plan.measure && !executor.measured()) [[unlikely]] {
      record_cost(instance.runtime(), plan.start_ns);
    }
  }

  // One subtask of a for_subtasks adapter: the adapter's callable on the
  // system and the subtask's data proxy. Made here, outside run_system, so
  // that both variants of a system's run (remembered or not) share this one
  // type, and its subtask body (internal/subtask_loop.h) is compiled once
  // per system, not twice. The callable is called here,
  // not in a further helper, to keep the notes on a mistake in a system's
  // code few.
  template <std::size_t I, typename Adapter>
  static auto subtask_call(subtask_executor<Types, I>& executor,
                           Adapter& adapter) {
    return [&executor, &adapter](std::size_t subtask) {
      auto data = executor.data_of(subtask);
      adapter.callable(executor.subtask_system(), data);
    };
  }

  // How a system runs this time: split over the pool or not, measured or
  // not (and since when). Prepares its subtasks. Out of line: one call per
  // system run, against a copy per system.
  struct run_plan {
    bool parallel = false;
    bool measure = false;
    std::int64_t start_ns = 0;
  };
  template <typename Runtime>
  [[gnu::noinline]] static void prepare_remembered(core_type& core,
                                                   Runtime& runtime) {
    runtime.prepare_subtasks(core.thread_count(),
                             Types::inner_parallelism_allowed,
                             core.step_count());
  }
  template <typename Runtime>
  [[gnu::noinline]] static run_plan plan_run(core_type& core,
                                             Runtime& runtime) {
    // Hand-off decisions (scheduler/hand_off.h): measured only where they
    // matter, i.e. under a threaded scheduler deciding automatically.
    const hand_off_policy policy = core.hand_off_policy();
    const bool deciding = core.measures_costs();
    const std::int64_t predicted =
        deciding ? runtime.cost().predict(runtime.entity_count())
                 : run_cost::unknown;
    const bool measure =
        deciding && (core.samples_costs() || runtime.cost().needs_measuring());
    const std::int64_t strategy_hint =
        policy.mode == hand_off::always
            ? std::numeric_limits<std::int64_t>::max()
        : policy.mode == hand_off::never ? run_cost::unknown
                                         : predicted;
    runtime.prepare_subtasks(core.thread_count(),
                             Types::inner_parallelism_allowed,
                             core.step_count(), strategy_hint);
    const bool parallel =
        Types::inner_parallelism_allowed && core.runs_in_parallel() &&
        policy.worth_splitting(predicted, runtime.subtask_count());
    if (parallel) core.inline_decisions().note_split();
    return {.parallel = parallel,
            .measure = measure,
            .start_ns = measure ? trace_span::now_ns() : 0};
  }
  template <typename Runtime>
  [[gnu::noinline]] static void record_cost(Runtime& runtime,
                                            std::int64_t start_ns) {
    runtime.cost().record(trace_span::now_ns() - start_ns,
                          runtime.entity_count());
  }

  // What the selected systems' predictions add up to: the total, the
  // largest, whether every system was measured before, and whether every
  // prediction is fresh (measured, and not marked stale since).
  struct prediction_summary {
    std::int64_t total = 0;
    std::int64_t largest = 0;
    bool all_known = true;
    bool all_fresh = true;
  };
  static prediction_summary summarize_predictions(
      core_type& core, const std::array<bool, system_count>& selected) {
    prediction_summary summary;
    for (std::size_t id = 0; id < system_count; ++id) {
      if (!selected[id]) continue;
      const std::int64_t predicted = core.predicted_ns(id);
      summary.all_known &= predicted != run_cost::unknown;
      summary.all_fresh &= !core.cost_of(id).needs_measuring();
      summary.total += predicted;
      summary.largest = std::max(summary.largest, predicted);
    }
    return summary;
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
