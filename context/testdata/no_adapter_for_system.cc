#include "context/testdata/fixture.h"

struct a {
  template <typename Data>
  void process(Data&) {}
};
struct b {
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<a>),
                  strata::system_signature::make(strata::tag<b>));

int main() {
  auto ctx = make_test_context<settings>();
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::t(strata::tag<a>)
                                .for_subtasks([](auto& system, auto& data) {
                                  system.process(data);
                                }));
  });
}
