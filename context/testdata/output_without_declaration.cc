#include "context/testdata/fixture.h"

struct counter {
  template <typename Data>
  void process(Data& data) {
    data.output() = 1;
  }
};

constexpr auto settings =
    strata::settings()
        .component_signatures(components)
        .system_signatures(strata::system_signatures(
            strata::ss::make(strata::tag<counter>).read(ct::position)));

int main() { run_once<settings>(); }
