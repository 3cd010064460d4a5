// Writing a resource declared with read_resource<T>() through
// data.resource<T>()'s const T&.
#include "context/testdata/fixture.h"

struct grid {
  int cells = 0;
};

struct builder {
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
            strata::system_signature::make(strata::tag<builder>)
                .read_resource<grid>()));

int main() { run_once<settings>(); }
