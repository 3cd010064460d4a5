// data.for_each naming a component the system reads only optionally: its
// entities may lack it.
#include "context/testdata/fixture.h"

struct mover {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](strata::testing::position& p,
                     const strata::testing::velocity& v) { p.x += v.x; });
  }
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<mover>)
                      .write(ct::position)
                      .read_optional(ct::velocity));

int main() { run_once<settings>(); }
