// data.write() of a component the system only reads: Strata's message, not
// the compiler's const error (data.get gives a const T& there, and a write
// through it is the compiler's error: write_read_only.cc).
#include "context/testdata/fixture.h"

struct mover {
  template <typename Data>
  void process(Data& data) {
    data.for_entities(
        [&](strata::entity_id e) { data.write(ct::velocity, e).x = 0; });
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<mover>).read(ct::velocity));

int main() { run_once<settings>(); }
