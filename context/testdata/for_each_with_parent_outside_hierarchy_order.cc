// data.for_each_with_parent in a system that does not declare
// .in_hierarchy_order().
#include "context/testdata/fixture.h"

using strata::testing::position;

struct follower {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_with_parent(ct::position,
                              [](const position* up, position& p) {
                                if (up) p.x = up->x;
                              });
  }
};

inline constexpr auto settings = hierarchy_settings_with(
    strata::system_signature::make(strata::tag<follower>).write(ct::position));

int main() { run_once<settings>(); }
