// data.for_each with a generic lambda: the components cannot be deduced.
#include "context/testdata/fixture.h"

struct mover {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](auto& p) { p.x = 0; });
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<mover>).write(ct::position));

int main() { run_once<settings>(); }
