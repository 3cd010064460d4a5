// A system orders by a component it neither reads nor writes.
#include "context/testdata/fixture.h"

struct drawer {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<drawer>)
        .read(ct::velocity)
        .ordered_by(ct::position,
                    strata::order_by_member<&strata::testing::position::x>));

int main() { run_once<settings>(); }
