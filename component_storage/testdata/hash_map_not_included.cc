// Must not compile: .hash_map() storage without including
// component_storage/hash_map_chunk.h (component_storage.h leaves it out).
#include "component_storage/component_storage.h"
#include "testing/components.h"

using strata::testing::position;

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(strata::tag<position>).hash_map());

strata::component_storage<decltype(components), strata::fixed_limit<8>> storage;

int main() { return storage.count<position>() == 0 ? 0 : 1; }
