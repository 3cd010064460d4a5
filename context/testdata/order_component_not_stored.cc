// A system orders by a component no component signature stores.
#include "context/testdata/fixture.h"

struct drawer {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto settings =
    settings_with(strata::ss::make(strata::tag<drawer>)
                      .read(strata::testing::ct::health)
                      .ordered_by(strata::testing::ct::health));

int main() { run_once<settings>(); }
