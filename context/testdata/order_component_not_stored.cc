// A system orders by a component no component signature stores.
#include "context/testdata/fixture.h"

struct drawer {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<drawer>)
        .read(strata::testing::ct::health)
        .ordered_by(strata::testing::ct::health,
                    strata::order_by_member<&strata::testing::health::hp>));

int main() { run_once<settings>(); }
