// A hook adds a component it does not declare.
#include "context/testdata/fixture.h"

constexpr auto hooks = strata::component_hooks(
    strata::hook(ct::position)
        .on_add(
            [](auto& proxy, strata::entity_id e, strata::testing::position&) {
              proxy.add_component(ct::velocity, e, 1.f, 0.f);
            }));
constexpr auto settings = settings_with().hooks(hooks);

int main() { run_once<settings>(); }
