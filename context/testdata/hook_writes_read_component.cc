// A hook removes a component it declares read-only.
#include "context/testdata/fixture.h"

constexpr auto hooks = strata::component_hooks(
    strata::hook(ct::position)
        .on_remove([](auto& proxy, strata::entity_id e,
                      const strata::testing::position&) {
          proxy.remove_component(ct::velocity, e);
        })
        .reads(ct::velocity));
constexpr auto settings = settings_with().hooks(hooks);

int main() { run_once<settings>(); }
