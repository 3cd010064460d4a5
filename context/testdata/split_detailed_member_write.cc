// The same through a detailed_instance adapter: executor.for_subtasks gives
// its callable the system as const system&, so writing a member from a
// subtask is the compiler's own const error.
#include "context/testdata/fixture.h"

struct counter {
  int seen = 0;
};

constexpr auto settings = split_settings_with(
    strata::system_signature::make(strata::tag<counter>).read(ct::position));

int main() {
  auto ctx = make_test_context<settings>();
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().detailed_instance(
        [](auto&, auto& executor) {
          executor.for_subtasks([](auto& system, auto&) { system.seen = 1; });
        }));
  });
}
