// Two unordered systems, one writing a resource the other reads.
#include "context/testdata/fixture.h"

struct grid {
  int cells = 0;
};
struct builder {
  template <typename Data>
  void process(Data&) {}
};
struct reader {
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings =
    strata::settings()
        .component_signatures(components)
        .resources(strata::resources(strata::resource<grid>))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<builder>)
                .write_resource<grid>(),
            strata::system_signature::make(strata::tag<reader>)
                .read_resource<grid>()));

int main() { run_once<settings>(); }
