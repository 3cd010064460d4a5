// A hook on a component no component signature stores, with the settings
// passed by value through a template (the hooks set before the components:
// make_context reports it).
#include "context/testdata/fixture.h"

constexpr auto hooks = strata::component_hooks(
    strata::hook(strata::testing::ct::health)
        .on_remove(
            [](auto&, strata::entity_id, const strata::testing::health&) {}));

template <typename Settings>
void run_game(Settings settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto&) {});
}

int main() {
  run_game(strata::settings().hooks(hooks).component_signatures(components));
}
