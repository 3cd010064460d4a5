// The README's API tour, compiled and run so the README stays true.
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

// --- README tour begins ---
struct position {
  float x, y;
};
struct velocity {
  float x, y;
};
struct health {
  int hp;
};

namespace ct {  // component tags
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto health = strata::tag<::health>;
}  // namespace ct

struct movement {
  template <typename Data>
  void process(float dt, Data& data) {
    data.for_entities([&](strata::entity_id e) {
      auto& p = data.get(ct::position, e);        // writable: in write()
      const auto& v = data.get(ct::velocity, e);  // const: in read()
      p.x += v.x * dt;
      p.y += v.y * dt;
    });
  }
};

struct census {  // counts moving entities, per subtask
  template <typename Data>
  void process(float, Data& data) {
    data.output() = static_cast<int>(data.entity_count());
  }
};

struct decay {  // kills entities whose health runs out
  template <typename Data>
  void process(float, Data& data) {
    data.for_entities([&](strata::entity_id e) {
      if (--data.get(ct::health, e).hp <= 0) data.kill_entity(e);
    });
  }
};

namespace st {  // system tags
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto census = strata::tag<::census>;
inline constexpr auto decay = strata::tag<::decay>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::cs::make(ct::position, ct::velocity),  // contiguous, SoA
    strata::cs::make(ct::health).sparse());        // packed sparse set

constexpr auto systems = strata::system_signatures(
    strata::ss::make(st::movement)
        .parallelism(strata::ips::split_evenly_per_core())
        .read(ct::velocity)
        .write(ct::position),
    strata::ss::make(st::census)
        .read(ct::position)
        .dependencies(st::movement)  // without it: a compile-time data race
        .output<int>(),
    strata::ss::make(st::decay).write(ct::health));

constexpr auto settings = strata::settings()
                              .fixed_entity_limit<10'000>()
                              .allow_inner_parallelism()
                              .component_signatures(components)
                              .system_signatures(systems)
                              .scheduler(strata::scheduler::atomic_counter);
// --- README tour ends ---

TEST(ReadmeExampleTest, TourRuns) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {  // critical operations are allowed here
    for (int i = 0; i < 1000; ++i) {
      auto e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, 0.f);
      proxy.add_component(ct::velocity, e, 1.f, 2.f);
      proxy.add_component(ct::health, e, 1 + i % 3);
    }
  });  // refresh: deferred -> kill -> match
  int moving = 0;
  for (int frame = 0; frame < 3; ++frame) {
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(strata::sea::all().for_subtasks(
          [](auto& system, auto& data) { system.process(0.5f, data); }));
      moving = 0;
      proxy.for_system_outputs(st::census, [&](auto&, int& n) { moving += n; });
    });
  }
  // hp 1, 2, 3 for 334, 333, 333 entities: the third frame's census still
  // sees the 333 with hp 3 (decay's kills apply at the refresh).
  EXPECT_EQ(moving, 333);
  EXPECT_EQ(ctx.entity_count(), 0u);  // every health ran out by frame 3
}

}  // namespace
