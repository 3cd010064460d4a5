// A hook on a component no component signature stores, the hooks set
// before the components (make_context reports it).
#include "context/testdata/fixture.h"

constexpr auto hooks = strata::component_hooks(
    strata::hook(strata::testing::ct::health)
        .on_remove(
            [](auto&, strata::entity_id, const strata::testing::health&) {}));
constexpr auto settings =
    strata::settings().hooks(hooks).component_signatures(components);

int main() { run_once<settings>(); }
