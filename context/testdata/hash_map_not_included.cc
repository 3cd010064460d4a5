// Must not compile: a context whose settings use .hash_map() storage, in a
// program that does not include component_storage/hash_map_chunk.h.
#include "context/testdata/fixture.h"

struct moves {
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position),
            strata::component_signature::make(ct::velocity).hash_map()))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<moves>)
                .write(ct::position)));

int main() { run_once<settings>(); }
