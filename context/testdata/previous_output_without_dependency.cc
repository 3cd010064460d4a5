#include "context/testdata/fixture.h"

struct producer {
  template <typename Data>
  void process(Data& data) {
    data.output() = 1;
  }
};
struct consumer {
  template <typename Data>
  void process(Data& data) {
    data.for_previous_outputs(strata::tag<producer>, [](auto&, int&) {});
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<producer>).output<int>(),
    strata::system_signature::make(strata::tag<consumer>));

int main() { run_once<settings>(); }
