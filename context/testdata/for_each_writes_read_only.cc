// A T& parameter of data.for_each for a component the system only reads.
#include "context/testdata/fixture.h"

struct mover {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](strata::testing::velocity& v) { v.x = 0; });
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<mover>).read(ct::velocity));

int main() { run_once<settings>(); }
