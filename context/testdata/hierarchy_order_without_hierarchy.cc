// .in_hierarchy_order() in a program whose settings declare no hierarchy.
#include "context/testdata/fixture.h"

struct propagate {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::testing::position& p) { p.x += 1; });
  }
};

inline constexpr auto settings =
    split_settings_with(strata::system_signature::make(strata::tag<propagate>)
                            .write(ct::position)
                            .in_hierarchy_order());

int main() { run_once<settings>(); }
