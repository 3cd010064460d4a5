// In a system that may split, reading by id a component the system writes
// (data.read): another subtask may be writing that row.
#include "context/testdata/fixture.h"

struct follower {
  strata::entity_id leader;
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::testing::position& p) {
      p.x = data.read(ct::position, leader).x;
    });
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<follower>)
        .write(ct::position)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()));

int main() { run_once<settings>(); }
