#include "context/testdata/fixture.h"

struct counter {
  template <typename Data>
  void process(Data& data) {
    data.output() = 1;
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<counter>).read(ct::position));

int main() { run_once<settings>(); }
