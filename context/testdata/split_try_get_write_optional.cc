// A system that may split reaches a write_optional() component by id.
#include "context/testdata/fixture.h"

struct braker {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, const strata::testing::position&) {
      if (auto* v = data.try_get(ct::velocity, e)) v->x = 0;
    });
  }
};

constexpr auto settings =
    split_settings_with(strata::system_signature::make(strata::tag<braker>)
                            .read(ct::position)
                            .write_optional(ct::velocity));

int main() { run_once<settings>(); }
