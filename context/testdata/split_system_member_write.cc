// A system that may split writes its own member from process(): its
// subtasks share the system object, so they receive it as const system&,
// and calling a non-const process() is the compiler's own error (a member
// call has no hook for Strata's message; context/data_proxy.h).
#include "context/testdata/fixture.h"

struct counter {
  int seen = 0;
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](const strata::testing::position&) { ++seen; });
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<counter>).read(ct::position));

int main() { run_once<settings>(); }
