// A system reads messages of a type its signature does not receive.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct shooter {
  template <typename Data>
  void process(Data&) const {}
};
struct hull {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, strata::testing::position& p) {
      p.x -=
          static_cast<float>(data.messages(strata::tag<damage>, self).size());
    });
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<shooter>).sends<damage>(),
    strata::system_signature::make(strata::tag<hull>)
        .write(ct::position)
        .dependencies(strata::tag<shooter>));

int main() { run_once<settings>(); }
