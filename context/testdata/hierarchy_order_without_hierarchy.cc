// .in_hierarchy_order() in a program whose settings declare no hierarchy,
// the settings passed by value through a function template.
#include "context/testdata/hierarchy_fixture.h"

struct propagate {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::testing::position& p) { p.x += 1; });
  }
};

int main() {
  run_game(
      split_settings_with(strata::system_signature::make(strata::tag<propagate>)
                              .write(ct::position)
                              .in_hierarchy_order()));
}
