// A hook uses a resource it does not declare (the settings do).
#include "context/testdata/fixture.h"

struct score {
  int points = 0;
};

constexpr auto hooks = strata::component_hooks(
    strata::hook(ct::position)
        .on_add([](auto& proxy, strata::entity_id, strata::testing::position&) {
          ++proxy.template resource<score>().points;
        }));
constexpr auto settings =
    settings_with()
        .resources(strata::resources(strata::resource<score>))
        .hooks(hooks);

int main() { run_once<settings>(); }
