// A system filters on a component no component signature stores, the
// systems set before the components (make_context reports it).
#include "context/testdata/fixture.h"

struct watcher {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto settings =
    strata::settings()
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<watcher>)
                .read(strata::testing::ct::health)
                .added(strata::testing::ct::health)))
        .component_signatures(components);

int main() { run_once<settings>(); }
