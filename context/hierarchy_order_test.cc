// Systems declared .in_hierarchy_order() (scheduler/system_signature.h):
// transform propagation over a random forest gives exactly the hand-computed
// result, parents before children, at 1, 2 and 8 threads and under both
// schedulers, with every level split into subtasks; also after re-parenting and
// kills; the same through data.for_each_with_parent (the parent handed in).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "context/context.h"
#include "context/hierarchy.h"
#include "context/hierarchy_testing.h"
#include "gtest/gtest.h"

namespace {

using strata::entity_id;

using strata::hierarchy_testing::local_transform;
using strata::hierarchy_testing::world_transform;
// What propagate_passed computes, as propagate computes world.
struct passed_world {
  double x = 0;
  double y = 0;
};
namespace ct {
using strata::hierarchy_testing::ct::local;
using strata::hierarchy_testing::ct::world;
inline constexpr auto passed = strata::tag<passed_world>;
}  // namespace ct

// propagate (hierarchy_testing.h) with the parent handed in; records the
// depth of each entity it visits, per subtask (levels split across
// subtasks).
struct propagate_passed {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_with_parent(
        ct::passed, [&](entity_id e, const passed_world* up, passed_world& w,
                        const local_transform& l) {
          EXPECT_EQ(up, data.parent(ct::passed, e));
          data.output().push_back(data.depth_of(e));
          w.x = (up ? up->x * 0.5 : 0) + l.x;
          w.y = (up ? up->y * 0.5 : 0) + l.y;
        });
  }
};
// Records the depth of each entity it visits, per subtask, in order.
struct visit_order {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities(
        [&](entity_id e) { data.output().push_back(data.depth_of(e)); });
  }
};
namespace st {
inline constexpr auto propagate =
    strata::tag<strata::hierarchy_testing::propagate>;
inline constexpr auto visit_order = strata::tag<::visit_order>;
inline constexpr auto propagate_passed = strata::tag<::propagate_passed>;
}  // namespace st

constexpr auto components =
    strata::component_signatures(strata::component_signature::make(ct::local),
                                 strata::component_signature::make(ct::world),
                                 strata::component_signature::make(ct::passed));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::propagate)
        .write(ct::world)
        .read(ct::local)
        .parallelism(strata::inner_parallelism::split_evenly(4))
        .in_hierarchy_order(),
    strata::system_signature::make(st::visit_order)
        .read(ct::world)
        .dependencies(st::propagate)
        .parallelism(strata::inner_parallelism::none())
        .output<std::vector<std::size_t>>()
        .in_hierarchy_order(),
    strata::system_signature::make(st::propagate_passed)
        .write(ct::passed)
        .read(ct::local)
        .parallelism(strata::inner_parallelism::split_evenly(4))
        .output<std::vector<std::size_t>>()
        .in_hierarchy_order());
constexpr auto settings = strata::settings()
                              .allow_inner_parallelism()
                              .component_signatures(components)
                              .system_signatures(systems)
                              .scheduler(strata::scheduler::atomic_counter)
                              .hierarchy(strata::kill_children);

