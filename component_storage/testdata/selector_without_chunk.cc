// Must not compile: a storage selector with no nested chunk template.
#include "component_storage/component_storage.h"
#include "testing/components.h"

using strata::testing::position;

struct not_a_selector {};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(strata::tag<position>)
        .storage(not_a_selector{}));

strata::component_storage<decltype(components), strata::fixed_limit<8>> storage;
