// A system filters on a component no component signature stores.
#include "context/testdata/fixture.h"

struct watcher {
  template <typename Data>
  void process(Data&) const {}
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<watcher>)
                      .read(strata::testing::ct::health)
                      .changed(strata::testing::ct::health));

int main() { run_once<settings>(); }
