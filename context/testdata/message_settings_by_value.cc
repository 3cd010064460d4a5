// The channel's rules hold when the settings reach make_context by value
// through a function template, as a user's driver passes them.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct shooter {
  template <typename Data>
  void process(Data& data) const {
    data.for_each(
        [&](strata::entity_id self, const strata::testing::position&) {
          data.send(self, self, 3);
        });
  }
};

template <typename Settings>
void run_game(Settings settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

int main() {
  run_game(
      split_settings_with(strata::system_signature::make(strata::tag<shooter>)
                              .read(ct::position)
                              .sends<damage>()));
}
