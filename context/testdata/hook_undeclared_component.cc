// A hook reads a component it does not declare.
#include "context/testdata/fixture.h"

constexpr auto copy_velocity = [](auto& proxy, strata::entity_id e,
                                  strata::testing::position& p) {
  p.x = proxy.get_component(ct::velocity, e).x;  // velocity: not declared
};
constexpr auto hooks =
    strata::component_hooks(strata::hook(ct::position).on_add(copy_velocity));
constexpr auto settings = settings_with().hooks(hooks);

int main() { run_once<settings>(); }
