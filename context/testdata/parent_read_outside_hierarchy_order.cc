// data.parent in a system that does not declare .in_hierarchy_order().
#include "context/testdata/fixture.h"

struct follower {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, strata::testing::position& p) {
      if (const auto* up = data.parent(ct::position, e)) p.x = up->x;
    });
  }
};

inline constexpr auto settings = hierarchy_settings_with(
    strata::system_signature::make(strata::tag<follower>).write(ct::position));

int main() { run_once<settings>(); }
