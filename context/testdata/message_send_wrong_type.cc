// A system declares .sends<damage>() but sends an int: a value of another
// type is not converted, and is named in the report.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct shooter {
  template <typename Data>
  void process(Data& data) const {
    data.for_each(
        [&](strata::entity_id self, const strata::testing::position&) {
          data.send(self, self, 3);
        });
  }
};

constexpr auto settings =
    split_settings_with(strata::system_signature::make(strata::tag<shooter>)
                            .read(ct::position)
                            .sends<damage>());

int main() { run_once<settings>(); }
