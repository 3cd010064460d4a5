// A hook on a component no component signature stores: reported on the
// settings' line.
#include "context/testdata/fixture.h"

constexpr auto hooks = strata::component_hooks(
    strata::hook(strata::testing::ct::health)
        .on_add([](auto&, strata::entity_id, strata::testing::health&) {}));
constexpr auto settings = settings_with().hooks(hooks);

int main() { run_once<settings>(); }
