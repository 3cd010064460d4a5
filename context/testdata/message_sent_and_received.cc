// A system receives the type it sends itself: it cannot run after itself.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct echo {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<echo>)
                      .sends<damage>()
                      .receives<damage>());

int main() { run_once<settings>(); }
