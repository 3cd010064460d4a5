// Settings with a hierarchy, and a driver taking settings by value, for
// the hierarchy compile-fail tests.
#ifndef STRATA_CONTEXT_TESTDATA_HIERARCHY_FIXTURE_H_
#define STRATA_CONTEXT_TESTDATA_HIERARCHY_FIXTURE_H_

#include "context/testdata/fixture.h"

constexpr auto hierarchy_settings_with(auto... system_signatures) {
  return split_settings_with(system_signatures...)
      .hierarchy(strata::kill_children);
}

template <typename Settings>
void run_game(Settings settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

#endif  // STRATA_CONTEXT_TESTDATA_HIERARCHY_FIXTURE_H_
