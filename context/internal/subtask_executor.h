// The executor of one system's run: its subtasks, run in order or on the
// pool, each with its data proxy. A detailed_instance callable receives it
// (execution_adapter.h) and runs the subtasks with for_subtasks(f), or not
// at all; a for_subtasks adapter's callable is run through
// run_each_subtask by system_runner.h.
//
// Below the executor, the part of a run that does not depend on the
// system: run_subtasks(pool, states, count, options, body) calls body(i)
// for each subtask i in [0, count), concurrently on the pool when
// options.parallel (else in order on this thread), and around each call:
// clears the state's error, catches what it throws, measures it
// (options.measure) and traces it. When measured, the work (the sum of the
// subtasks' times, what one thread would have spent) is recorded in
// options.cost. It is most of a run's code (the try/catch, the clock reads,
// the fork-join, the rethrow loop), while the part that depends on the
// system is one line (make a data proxy, call the user's function): so it
// is compiled once per subtask state type (every system without an output
// shares one), and the per-system part reaches it as a subtask_body, a
// function pointer and a context pointer. One indirect call per subtask,
// not per entity.
//
// Thread-safety: one executor per run of one system, used by the thread
// running that system; the subtasks it starts may run on other threads
// (run_subtasks), each with its own subtask state.
// Exceptions: every subtask runs even if another throws; then the exception
// of the lowest subtask index is rethrown, whatever the thread count.
//
// Internal: users name it only as the parameter of a detailed_instance
// callable.
#ifndef STRATA_CONTEXT_INTERNAL_SUBTASK_EXECUTOR_H_
#define STRATA_CONTEXT_INTERNAL_SUBTASK_EXECUTOR_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "base/internal/standard_parts.h"
#include "context/data_proxy.h"
#include "context/execution_adapter.h"
#include "context/internal/ordered_loop.h"
#include "context/system_instance.h"
#include "context/trace.h"
#include "scheduler/hand_off.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata::context_internal {

// The per-system part of a subtask: calls the user's function for subtask
// `i` (data proxy included). Type-erased so run_subtasks is shared.
struct subtask_body {
  void (*call)(void* context, std::size_t subtask);
  void* context;
  void operator()(std::size_t subtask) const { call(context, subtask); }
};

// A subtask_body for `f`, a callable taking the subtask index (kept alive by
// the caller for the duration of run_subtasks).
template <typename F>
subtask_body make_subtask_body(F& f) {
  return {[](void* context, std::size_t subtask) {
            (*static_cast<F*>(context))(subtask);
          },
          &f};
}

struct subtask_run_options {
  bool parallel;  // on the pool (else in order on this thread)
  bool measure;   // time each subtask; record the work in `cost`
  run_cost* cost;
  std::size_t entities;  // what the recorded cost is per
};

template <typename State>
inline constexpr bool is_traced_state =
    std::is_same_v<std::remove_cvref_t<decltype(std::declval<State&>().span)>,
                   trace_span>;

// One subtask of run_all_subtasks, around its body: clears the state's
// error, catches what the body throws, measures it (`measure`) and traces it.
template <typename State>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void run_one_subtask(State& state,
                                                         std::size_t subtask,
                                                         bool measure,
                                                         subtask_body body) {
  if (state.error) state.error = nullptr;  // (an out-of-line call)
  if constexpr (is_traced_state<State>) state.span.begin();
  const std::int64_t start = measure ? run_cost::now_ns() : 0;
  try {
    body(subtask);
  } catch (...) {
    state.error = std::current_exception();
  }
  if (measure) state.elapsed_ns = run_cost::now_ns() - start;
  if constexpr (is_traced_state<State>) state.span.end();
}

// The work of a measured run (the sum of its subtasks' times, what one
// thread would have spent), recorded in options.cost.
template <typename State>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void record_work(
    const State* states, std::size_t count,
    const subtask_run_options& options) {
  std::int64_t work = 0;
  for (std::size_t i = 0; i < count; ++i) work += states[i].elapsed_ns;
  options.cost->record(work, options.entities);
}

// Rethrows the exception of the lowest subtask index that threw, if any
// (its state's error is cleared).
template <typename State>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void rethrow_first_error(
    State* states, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (auto& error = states[i].error) {
      std::rethrow_exception(std::exchange(error, nullptr));
    }
  }
}

// The general case, out of line.
template <typename State>
[[gnu::noinline]] void run_all_subtasks(thread_pool& pool, State* states,
                                        std::size_t count,
                                        const subtask_run_options& options,
                                        subtask_body body) {
  const bool measure = options.measure;
  auto run = [states, measure, body](std::size_t subtask) {
    run_one_subtask(states[subtask], subtask, measure, body);
  };
  if (options.parallel && count > 1) {
    parallel_for(pool, count, run);
  } else {
    for (std::size_t i = 0; i < count; ++i) run(i);
  }
  if (measure) record_work(states, count, options);
  rethrow_first_error(states, count);
}

template <typename State>
[[gnu::always_inline]] inline void run_subtasks(
    thread_pool& pool, State* states, std::size_t count,
    const subtask_run_options& options, subtask_body body) {
  // One subtask, unmeasured, untraced (every run of a small world under the
  // sequential scheduler): the body is all there is to do. Its exception
  // propagates as it is, which is what the rule above rethrows.
  if (count == 1 && !options.measure && !is_traced_state<State>) {
    if (states->error) states->error = nullptr;
    body(0);
    return;
  }
  run_all_subtasks(pool, states, count, options, body);
}

