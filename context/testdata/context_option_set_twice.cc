#include "context/testdata/fixture.h"

constexpr auto settings =
    strata::settings().threads(2).component_signatures(components).threads(4);