template <typename Context>
void run(Context& ctx) {
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

// The expected world transform, from the relation as the context has it.
template <typename Context>
world_transform expected_world(const Context& ctx, entity_id e) {
  const local_transform& l = ctx.get(ct::local, e);
  const entity_id up = ctx.parent_of(e);
  if (up.is_null()) return {l.x, l.y};
  const world_transform above = expected_world(ctx, up);
  return {above.x * 0.5 + l.x, above.y * 0.5 + l.y};
}

// Builds a random forest, propagates, re-parents and kills; returns every
// world transform after each step, which must equal the expected ones.
std::vector<double> simulate(std::size_t threads,
                             strata::scheduler_kind scheduler) {
  auto ctx = strata::make_context<settings>(
      strata::run_options().threads(threads).scheduler(scheduler).hand_off(
          strata::hand_off::always));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  std::vector<entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 600; ++i) {
      entity_id e = proxy.create_entity();
      proxy.add_component(ct::local, e, coordinate(rng), coordinate(rng));
      proxy.add_component(ct::world, e);
      proxy.add_component(ct::passed, e);
      // A parent among the earlier entities (so no cycle): depth up to ~8.
      if (i >= 4) {
        std::uniform_int_distribution<int> earlier(i / 2, i - 1);
        proxy.set_parent(e, ids[earlier(rng)]);
      }
      ids.push_back(e);
    }
  });
  std::vector<double> trail;
  for (int step = 0; step < 6; ++step) {
    ctx.step([&](auto& proxy) {
      // Roots move every step: a child visited before its parent would
      // read last step's world.
      proxy.for_each([&](entity_id e, local_transform& l) {
        if (proxy.parent_of(e).is_null()) l.x += 1;
      });
      // Re-parent a few entities under random others (cycles refused),
      // and kill one subtree.
      for (int k = 0; k < 10; ++k) {
        proxy.set_parent(ids[rng() % ids.size()], ids[rng() % ids.size()]);
      }
      proxy.remove_parent(ids[rng() % ids.size()]);
      if (step == 3) proxy.kill_entity(ids[rng() % ids.size()]);
    });
    run(ctx);
    std::size_t last_depth = 0;
    ctx.for_each([&](entity_id e, const world_transform& w) {
      const world_transform expected = expected_world(ctx, e);
      EXPECT_EQ(w.x, expected.x);
      EXPECT_EQ(w.y, expected.y);
      const passed_world& passed = ctx.get(ct::passed, e);
      EXPECT_EQ(passed.x, expected.x);
      EXPECT_EQ(passed.y, expected.y);
      trail.push_back(w.x);
      trail.push_back(w.y);
    });
    ctx.step([&](auto& proxy) {
      proxy.for_system_outputs(
          st::visit_order, [&](auto&, const std::vector<std::size_t>& depths) {
            for (std::size_t d : depths) {
              EXPECT_GE(d, last_depth);
              last_depth = d;
            }
          });
      // Each subtask's visits by depth; with 2 threads or more, level 1
      // split across subtasks.
      std::size_t subtasks_at_level_1 = 0;
      proxy.for_system_outputs(
          st::propagate_passed,
          [&](auto&, const std::vector<std::size_t>& depths) {
            EXPECT_TRUE(std::is_sorted(depths.begin(), depths.end()));
            if (std::count(depths.begin(), depths.end(), 1) > 0) {
              ++subtasks_at_level_1;
            }
          });
      if (threads >= 2) {
        EXPECT_GE(subtasks_at_level_1, 2u);
      }
    });
    if (::testing::Test::HasFailure()) break;
  }
  return trail;
}

TEST(HierarchyOrderTest, SameResultAtEveryThreadCountAndScheduler) {
  const std::vector<double> reference =
      simulate(1, strata::scheduler_kind::sequential);
  ASSERT_FALSE(reference.empty());
  for (std::size_t threads : {1u, 2u, 8u}) {
    for (strata::scheduler_kind scheduler :
         {strata::scheduler_kind::sequential,
          strata::scheduler_kind::atomic_counter}) {
      EXPECT_EQ(simulate(threads, scheduler), reference)
          << threads << " threads";
    }
  }
}

}  // namespace

// Entities of the hierarchy the system does not have are skipped (the
// level arrays hold every entity), and data.parent is null for a parent
// without the component: a -> b -> c -> d where b has no world transform,
// and x (a world transform, no local one) -> y.
TEST(HierarchyOrderTest, SkipsEntitiesOutsideTheSystemAndParentsWithout) {
  for (std::size_t threads : {1u, 2u}) {
    auto ctx = strata::make_context<settings>(
        strata::run_options().threads(threads).hand_off(
            strata::hand_off::always));
    entity_id a, b, c, d, x, y;
    ctx.step([&](auto& proxy) {
      const auto make = [&](double lx, bool world) {
        entity_id e = proxy.create_entity();
        proxy.add_component(ct::local, e, lx, -lx);
        if (world) proxy.add_component(ct::world, e);
        if (world) proxy.add_component(ct::passed, e);
        return e;
      };
      a = make(1, true);
      b = make(2, false);
      c = make(3, true);
      d = make(4, true);
      x = proxy.create_entity();
      proxy.add_component(ct::world, x, 8.0, 8.0);
      y = make(5, true);
      proxy.set_parent(b, a);
      proxy.set_parent(c, b);
      proxy.set_parent(d, c);
      proxy.set_parent(y, x);
    });
    run(ctx);
    const auto world = [&](entity_id e) {
      const world_transform& w = ctx.get(ct::world, e);
      return std::pair(w.x, w.y);
    };
    EXPECT_EQ(world(a), std::pair(1.0, -1.0));
    EXPECT_EQ(world(c), std::pair(3.0, -3.0));  // b has none: as a root
    EXPECT_EQ(world(d), std::pair(1.5 + 4, -1.5 - 4));
    EXPECT_EQ(world(x), std::pair(8.0, 8.0));  // not the system's
    EXPECT_EQ(world(y), std::pair(4.0 + 5, 4.0 - 5));
    EXPECT_FALSE(ctx.has(ct::world, b));
    // The same through for_each_with_parent (x has no passed_world).
    const auto passed = [&](entity_id e) {
      const passed_world& w = ctx.get(ct::passed, e);
      return std::pair(w.x, w.y);
    };
    EXPECT_EQ(passed(c), std::pair(3.0, -3.0));
    EXPECT_EQ(passed(d), std::pair(1.5 + 4, -1.5 - 4));
    EXPECT_EQ(passed(y), std::pair(5.0, -5.0));
  }
}

