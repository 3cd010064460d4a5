// A system declares both ordered_by() and in_hierarchy_order().
#include "context/testdata/fixture.h"

struct drawer {
  template <typename Data>
  void process(Data&) const {}
};

inline constexpr auto settings = hierarchy_settings_with(
    strata::system_signature::make(strata::tag<drawer>)
        .write(ct::position)
        .ordered_by(ct::position,
                    strata::order_by_member<&strata::testing::position::x>)
        .in_hierarchy_order());

int main() { run_once<settings>(); }
