// What make_context accepts after the settings, beside run options
// (context/run_options.h): constructor arguments for systems, and an
// engine's job system to run on.
//
//   auto ctx = strata::make_context<settings>(
//       strata::system_arguments(st::render, window, 1080),  // render(...)
//       strata::run_on(engine_jobs));  // runs on the engine's threads
//
// system_arguments(st::x, args...) stores decayed copies of args; the
// context constructs system x from them once, in make_context (a system
// that is not default-constructible and gets none is a compile error naming
// it). When several name the same system, the first is used.
//
// run_on(jobs) keeps a pointer: `jobs` must outlive the context. At most
// one run_on per context (a second is a compile error).
//
// Plain values: copy them freely. Thread-safety: none needed; they are
// read once, by make_context.
#ifndef STRATA_CONTEXT_CONTEXT_ARGUMENTS_H_
#define STRATA_CONTEXT_CONTEXT_ARGUMENTS_H_

#include <tuple>
#include <type_traits>
#include <utility>

#include "context/run_options.h"
#include "meta/tag.h"
#include "threading/executor.h"

namespace strata {

// Arguments for constructing one system in make_context().
template <typename System, typename... Args>
struct system_arguments_t {
  using system_type = System;
  std::tuple<Args...> arguments;
};

template <tag_value System, typename... Args>
constexpr auto system_arguments(System, Args&&... args) {
  return system_arguments_t<tag_type<System>, std::decay_t<Args>...>{
      {std::forward<Args>(args)...}};
}

template <typename T>
inline constexpr bool is_system_arguments_v = false;
template <typename S, typename... A>
inline constexpr bool is_system_arguments_v<system_arguments_t<S, A...>> = true;

// make_context(settings, strata::run_on(jobs)): the context runs its tasks
// on an engine's job system (threading/executor.h) and starts no threads of
// its own. It then has jobs.concurrency() + 1 threads (the caller's
// included), whatever threads(n) says. `jobs` must outlive the context.
struct run_on_t {
  executor* external;
};
inline run_on_t run_on(executor& jobs) { return {&jobs}; }

// What make_context accepts after the settings: system arguments, an
// executor, run options (context/run_options.h).
template <typename T>
inline constexpr bool is_context_argument_v =
    is_system_arguments_v<T> || std::is_same_v<T, run_on_t> ||
    std::is_same_v<T, run_options>;

}  // namespace strata

#endif  // STRATA_CONTEXT_CONTEXT_ARGUMENTS_H_
