// A system sends a message type its signature does not declare.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct shooter {
  template <typename Data>
  void process(Data& data) const {
    data.for_each(
        [&](strata::entity_id self, const strata::testing::position&) {
          data.send(self, self, damage{3});
        });
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<shooter>).read(ct::position));

int main() { run_once<settings>(); }
