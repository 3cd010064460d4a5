#include "context/testdata/fixture.h"

struct counter {
  template <typename Data>
  void process(Data& data) {
    data.output() = 1;
  }
};

int main() {
  run_once(strata::settings()
               .component_signatures(components)
               .system_signatures(strata::system_signatures(
                   strata::ss::make(strata::tag<counter>).read(ct::position))));
}
