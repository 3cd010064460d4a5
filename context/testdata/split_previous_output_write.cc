// A system that may split writes another system's output through
// for_previous_outputs: every subtask visits the same outputs, so they are
// given as const references (the compiler's own const error).
#include "context/testdata/fixture.h"

struct hits {
  int total = 0;
};

struct producer {
  template <typename Data>
  void process(Data& data) const {
    data.output().total = 1;
  }
};
struct consumer {
  template <typename Data>
  void process(Data& data) const {
    data.for_previous_outputs(strata::tag<producer>,
                              [](const auto&, auto& out) { out.total = 0; });
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<producer>).output<hits>(),
    strata::system_signature::make(strata::tag<consumer>)
        .read(ct::position)
        .dependencies(strata::tag<producer>));

int main() { run_once<settings>(); }