// One pass over every subtask of a run (`runtime`: a system's runtime or
// its instance, internal/instance_runtime.h): the pass begins, then
// run_subtasks with the run's options (`measure`: record the pass's work in
// the runtime's cost). Shared by system_runner::run_one_pass and
// subtask_executor::run_pass.
template <typename Runtime>
[[gnu::always_inline]] inline void run_pass_of(thread_pool& pool,
                                               Runtime& runtime, bool parallel,
                                               bool measure,
                                               subtask_body body) {
  runtime.begin_pass();
  context_internal::run_subtasks(pool, runtime.pass_states(),
                                 runtime.subtask_count(),
                                 {.parallel = parallel,
                                  .measure = measure,
                                  .cost = &runtime.cost(),
                                  .entities = runtime.subscribed_count()},
                                 body);
}

template <typename Types>
class system_runner;

// Runs a system's subtasks (given to detailed_instance callables).
template <typename Types, std::size_t I>
class subtask_executor {
  // Its call of a detailed_instance callable passes the instance.
  friend class system_runner<Types>;

 public:
  subtask_executor(context_core<Types>& core,
                   system_instance<Types, I>& instance, bool parallel,
                   bool measure)
      : core_(core),
        instance_(instance),
        parallel_(parallel),
        measure_(measure) {}

  // f(system, data_proxy&) once per subtask, the system as subtask_system()
  // gives it; concurrently when the context runs subtasks in parallel. Every
  // subtask runs even if another throws; then the exception of the lowest
  // subtask index is rethrown, whatever the thread count
  // (run_subtasks, shared by every system).
  // Always inlined into the system's run: a call per system and step
  // otherwise (GCC kept it out of line under the threaded scheduler).
  template <typename F>
  ABSL_ATTRIBUTE_ALWAYS_INLINE void for_subtasks(F&& f) {
    auto each = [&](std::size_t subtask) {
      data_proxy<Types, I> data = data_of(subtask);
      f(subtask_system(), data);
    };
    run_each_subtask(make_subtask_body(each));
  }

  // One subtask of a for_subtasks adapter: Call (system_runner.h's call
  // of the user's code, a lambda capturing nothing) on the adapter, this
  // executor and the subtask, as a subtask body for run_each_subtask. Its
  // run is the one function compiled per system between the shared
  // run_subtasks and the user's callable, and a subtask reaches the
  // executor and the adapter in one load each.
  template <typename Call, typename Adapter>
  struct bound_call {
    subtask_executor* executor;
    Adapter* adapter;
    static void run(void* self, std::size_t subtask) {
      const bound_call& bound = *static_cast<const bound_call*>(self);
      Call{}(*bound.adapter, *bound.executor, subtask);
    }
  };

  // What for_subtasks does, with the call to the user's callable made by
  // `body` (a subtask_body): one measured pass over the subtasks, or, for a
  // system declared .in_hierarchy_order(), one pass per depth level
  // (run_levels).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void run_each_subtask(subtask_body body) {
    using signature = typename system_instance<Types, I>::signature_type;
    // A system declared .ordered_by(ct::x): its order is brought up to date
    // first; its subtasks take chunks of it (internal/ordered_loop.h). (An
    // x no signature stores was reported by the settings.)
    if constexpr (signature::visits_in_component_order &&
                  Types::component_list::template stores<
                      typename signature::order_component_type>) {
      context_internal::update_order(core_, instance_);
    }
    if constexpr (signature::visits_in_hierarchy_order &&
                  Types::has_hierarchy) {
      run_levels(body);
    } else {
      measured_ = measure_;
      run_pass(body, measure_);
    }
  }
  data_proxy<Types, I> data_of(std::size_t subtask) {
    return data_proxy<Types, I>(core_, instance_, instance_.state(subtask),
                                subtask);
  }

  using system_type = typename system_instance<Types, I>::system_type;

  // The system this executor runs.
  auto& system() noexcept { return instance_.system(); }
  // The system as its subtasks receive it: `const system&` when they may run
  // at once (context_internal::may_split, data_proxy.h), so that state
  // shared by every subtask cannot be written from them; `system&` when the
  // system always runs as one subtask.
  decltype(auto) subtask_system() noexcept {
    using signature = typename system_instance<Types, I>::signature_type;
    if constexpr (context_internal::may_split<Types, signature>) {
      return static_cast<const system_type&>(instance_.system());
    } else {
      return (instance_.system());
    }
  }

  // Whether for_subtasks measured the run (a detailed_instance callable may
  // not call it).
  bool measured() const noexcept { return measured_; }

 private:
  // A system in hierarchy order runs its subtasks once per depth level,
  // one level after the other (internal/hierarchy_loop.h). Its passes are
  // unmeasured: a level's time over the system's entity count would
  // predict a fraction of a run, so the runner times the whole run instead
  // (measured() stays false).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void run_levels(subtask_body body) {
    const auto& storage = core_.hierarchy().storage;
    const std::size_t levels = std::max<std::size_t>(storage.level_count(), 1);
    for (std::size_t level = 0; level < levels; ++level) {
      if (level > 0 && storage.level(level).empty()) continue;
      instance_.hierarchy_level = level;
      run_pass(body, false);
    }
    instance_.hierarchy_level = 0;
  }

  // One run of every subtask (`measure`: record the run's work).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void run_pass(subtask_body body, bool measure) {
    context_internal::run_pass_of(core_.pool(), instance_, parallel_, measure,
                                  body);
  }

  context_core<Types>& core_;
  system_instance<Types, I>& instance_;
  bool parallel_;
  bool measure_;
  bool measured_ = false;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SUBTASK_EXECUTOR_H_
