// The snippets of docs/guide/11-hierarchy.md, compiled and run. The text
// between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <cstddef>
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct local_offset {
  float x = 0, y = 0;
};
struct world_position {
  float x = 0, y = 0;
};
namespace ct {
inline constexpr auto local = strata::tag<local_offset>;
inline constexpr auto world = strata::tag<world_position>;
}  // namespace ct

// --- snippet: propagate ---
// world = parent's world + local offset, parents first.
struct propagate {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_with_parent(
        ct::world,  // the parent's world is handed in, null for a root
        [](const world_position* up, world_position& w, const local_offset& l) {
          w.x = (up ? up->x : 0) + l.x;
          w.y = (up ? up->y : 0) + l.y;
        });
  }
};
// --- end snippet ---
namespace st {
inline constexpr auto propagate = strata::tag<::propagate>;
}  // namespace st

// --- snippet: settings ---
constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::local, ct::world)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::propagate)
                .write(ct::world)
                .read(ct::local)
                .in_hierarchy_order()))     // parents before children
        .hierarchy(strata::kill_children);  // or strata::detach_children
// --- end snippet ---

TEST(HierarchyGuide, Everything) {
  auto ctx = strata::make_context<settings>();
  strata::entity_id tank, turret, gun;
  // --- snippet: set_parent ---
  ctx.step([&](auto& proxy) {
    tank = proxy.create_entity();
    turret = proxy.create_entity();
    gun = proxy.create_entity();
    for (strata::entity_id e : {tank, turret, gun}) {
      proxy.add_component(ct::local, e, 1.f, 0.f);
      proxy.add_component(ct::world, e);
    }
    proxy.set_parent(turret, tank);  // takes effect at the refresh
    proxy.set_parent(gun, turret);
  });
  // --- end snippet ---
  // --- snippet: queries ---
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  EXPECT_EQ(ctx.parent_of(gun), turret);
  EXPECT_EQ(ctx.depth_of(gun), 2u);
  EXPECT_EQ(ctx.root_of(gun), tank);
  for (strata::entity_id child : ctx.children_of(tank)) {
    EXPECT_EQ(child, turret);
  }
  EXPECT_EQ(ctx.get(ct::world, gun).x, 3.f);  // 1 + 1 + 1
  // --- end snippet ---
  // --- snippet: refusals ---
  std::vector<strata::refresh_event> events;
  ctx.observe_refresh(
      [&](const strata::refresh_event& e) { events.push_back(e); });
  ctx.step([&](auto& proxy) {
    proxy.set_parent(tank, gun);  // a cycle: refused, nothing changes
  });
  EXPECT_EQ(ctx.refused_parent_changes(), 1u);
  EXPECT_EQ(events[0].what, strata::refresh_event::kind::refused_parent);
  EXPECT_EQ(events[0].entity, tank);
  EXPECT_EQ(events[0].other, gun);
  // --- end snippet ---
  // --- snippet: cascade ---
  events.clear();
  ctx.step([&](auto& proxy) { proxy.kill_entity(tank); });
  // kill_children: the turret and the gun die at the same refresh.
  EXPECT_FALSE(ctx.alive(turret) || ctx.alive(gun));
  EXPECT_EQ(events[0].what, strata::refresh_event::kind::killed_with_parent);
  EXPECT_EQ(events[0].entity, turret);
  EXPECT_EQ(events[1].entity, gun);
  // --- end snippet ---
}

}  // namespace
