// A system filters on a component no component signature stores, with the
// settings passed by value through a template (the systems set before the
// components).
#include "context/testdata/fixture.h"

struct watcher {
  template <typename Data>
  void process(Data&) const {}
};

template <typename Settings>
void run_game(Settings settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto&) {});
}

int main() {
  run_game(strata::settings()
               .system_signatures(strata::system_signatures(
                   strata::system_signature::make(strata::tag<watcher>)
                       .read(strata::testing::ct::health)
                       .added(strata::testing::ct::health)))
               .component_signatures(components));
}
