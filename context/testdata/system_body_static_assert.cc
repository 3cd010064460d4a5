// The control of the compile-fail suite: the user's own static_assert in a
// system's process, with the settings of split_previous_output_write. Its
// notes are the frames every mistake found in a system prints (the
// system's process, the driver's lambdas, the step, the systems' call), so
// its size is the floor of the by_value variants that spell the settings
// type.
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
  void process(Data&) const {
    static_assert(sizeof(Data) == 0, "the user's own mistake");
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<producer>).output<hits>(),
    strata::system_signature::make(strata::tag<consumer>)
        .read(ct::position)
        .dependencies(strata::tag<producer>));

int main() { run_once<settings>(); }
