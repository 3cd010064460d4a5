// Shared declarations for the context's compile-fail tests.
#ifndef STRATA_CONTEXT_TESTDATA_FIXTURE_H_
#define STRATA_CONTEXT_TESTDATA_FIXTURE_H_

#include "context/context.h"
#include "testing/components.h"

namespace ct {
using strata::testing::ct::position;
using strata::testing::ct::velocity;
}  // namespace ct

inline constexpr auto components =
    strata::component_signatures(strata::cs::make(ct::position, ct::velocity));

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

// Runs every system once with `process(data)`, on a context made with
// make_context<Settings>(), as users are advised to (short messages).
template <const auto& Settings>
void run_once() {
  auto ctx = strata::make_context<Settings>();
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::sea::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

#endif  // STRATA_CONTEXT_TESTDATA_FIXTURE_H_
