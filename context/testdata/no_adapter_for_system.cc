#include "context/testdata/fixture.h"

struct a {
  template <typename Data>
  void process(Data&) {}
};
struct b {
  template <typename Data>
  void process(Data&) {}
};

int main() {
  auto ctx =
      strata::make_context(strata::settings()
                               .component_signatures(components)
                               .system_signatures(strata::system_signatures(
                                   strata::ss::make(strata::tag<a>),
                                   strata::ss::make(strata::tag<b>))));
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::sea::t(strata::tag<a>)
                                .for_subtasks([](auto& system, auto& data) {
                                  system.process(data);
                                }));
  });
}
