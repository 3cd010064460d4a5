// The README's API tour, compiled and run so the README stays true. The text
// between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// README's code block NAME, character for character
// (//docs:check_snippets_test).
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

// --- snippet: tour ---
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
  void process(float dt, Data& data) const {
    // position& needs write(); const velocity& needs read() (or write()).
    data.for_each([dt](position& p, const velocity& v) {
      p.x += v.x * dt;
      p.y += v.y * dt;
    });
  }
};

struct census {  // counts moving entities, per subtask
  template <typename Data>
  void process(float, Data& data) const {
    data.output() = static_cast<int>(data.slice_entity_count());
  }
};

struct decay {  // kills entities whose health runs out
  template <typename Data>
  void process(float, Data& data) const {
    data.for_each([&](strata::entity_id e, health& h) {
      if (--h.hp <= 0) data.kill_entity(e);  // effective at the refresh
    });
  }
};

namespace st {  // system tags
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto census = strata::tag<::census>;
inline constexpr auto decay = strata::tag<::decay>;
}  // namespace st

// Position and velocity in contiguous SoA arrays; health in a packed sparse
// set.
constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity),
    strata::component_signature::make(ct::health).sparse());

constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::movement)
        .parallelism(strata::inner_parallelism::split_evenly_per_core())
        .read(ct::velocity)
        .write(ct::position),
    strata::system_signature::make(st::census)
        .read(ct::position)
        .dependencies(st::movement)  // without it: a compile-time data race
        .output<int>(),
    strata::system_signature::make(st::decay).write(ct::health));

constexpr auto settings = strata::settings()
                              .fixed_entity_limit<10'000>()
                              .allow_inner_parallelism()
                              .component_signatures(components)
                              .system_signatures(systems)
                              .scheduler(strata::scheduler::atomic_counter);
// --- end snippet ---

TEST(ReadmeExampleTest, TourRuns) {
  // --- snippet: tour-steps ---
  auto ctx = strata::make_context<settings>();
  ctx.step([](auto& proxy) {  // critical operations are allowed here
    for (int i = 0; i < 1000; ++i) {
      auto e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, 0.f);
      proxy.add_component(ct::velocity, e, 1.f, 2.f);
      proxy.add_component(ct::health, e, 1 + i % 3);
    }
  });  // the refresh: deferred work, then kills, then matching to systems
  int moving = 0;
  for (int frame = 0; frame < 3; ++frame) {
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(0.5f, data); }));
      moving = 0;
      proxy.for_system_outputs(st::census, [&](auto&, int& n) { moving += n; });
    });
  }
  // moving == 333: the third frame's census still counts the entities with
  // hp 3, since decay's kills apply at the refresh. Then none is left.
  // --- end snippet ---
  EXPECT_EQ(moving, 333);
  EXPECT_EQ(ctx.entity_count(), 0u);
  ctx.for_each([](const position& p) { ADD_FAILURE() << p.x; });
}

}  // namespace
