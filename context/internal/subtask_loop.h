// Internal to //context: running the subtasks of one system run, the part
// of it that does not depend on the system.
//
// run_subtasks(pool, states, count, options, body) calls body(i) for each
// subtask i in [0, count), concurrently on the pool when options.parallel
// (else in order on this thread), and around each call: clears the state's
// error, catches what it throws, measures it (options.measure) and traces
// it. Every subtask runs even if another throws; then the exception of the
// lowest subtask index is rethrown, whatever the thread count. When
// measured, the work (the sum of the subtasks' times, what one thread would
// have spent) is recorded in options.cost.
//
// Why apart: this is most of a run's code (the try/catch, the clock reads,
// the fork-join, the rethrow loop), and the part that depends on the system
// is one line (make a data proxy, call the user's function). Written per
// system it was compiled once per system; here it is compiled once per
// subtask state type (every system without an output shares one), and the
// per-system part reaches it as a subtask_body: a function pointer and a
// context pointer. One indirect call per subtask, not per entity.
#ifndef STRATA_CONTEXT_INTERNAL_SUBTASK_LOOP_H_
#define STRATA_CONTEXT_INTERNAL_SUBTASK_LOOP_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

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

// The general case, out of line.
template <typename State>
[[gnu::noinline]] void run_all_subtasks(thread_pool& pool, State* states,
                                        std::size_t count,
                                        const subtask_run_options& options,
                                        subtask_body body) {
  constexpr bool traced = is_traced_state<State>;
  const bool measure = options.measure;
  auto run = [states, measure, body](std::size_t subtask) {
    State& state = states[subtask];
    if (state.error) state.error = nullptr;  // (an out-of-line call)
    if constexpr (traced) state.span.begin();
    const std::int64_t start = measure ? trace_span::now_ns() : 0;
    try {
      body(subtask);
    } catch (...) {
      state.error = std::current_exception();
    }
    if (measure) state.elapsed_ns = trace_span::now_ns() - start;
    if constexpr (traced) state.span.end();
  };
  if (options.parallel && count > 1) {
    parallel_for(pool, count, run);
  } else {
    for (std::size_t i = 0; i < count; ++i) run(i);
  }
  if (measure) {
    std::int64_t work = 0;
    for (std::size_t i = 0; i < count; ++i) work += states[i].elapsed_ns;
    options.cost->record(work, options.entities);
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (auto& error = states[i].error) {
      std::rethrow_exception(std::exchange(error, nullptr));
    }
  }
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

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SUBTASK_LOOP_H_