namespace {

// Records (depth, index) of each entity it visits, in order.
struct visit_indices {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const local_transform&) {
      data.output().emplace_back(data.depth_of(e), e.index());
    });
  }
};
constexpr auto indices_settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::local)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<visit_indices>)
                .read(ct::local)
                .output<std::vector<std::pair<std::size_t, std::size_t>>>()
                .in_hierarchy_order()))
        .hierarchy(strata::kill_children);

// The visits of one step, in order.
template <typename Context>
std::vector<std::pair<std::size_t, std::size_t>> visits(Context& ctx) {
  run(ctx);
  std::vector<std::pair<std::size_t, std::size_t>> order;
  ctx.step([&](auto& proxy) {
    proxy.for_system_outputs(
        strata::tag<visit_indices>, [&](auto&, const auto& visited) {
          order.insert(order.end(), visited.begin(), visited.end());
        });
  });
  return order;
}

}  // namespace

// A level whose entities were attached in an order far from their indices'
// (here the reverse, and a random one) is visited in index order after the
// refresh: a pass reads the components forward through memory. Few later
// changes keep the order the refresh left; the visits stay depth by depth.
TEST(HierarchyOrderTest, VisitsEachLevelInIndexOrderOnceScrambled) {
  auto ctx =
      strata::make_context<indices_settings>(strata::run_options().threads(1));
  std::vector<entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 300; ++i) {
      ids.push_back(proxy.create_entity());
      proxy.add_component(ct::local, ids.back(), 1.0, 1.0);
    }
    // Depth 1: entities 1 to 99 under 0, attached in reverse index order.
    for (int i = 99; i >= 1; --i) proxy.set_parent(ids[i], ids[0]);
    // Depth 2: entities 100 to 299 under depth-1 ones, in a random order.
    std::vector<int> order(200);
    for (int k = 0; k < 200; ++k) order[k] = 100 + k;
    std::shuffle(order.begin(), order.end(), std::mt19937(5));
    for (int i : order) proxy.set_parent(ids[i], ids[1 + i % 99]);
  });
  std::vector<std::pair<std::size_t, std::size_t>> visited = visits(ctx);
  ASSERT_EQ(visited.size(), 300u);
  EXPECT_TRUE(std::is_sorted(visited.begin(), visited.end()));
  EXPECT_EQ(visited[0].second, std::size_t{ids[0].index()});
  // One kill: its level keeps its order but for the entry moved into the
  // hole; still depth by depth, every live entity once.
  ctx.step([&](auto& proxy) { proxy.kill_entity(ids[150]); });
  visited = visits(ctx);
  ASSERT_EQ(visited.size(), 299u);
  EXPECT_TRUE(std::is_sorted(
      visited.begin(), visited.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; }));
}

// data.parent(ct::x, e) names the entity being visited: another entity
// during a visit, or any entity between visits, is a checked misuse.
enum class misnamed { other_entity, between_visits };
template <misnamed Misuse>
struct parent_of_misnamed {
  template <typename Data>
  void process(Data& data) const {
    entity_id last;
    data.for_each([&](entity_id e, const local_transform&) {
      if (Misuse == misnamed::other_entity && !last.is_null()) {
        data.parent(ct::world, last);
      }
      last = e;
    });
    if (Misuse == misnamed::between_visits) data.parent(ct::world, last);
  }
};
template <misnamed Misuse>
constexpr auto misnamed_settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::local),
            strata::component_signature::make(ct::world)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(
                strata::tag<parent_of_misnamed<Misuse>>)
                .read(ct::local, ct::world)
                .in_hierarchy_order()))
        .hierarchy(strata::kill_children);
template <misnamed Misuse>
void run_misnamed() {
  auto ctx = strata::make_context<misnamed_settings<Misuse>>(
      strata::run_options().threads(1));
  ctx.step([&](auto& proxy) {
    const entity_id root = proxy.create_entity();
    proxy.add_component(ct::local, root, 1.0, 1.0);
    proxy.add_component(ct::world, root);
    for (int i = 0; i < 2; ++i) {
      const entity_id child = proxy.create_entity();
      proxy.add_component(ct::local, child, 1.0, 1.0);
      proxy.add_component(ct::world, child);
      proxy.set_parent(child, root);
    }
  });
  run(ctx);
}

TEST(HierarchyOrderDeathTest, ParentOfAnEntityNotBeingVisited) {
  EXPECT_DEATH(run_misnamed<misnamed::other_entity>(),
               "e must be the entity being visited");
  EXPECT_DEATH(run_misnamed<misnamed::between_visits>(),
               "e must be the entity being visited");
}
