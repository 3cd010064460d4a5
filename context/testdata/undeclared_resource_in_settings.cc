// A system signature uses a resource the context settings do not declare.
#include "context/testdata/fixture.h"

struct grid {
  int cells = 0;
};
struct builder {
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<builder>)
                      .write_resource<grid>());

int main() { run_once<settings>(); }
