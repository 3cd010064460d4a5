// A system orders by position with a comparator of another type.
#include "context/testdata/fixture.h"

struct drawer {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<drawer>)
        .read(ct::position)
        .ordered_by(ct::position, [](int a, int b) { return a < b; }));

int main() { run_once<settings>(); }
