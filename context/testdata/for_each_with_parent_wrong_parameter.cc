// data.for_each_with_parent whose callable takes the parent's component as
// a writable pointer (it must be const T*: the parent is read only).
#include "context/testdata/fixture.h"

using strata::testing::position;

struct follower {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_with_parent(ct::position, [](position* up, position& p) {
      if (up) up->x = p.x;
    });
  }
};

inline constexpr auto settings = hierarchy_settings_with(
    strata::system_signature::make(strata::tag<follower>)
        .write(ct::position)
        .in_hierarchy_order());

int main() { run_once<settings>(); }
