// Must not compile: `get` of a component type no signature stores.
#include <bitset>

#include "component_storage/component_storage.h"
#include "testing/components.h"

using strata::testing::position;
using strata::testing::velocity;

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(strata::tag<position>));

void f(strata::component_storage<decltype(components), strata::dynamic_limit>&
           storage) {
  storage.get(strata::tag<velocity>, strata::entity_id::combine(0, 0)).x = 1;
}
