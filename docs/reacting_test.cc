// The snippets of docs/guide/09-reacting-to-change.md, compiled and run. The
// text between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <cstddef>
#include <set>
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
    strata::system_signature::make(st::movement)
        .read(ct::velocity)
        .write(ct::position),
    strata::system_signature::make(st::grid_update)
        .read(ct::position)
        .changed(ct::position)  // must be in read() or write()
        .dependencies(st::movement),
    strata::system_signature::make(st::collider_setup)
        .read(ct::body)
        .added(ct::body));
// --- end snippet ---

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity),
            strata::component_signature::make(ct::body).sparse()))
        .system_signatures(systems);

TEST(ReactingTest, OnlyChangedEntitiesAreVisited) {
  auto ctx = strata::make_context(settings);
  // --- snippet: steps ---
  const auto run = strata::execution_adapter::all().for_subtasks(
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

// --- snippet: hooks ---
// What a physics engine would keep per body: here, the set of registered ids.
struct physics_world {
  std::set<strata::entity_id> bodies;
  float released_radius = 0;
};

constexpr auto hooks = strata::component_hooks(
    strata::hook(ct::body)
        .on_add([](auto& proxy, strata::entity_id e, body&) {
          proxy.template resource<physics_world>().bodies.insert(e);
        })
        .on_remove([](auto& proxy, strata::entity_id e, const body& b) {
          auto& world = proxy.template resource<physics_world>();
          world.bodies.erase(e);
          world.released_radius += b.radius;  // the value is still readable
        })
        .resources(strata::resource<physics_world>));

constexpr auto hooked_settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity),
            strata::component_signature::make(ct::body).sparse()))
        .resources(strata::resources(strata::resource<physics_world>))
        .hooks(hooks);
// --- end snippet ---

TEST(ReactingTest, HooksSeeAddsAndRemoves) {
  auto ctx = strata::make_context(hooked_settings);
  // --- snippet: hook-steps ---
  strata::entity_id a, b;
  ctx.step([&](auto& proxy) {
    a = proxy.create_entity();
    proxy.add_component(ct::body, a, 2.f);
    b = proxy.create_entity();
    proxy.add_component(ct::body, b, 3.f);
  });  // the refresh ran on_add for a, then b
  EXPECT_EQ(ctx.resource<physics_world>().bodies.size(), 2u);
  ctx.step([&](auto& proxy) {
    proxy.remove_component(ct::body, a);  // destroyed now, kept for the hook
    proxy.kill_entity(b);                 // its body goes with it
  });
  EXPECT_TRUE(ctx.resource<physics_world>().bodies.empty());
  EXPECT_EQ(ctx.resource<physics_world>().released_radius, 5.f);
  // --- end snippet ---
}

// --- snippet: observer ---
// Events for code outside systems: a hook queues them in a resource, the
// program drains it between steps.
struct body_events {
  std::vector<strata::entity_id> added;
};
constexpr auto observing_hooks = strata::component_hooks(
    strata::hook(ct::body)
        .on_add([](auto& proxy, strata::entity_id e, body&) {
          proxy.template resource<body_events>().added.push_back(e);
        })
        .resources(strata::resource<body_events>));
// --- end snippet ---

constexpr auto observing_settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity),
            strata::component_signature::make(ct::body).sparse()))
        .resources(strata::resources(strata::resource<body_events>))
        .hooks(observing_hooks);

TEST(ReactingTest, AnObserverDrainsWhatAHookQueued) {
  auto ctx = strata::make_context(observing_settings);
  strata::entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::body, e);
  });
  // --- snippet: drain ---
  auto& events = ctx.resource<body_events>();
  for (strata::entity_id added : events.added) {
    EXPECT_EQ(added, e);  // e.g. tell the UI
  }
  events.added.clear();
  // --- end snippet ---
}

}  // namespace
