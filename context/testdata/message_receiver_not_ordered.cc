// A system receives a type another system sends without depending on it:
// it could run before the messages are sent.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct shooter {
  template <typename Data>
  void process(Data&) const {}
};
struct hull {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<shooter>).sends<damage>(),
    strata::system_signature::make(strata::tag<hull>).receives<damage>());
constexpr auto settings = strata::settings()
                              .component_signatures(components)
                              .system_signatures(systems);

int main() { run_once<settings>(); }
