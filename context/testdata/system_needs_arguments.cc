#include "context/testdata/fixture.h"

struct scaled {
  explicit scaled(int factor) : factor(factor) {}
  int factor;
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings = strata::settings()
                              .component_signatures(components)
                              .system_signatures(strata::system_signatures(
                                  strata::ss::make(strata::tag<scaled>)));

int main() { run_once<settings>(); }
