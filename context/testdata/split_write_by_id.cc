// A system that may split (no .parallelism(...): the context's default,
// which splits when it pays) writes a component by id.
#include "context/testdata/fixture.h"

struct pusher {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities(
        [&](strata::entity_id e) { data.write(ct::position, e).x = 0; });
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<pusher>).write(ct::position));

int main() { run_once<settings>(); }
