// Must not compile: a component signature given .serialize_with twice.
#include "context/testdata/fixture.h"

struct io {};

constexpr auto settings = strata::settings().component_signatures(
    strata::component_signatures(strata::component_signature::make(ct::position)
                                     .serialize_with(io{})
                                     .serialize_with(io{})));

int main() { run_once<settings>(); }
