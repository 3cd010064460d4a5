// for_each_message in a system that may split: every subtask would apply
// every message.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct shooter {
  template <typename Data>
  void process(Data&) const {}
};
struct tally {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_message(strata::tag<damage>, [](const auto&) {});
  }
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<shooter>).sends<damage>(),
    strata::system_signature::make(strata::tag<tally>)
        .read(ct::position)
        .receives<damage>()
        .dependencies(strata::tag<shooter>));

int main() { run_once<settings>(); }
