// data.for_each_with_parent whose callable takes the parent's component as
// a writable pointer, the settings passed by value through a function
// template.
#include "context/testdata/hierarchy_fixture.h"

using strata::testing::position;

struct follower {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_with_parent(ct::position, [](position* up, position& p) {
      if (up) up->x = p.x;
    });
  }
};

int main() {
  run_game(hierarchy_settings_with(
      strata::system_signature::make(strata::tag<follower>)
          .write(ct::position)
          .in_hierarchy_order()));
}
