// A hook adds a component it does not declare, with the settings passed by
// value through a template.
#include "context/testdata/fixture.h"

constexpr auto hooks = strata::component_hooks(
    strata::hook(ct::position)
        .on_add(
            [](auto& proxy, strata::entity_id e, strata::testing::position&) {
              proxy.add_component(ct::velocity, e, 1.f, 0.f);
            }));

template <typename Settings>
void run_game(Settings settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto&) {});
}

int main() { run_game(settings_with().hooks(hooks)); }
