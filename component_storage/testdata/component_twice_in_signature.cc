#include "component_storage/component_signature.h"
#include "testing/components.h"

using strata::testing::position;

constexpr auto components =
    strata::component_signatures(strata::component_signature::make(
        strata::tag<position>, strata::tag<position>));
