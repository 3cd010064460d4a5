// Shared declarations for the context's compile-fail tests.
#ifndef STRATA_CONTEXT_TESTDATA_FIXTURE_H_
#define STRATA_CONTEXT_TESTDATA_FIXTURE_H_

#include <cstddef>
#include <utility>

#include "context/context.h"
#include "testing/components.h"

namespace ct {
using strata::testing::ct::position;
using strata::testing::ct::velocity;
}  // namespace ct

inline constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity));

// Settings with the components above and these system signatures.
constexpr auto settings_with(auto... system_signatures) {
  return strata::settings()
      .component_signatures(components)
      .system_signatures(strata::system_signatures(system_signatures...));
}

// The same, allowing inner parallelism: systems without
// .parallelism(inner_parallelism::none()) may split.
constexpr auto split_settings_with(auto... system_signatures) {
  return settings_with(system_signatures...).allow_inner_parallelism();
}

// The same with a hierarchy (strata::kill_children).
constexpr auto hierarchy_settings_with(auto... system_signatures) {
  return split_settings_with(system_signatures...)
      .hierarchy(strata::kill_children);
}

// How a test makes its context. By default as users are advised to, with
// make_context<Settings>() (messages name the settings in a few words).
// cc_compile_fail_test(by_value = True) compiles each test a second time with
// STRATA_COMPILE_FAIL_BY_VALUE: the settings then get a thread count known
// only at run time and reach make_context by value through a function
// template, a driver such as a program that takes `--threads` writes. The
// step function is written by the driver's caller and handed to it (as a
// game loop takes its frame function). by_value_in_template = True compiles
// it a third time with STRATA_COMPILE_FAIL_IN_TEMPLATE as well: the driver
// writes its step function inside its own template, as most programs do, so
// every note that names one of its lambdas spells the settings type twice
// (the driver's template argument and its parameter). Every style must
// print the same message in one screen.
#ifdef STRATA_COMPILE_FAIL_BY_VALUE
inline std::size_t threads_from_command_line = 2;  // not a constant

template <typename Settings, typename... Extra>
auto make_context_by_value(Settings settings, Extra&&... extra) {
  return strata::make_context(settings, std::forward<Extra>(extra)...);
}

// The driver: makes the context from settings known at run time and runs
// one step of `step`.
template <typename Settings, typename Step>
void run_by_value(Settings settings, Step step) {
  auto ctx = strata::make_context(settings);
  ctx.step(step);
}

template <const auto& Settings, typename... Extra>
auto make_test_context(Extra&&... extra) {
  return make_context_by_value(Settings.threads(threads_from_command_line),
                               std::forward<Extra>(extra)...);
}

#ifdef STRATA_COMPILE_FAIL_IN_TEMPLATE
// The driver as a program writes it: makes the context from settings known
// at run time and runs one step whose lambdas it writes itself.
template <typename Settings>
void run(Settings settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

// Runs every system once with `process(data)`.
template <const auto& Settings>
void run_once() {
  run(Settings.threads(threads_from_command_line));
}
#else
// Runs every system once with `process(data)`.
template <const auto& Settings>
void run_once() {
  run_by_value(Settings.threads(threads_from_command_line), [](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}
#endif
#else
template <const auto& Settings, typename... Extra>
auto make_test_context(Extra&&... extra) {
  return strata::make_context<Settings>(std::forward<Extra>(extra)...);
}

// Runs every system once with `process(data)`.
template <const auto& Settings>
void run_once() {
  auto ctx = strata::make_context<Settings>();
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}
#endif

#endif  // STRATA_CONTEXT_TESTDATA_FIXTURE_H_
