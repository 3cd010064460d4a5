#include "context/testdata/fixture.h"

struct mover {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](strata::entity_id e) {
      data.get(ct::position, e).x +=
          data.get(ct::velocity, e).x;  // velocity undeclared
    });
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<mover>).write(ct::position));

int main() { run_once<settings>(); }
