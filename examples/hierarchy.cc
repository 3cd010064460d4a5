// Hierarchies: a small solar system (sun -> planets -> moons) whose world
// positions are propagated parents-first by a system declared
// .in_hierarchy_order(), then a re-parented probe and a cascading kill.
//
// Each body orbits its parent: `orbit` holds its radius, angle and angular
// speed (its position relative to the parent); `position` is where it is in
// the world. One system turns every orbit; the next, in hierarchy order,
// computes world = parent's world + the orbit's offset, level by level, so
// a moon always reads the position its planet got in the same step. Each
// level may be split across threads (hand_off::always here, to show it):
// the output is the same at every thread count (the example's test runs it
// at 1, 2 and 8).
//
//   bazel run //examples:hierarchy -- 8    # threads (default 1)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "strata.h"

struct orbit {
  double radius;
  double angle;
  double speed;  // radians per step
};
struct position {
  double x = 0;
  double y = 0;
};
namespace ct {
inline constexpr auto orbit = strata::tag<::orbit>;
inline constexpr auto position = strata::tag<::position>;
}  // namespace ct

struct turn_orbits {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](orbit& o) { o.angle += o.speed; });
  }
};

// world = parent's world + offset on the orbit. data.parent reads the
// parent's position, which the previous level wrote.
struct place_bodies {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id body, position& p, const orbit& o) {
      const position* center = data.parent(ct::position, body);
      p.x = (center ? center->x : 0) + o.radius * std::cos(o.angle);
      p.y = (center ? center->y : 0) + o.radius * std::sin(o.angle);
    });
  }
};

namespace st {
inline constexpr auto turn_orbits = strata::tag<::turn_orbits>;
inline constexpr auto place_bodies = strata::tag<::place_bodies>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::orbit),
            strata::component_signature::make(ct::position)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::turn_orbits).write(ct::orbit),
            strata::system_signature::make(st::place_bodies)
                .write(ct::position)
                .read(ct::orbit)
                .dependencies(st::turn_orbits)
                .parallelism(strata::inner_parallelism::split_evenly(2))
                .in_hierarchy_order()))
        .scheduler(strata::scheduler::atomic_counter)
        .hierarchy(strata::kill_children);  // a dead planet takes its moons

int main(int argc, char** argv) {
  const std::size_t threads = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1;
  auto ctx = strata::make_context<settings>(
      strata::run_options().threads(threads).hand_off(
          strata::hand_off::always));

  std::vector<std::pair<std::string, strata::entity_id>> bodies;
  ctx.step([&](auto& proxy) {
    const auto body = [&](const char* name, strata::entity_id parent,
                          double radius, double speed) {
      strata::entity_id e = proxy.create_entity();
      proxy.add_component(ct::orbit, e, radius, 0.0, speed);
      proxy.add_component(ct::position, e);
      if (!parent.is_null()) proxy.set_parent(e, parent);
      bodies.emplace_back(name, e);
      return e;
    };
    const strata::entity_id sun = body("sun", strata::null_entity, 0, 0);
    const strata::entity_id earth = body("earth", sun, 10, 0.10);
    body("moon", earth, 1, 0.50);
    body("probe", earth, 0.2, 1.00);
    const strata::entity_id mars = body("mars", sun, 15, 0.05);
    body("phobos", mars, 0.5, 0.90);
    body("deimos", mars, 1.2, 0.30);
  });

  const auto run = [&] {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  };
  const auto print = [&](const char* when) {
    std::printf("%s\n", when);
    for (const auto& [name, e] : bodies) {
      if (!ctx.alive(e)) continue;
      const position& p = ctx.get(ct::position, e);
      const strata::entity_id parent = ctx.parent_of(e);
      std::string under = "-";
      for (const auto& [other, id] : bodies) {
        if (id == parent) under = other;
      }
      std::printf("  %-7s depth %zu  under %-6s  (%8.3f, %8.3f)\n",
                  name.c_str(), ctx.depth_of(e), under.c_str(), p.x, p.y);
    }
  };

  for (int step = 0; step < 10; ++step) run();
  print("after 10 steps:");

  // The probe leaves earth for mars: it moves with its whole subtree (none
  // here) at the refresh, and is placed under mars from the next run.
  ctx.step([&](auto& proxy) {
    proxy.set_parent(bodies[3].second, bodies[4].second);
  });
  for (int step = 0; step < 10; ++step) run();
  print("probe re-parented to mars, 10 steps later:");

  // Killing mars kills its moons and the probe at the same refresh.
  std::size_t cascaded = 0;
  ctx.observe_refresh([&](const strata::refresh_event& e) {
    cascaded += e.what == strata::refresh_event::kind::killed_with_parent;
  });
  ctx.step([&](auto& proxy) { proxy.kill_entity(bodies[4].second); });
  std::printf("mars killed: %zu bodies went with it, %zu left\n", cascaded,
              ctx.entity_count());
}
