// A system that may split reaches a write() component by id with try_get.
#include "context/testdata/fixture.h"

struct hunter {
  strata::entity_id prey;
  template <typename Data>
  void process(Data& data) const {
    if (auto* p = data.try_get(ct::position, prey)) p->x = 0;
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<hunter>)
        .write(ct::position)
        .parallelism(strata::inner_parallelism::split_every_n(64)));

int main() { run_once<settings>(); }
