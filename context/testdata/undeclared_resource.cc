// data.resource<T>() for a resource the system's signature does not declare.
#include "context/testdata/fixture.h"

struct grid {
  int cells = 0;
};

struct mover {
  template <typename Data>
  void process(Data& data) {
    data.template resource<grid>().cells = 1;
  }
};

constexpr auto settings =
    strata::settings()
        .component_signatures(components)
        .resources(strata::resources(strata::resource<grid>))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<mover>)
                .read(ct::position)));

int main() { run_once<settings>(); }
