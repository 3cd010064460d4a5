#include "context/testdata/fixture.h"

struct scaled {
  explicit scaled(int factor) : factor(factor) {}
  int factor;
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<scaled>));

int main() { run_once<settings>(); }
