// A small game on Strata, built by CMake or pkg-config (see check.sh): ships
// fly right; those inside the storm (x >= 10) lose one hit point per step and
// are destroyed at zero; a census sums the hit points left. Prints one line
// per step; the output is the same at every thread count and scheduler.
#include <cstdio>

#include "strata.h"

namespace arena {

struct position {
  int x, y;
};
struct velocity {
  int x, y;
};
struct health {
  int hp;
};

namespace ct {  // component tags
inline constexpr auto position = strata::tag<arena::position>;
inline constexpr auto velocity = strata::tag<arena::velocity>;
inline constexpr auto health = strata::tag<arena::health>;
}  // namespace ct

struct movement {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x;
      p.y += v.y;
    });
  }
};

struct storm {
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](strata::entity_id e, const position& p, health& h) {
      if (p.x >= 10 && --h.hp <= 0) data.kill_entity(e);  // at the refresh
    });
  }
};

struct census {  // hit points left, per subtask
  template <typename Data>
  void process(Data& data) {
    int hit_points = 0;
    data.for_each([&](const health& h) { hit_points += h.hp; });
    data.output() = hit_points;
  }
};

namespace st {  // system tags
inline constexpr auto movement = strata::tag<arena::movement>;
inline constexpr auto storm = strata::tag<arena::storm>;
inline constexpr auto census = strata::tag<arena::census>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .fixed_entity_limit<100>()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity),
            strata::component_signature::make(ct::health).sparse()))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::movement)
                .read(ct::velocity)
                .write(ct::position),
            strata::system_signature::make(st::storm)
                .read(ct::position)
                .write(ct::health)
                .dependencies(st::movement),
            strata::system_signature::make(st::census)
                .read(ct::health)
                .dependencies(st::storm)
                .output<int>()))
        .scheduler(strata::scheduler::atomic_counter);

}  // namespace arena

int main() {
  using namespace arena;
  auto ctx = strata::make_context<settings>();
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 8; ++i) {
      auto ship = proxy.create_entity();
      proxy.add_component(ct::position, ship, i, 0);
      proxy.add_component(ct::velocity, ship, 1 + i % 3, 1);
      proxy.add_component(ct::health, ship, 1 + i % 4);
    }
  });
  for (int step = 1; step <= 6; ++step) {
    int hit_points = 0;
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
      proxy.for_system_outputs(st::census,
                               [&](auto&, int& n) { hit_points += n; });
    });
    std::printf("step %d: %zu ships, %d hit points\n", step, ctx.entity_count(),
                hit_points);
  }
  return 0;
}
