// Optional access races like required access: two unordered systems, one
// writing velocity optionally, the other reading it.
#include "context/testdata/fixture.h"

struct pusher {
  template <typename Data>
  void process(Data&) {}
};
struct reader {
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings =
    strata::settings()
        .component_signatures(components)
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<pusher>)
                .read(ct::position)
                .write_optional(ct::velocity),
            strata::system_signature::make(strata::tag<reader>)
                .read(ct::position, ct::velocity)));

int main() { run_once<settings>(); }
