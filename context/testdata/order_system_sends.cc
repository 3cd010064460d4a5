// A system declared ordered_by() sends messages (ordered by sender index).
#include "context/testdata/fixture.h"

struct ping {
  int value = 0;
};

struct drawer {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](strata::entity_id e) { data.send(e, e, ping{1}); });
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<drawer>)
        .read(ct::position)
        .ordered_by(ct::position,
                    strata::order_by_member<&strata::testing::position::x>)
        .sends<ping>());

int main() { run_once<settings>(); }
