// The snippets of docs/guide/09-reacting-to-change.md, compiled and run. The
// text between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <cstddef>
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct position {
  float x = 0, y = 0;
};
struct velocity {
  float x = 0, y = 0;
};
struct body {
  float radius = 1;
};

// --- snippet: systems ---
// Moves the entities whose velocity is not zero.
struct movement {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) {  // position& : written
      p.x += v.x;
      p.y += v.y;
    });
  }
};
// Sees only the entities whose position was written since it last ran.
struct grid_update {
  std::vector<strata::entity_id> moved;
  template <typename Data>
  void process(Data& data) {
    moved.clear();
    data.for_each(
        [&](strata::entity_id e, const position&) { moved.push_back(e); });
  }
};
// Sees only the entities that gained a body since it last ran.
struct collider_setup {
  std::size_t new_bodies = 0;
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](strata::entity_id) { ++new_bodies; });
  }
};
// --- end snippet ---

namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto body = strata::tag<::body>;
}  // namespace ct
namespace st {
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto grid_update = strata::tag<::grid_update>;
inline constexpr auto collider_setup = strata::tag<::collider_setup>;
}  // namespace st

// --- snippet: signatures ---
constexpr auto systems = strata::system_signatures(
    strata::ss::make(st::movement).read(ct::velocity).write(ct::position),
    strata::ss::make(st::grid_update)
        .read(ct::position)
        .changed(ct::position)  // must be in read() or write()
        .dependencies(st::movement),
    strata::ss::make(st::collider_setup).read(ct::body).added(ct::body));
// --- end snippet ---

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::cs::make(ct::position, ct::velocity),
            strata::cs::make(ct::body).sparse()))
        .system_signatures(systems);

TEST(ReactingTest, OnlyChangedEntitiesAreVisited) {
  auto ctx = strata::make_context(settings);
  // --- snippet: steps ---
  const auto run = strata::sea::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); });
  strata::entity_id still, moving;
  ctx.step([&](auto& proxy) {
    still = proxy.create_entity();
    proxy.add_component(ct::position, still);
    moving = proxy.create_entity();
    proxy.add_component(ct::position, moving);
    proxy.add_component(ct::velocity, moving, 1.f, 0.f);
    proxy.add_component(ct::body, moving);
  });
  // First run: both positions were added, so both count as changed.
  ctx.step([&](auto& proxy) { proxy.execute_systems()(run); });
  ctx.step([&](auto& proxy) {
    EXPECT_EQ(proxy.system(st::grid_update).moved.size(), 2u);
    EXPECT_EQ(proxy.system(st::collider_setup).new_bodies, 1u);
  });
  // Later runs: movement writes only the moving entity's position.
  ctx.step([&](auto& proxy) { proxy.execute_systems()(run); });
  ctx.step([&](auto& proxy) {
    EXPECT_EQ(proxy.system(st::grid_update).moved,
              std::vector<strata::entity_id>{moving});
    EXPECT_EQ(proxy.system(st::collider_setup).new_bodies, 1u);
  });
  // --- end snippet ---
}

}  // namespace
