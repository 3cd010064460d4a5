// Run options: what a program picks at run time (from its command line, a
// config file) without changing the context's type.
//
//   constexpr auto settings = strata::settings()
//       .component_signatures(components)
//       .system_signatures(systems)
//       .scheduler(strata::scheduler::atomic_counter);
//
//   auto ctx = strata::make_context<settings>(
//       strata::run_options()
//           .threads(flags.threads)                      // 0: hardware
//           .scheduler(flags.sequential ? strata::scheduler_kind::sequential
//                                       :
//                                       strata::scheduler_kind::atomic_counter)
//           .hand_off(strata::hand_off::automatic)
//           .reserve_entities(flags.entities));
//
// Why: the settings are a type, and a context's code is compiled per
// settings type. Settings held by a named constant give the shortest
// compiler messages (make_context<settings>(), context/context.h), but a
// constant cannot hold a thread count read from `--threads`; settings built
// at run time and passed by value work, at the price of messages that spell
// the whole settings type. Run options keep the settings a constant and
// carry the run-time numbers beside them. Choosing the scheduler at run
// time the obvious way (a template instantiated once per scheduler) compiles
// the whole context twice; a context whose settings choose the
// atomic_counter scheduler can instead run as the sequential scheduler when
// the run options say so: one context type, both schedulers.
//
// Each option overrides the settings' value; an option not given keeps it:
//   * threads(n): threads that run systems, the caller included (0: every
//     hardware thread), as settings().threads(n). An executor given with
//     strata::run_on(jobs) still decides the thread count (context.h);
//   * scheduler(kind): scheduler_kind::sequential runs the systems and their
//     subtasks one after another on the calling thread, exactly as
//     strata::scheduler::sequential does (same order, same subtask slices,
//     no cost measurement); scheduler_kind::atomic_counter runs them as
//     strata::scheduler::atomic_counter. The settings' scheduler decides
//     what is compiled: a context whose settings choose the sequential
//     scheduler has no parallel scheduler, and asking it for atomic_counter
//     is a check failure naming the fix (choose atomic_counter in the
//     settings), never a silently sequential run;
//   * hand_off(mode): as settings().hand_off(mode) (scheduler/hand_off.h);
//   * reserve_entities(n): the initial capacity of a dynamic entity limit,
//     as settings().dynamic_entity_limit(n); with a fixed limit (which
//     sizes itself) it is a check failure.
// Every option may be set once per run_options value (a second call of the
// same setter overrides the first, as assignments do); make_context takes
// at most one run_options (a second is a compile error).
//
// A plain value: copyable, no allocation, nothing shared.
#ifndef STRATA_CONTEXT_RUN_OPTIONS_H_
#define STRATA_CONTEXT_RUN_OPTIONS_H_

#include <cstddef>
#include <optional>
#include <utility>

#include "scheduler/hand_off.h"

namespace strata {

// Which scheduler a context runs its systems with (run_options::scheduler).
enum class scheduler_kind {
  sequential,      // strata::scheduler::sequential
  atomic_counter,  // strata::scheduler::atomic_counter
};

class run_options {
 public:
  constexpr run_options() = default;

  constexpr run_options& threads(std::size_t n) & {
    threads_ = n;
    return *this;
  }
  constexpr run_options&& threads(std::size_t n) && {
    return std::move(threads(n));
  }
  constexpr run_options& scheduler(scheduler_kind kind) & {
    scheduler_ = kind;
    return *this;
  }
  constexpr run_options&& scheduler(scheduler_kind kind) && {
    return std::move(scheduler(kind));
  }
  constexpr run_options& hand_off(strata::hand_off mode) & {
    hand_off_ = mode;
    return *this;
  }
  constexpr run_options&& hand_off(strata::hand_off mode) && {
    return std::move(hand_off(mode));
  }
  constexpr run_options& reserve_entities(std::size_t n) & {
    reserve_entities_ = n;
    return *this;
  }
  constexpr run_options&& reserve_entities(std::size_t n) && {
    return std::move(reserve_entities(n));
  }

  // What was set (std::nullopt: keep the settings' value).
  constexpr std::optional<std::size_t> threads() const { return threads_; }
  constexpr std::optional<scheduler_kind> scheduler() const {
    return scheduler_;
  }
  constexpr std::optional<strata::hand_off> hand_off() const {
    return hand_off_;
  }
  constexpr std::optional<std::size_t> reserve_entities() const {
    return reserve_entities_;
  }

 private:
  std::optional<std::size_t> threads_;
  std::optional<scheduler_kind> scheduler_;
  std::optional<strata::hand_off> hand_off_;
  std::optional<std::size_t> reserve_entities_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_RUN_OPTIONS_H_
