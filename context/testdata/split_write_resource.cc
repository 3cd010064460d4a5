// A system that may split writes a resource: every subtask at once.
#include "context/testdata/fixture.h"

struct tally {
  int count = 0;
};

struct counter {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](const strata::testing::position&) {
      ++data.template resource<tally>().count;
    });
  }
};

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(components)
        .resources(strata::resources(strata::resource<tally>))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<counter>)
                .read(ct::position)
                .write_resource<tally>()));

int main() { run_once<settings>(); }
