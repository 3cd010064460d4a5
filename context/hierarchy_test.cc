// The hierarchy (context/hierarchy.h) through the public API: the
// operations and queries, refusals, both kill rules, requests from systems,
// snapshots (the model test is context/hierarchy_model_test.cc).
#include "context/hierarchy.h"

#include <cstddef>
#include <tuple>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::null_entity;
using strata::refresh_event;
namespace ct = strata::testing::ct;

// The parent an entity asks for, from a system.
struct wanted_parent {
  entity_id parent;
};
inline constexpr auto wanted = strata::tag<wanted_parent>;

struct adopter {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const wanted_parent& w) {
      if (w.parent.is_null()) {
        data.remove_parent(e);
      } else {
        data.set_parent(e, w.parent);
      }
      // Queries during a step see the last refresh's relation.
      (void)data.parent_of(e);
      (void)data.depth_of(e);
      (void)data.root_of(e);
      for (entity_id child : data.children_of(e)) (void)child;
    });
  }
};
namespace st {
inline constexpr auto adopter = strata::tag<::adopter>;
}

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position),
    strata::component_signature::make(wanted));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::adopter)
        .read(wanted)
        .parallelism(strata::inner_parallelism::split_evenly(3)));

constexpr auto killing = strata::settings()
                             .allow_inner_parallelism()
                             .component_signatures(components)
                             .system_signatures(systems)
                             .scheduler(strata::scheduler::atomic_counter)
                             .threads(1)
                             .hierarchy(strata::kill_children);
constexpr auto detaching = strata::settings()
                               .component_signatures(components)
                               .system_signatures(systems)
                               .threads(1)
                               .hierarchy(strata::detach_children);

using event_record = std::tuple<refresh_event::kind, entity_id, entity_id>;

template <typename Context>
void record_hierarchy_events(Context& ctx, std::vector<event_record>& events) {
  ctx.observe_refresh([&events](const refresh_event& e) {
    if (e.what == refresh_event::kind::refused_parent ||
        e.what == refresh_event::kind::killed_with_parent ||
        e.what == refresh_event::kind::detached_from_parent) {
      events.emplace_back(e.what, e.entity, e.other);
    }
  });
}

template <typename Context>
std::vector<entity_id> children(const Context& ctx, entity_id e) {
  std::vector<entity_id> out;
  for (entity_id c : ctx.children_of(e)) out.push_back(c);
  return out;
}

template <typename Context>
entity_id create(Context& ctx) {
  entity_id e;
  ctx.step([&](auto& proxy) { e = proxy.create_entity(); });
  return e;
}

TEST(HierarchyTest, SetParentTakesEffectAtTheRefresh) {
  auto ctx = strata::make_context(killing);
  entity_id sun = create(ctx), earth = create(ctx), moon = create(ctx);
  ctx.step([&](auto& proxy) {
    proxy.set_parent(earth, sun);
    proxy.set_parent(moon, earth);
    EXPECT_EQ(proxy.parent_of(earth), null_entity);  // not yet
  });
  EXPECT_EQ(ctx.parent_of(earth), sun);
  EXPECT_EQ(ctx.parent_of(moon), earth);
  EXPECT_EQ(ctx.parent_of(sun), null_entity);
  EXPECT_EQ(ctx.depth_of(sun), 0u);
  EXPECT_EQ(ctx.depth_of(earth), 1u);
  EXPECT_EQ(ctx.depth_of(moon), 2u);
  EXPECT_EQ(ctx.root_of(moon), sun);
  EXPECT_EQ(ctx.root_of(sun), sun);
  EXPECT_EQ(children(ctx, sun), std::vector<entity_id>{earth});
  EXPECT_TRUE(ctx.children_of(moon).empty());

  ctx.step([&](auto& proxy) { proxy.remove_parent(earth); });
  EXPECT_EQ(ctx.parent_of(earth), null_entity);
  EXPECT_EQ(ctx.depth_of(moon), 1u);  // the subtree moved with it
  EXPECT_EQ(ctx.root_of(moon), earth);
  EXPECT_TRUE(ctx.children_of(sun).empty());
}

TEST(HierarchyTest, ChildrenInAttachOrder) {
  auto ctx = strata::make_context(killing);
  entity_id p = create(ctx), a = create(ctx), b = create(ctx), c = create(ctx);
  ctx.step([&](auto& proxy) {
    proxy.set_parent(c, p);
    proxy.set_parent(a, p);
    proxy.set_parent(b, p);
  });
  EXPECT_EQ(children(ctx, p), (std::vector<entity_id>{c, a, b}));
  ctx.step([&](auto& proxy) {
    proxy.remove_parent(c);
    proxy.set_parent(c, p);  // back, last
    proxy.set_parent(a, p);  // already its parent: nothing changes
  });
  EXPECT_EQ(children(ctx, p), (std::vector<entity_id>{a, b, c}));
}

TEST(HierarchyTest, CyclesAndDeadEntitiesAreRefused) {
  auto ctx = strata::make_context(killing);
  std::vector<event_record> events;
  record_hierarchy_events(ctx, events);
  entity_id a = create(ctx), b = create(ctx), c = create(ctx),
            dead = create(ctx);
  ctx.step([&](auto& proxy) { proxy.kill_entity(dead); });
  ctx.step([&](auto& proxy) {
    proxy.set_parent(b, a);
    proxy.set_parent(c, b);
    proxy.set_parent(a, c);     // cycle
    proxy.set_parent(a, a);     // itself
    proxy.set_parent(a, dead);  // dead parent
    proxy.set_parent(dead, a);  // dead child
    proxy.remove_parent(dead);
    proxy.set_parent(null_entity, a);
  });
  EXPECT_EQ(ctx.refused_parent_changes(), 6u);
  const auto refused = refresh_event::kind::refused_parent;
  EXPECT_EQ(events, (std::vector<event_record>{{refused, a, c},
                                               {refused, a, a},
                                               {refused, a, dead},
                                               {refused, dead, a},
                                               {refused, dead, null_entity},
                                               {refused, null_entity, a}}));
  EXPECT_EQ(ctx.parent_of(a), null_entity);
  EXPECT_EQ(ctx.parent_of(c), b);
  EXPECT_EQ(ctx.depth_of(c), 2u);
  EXPECT_EQ(ctx.parent_of(dead), null_entity);
  ctx.step([](auto&) {});
  EXPECT_EQ(ctx.refused_parent_changes(), 0u);
}

TEST(HierarchyTest, KillingAParentKillsItsSubtree) {
  auto ctx = strata::make_context(killing);
  std::vector<event_record> events;
  record_hierarchy_events(ctx, events);
  entity_id root = create(ctx), a = create(ctx), b = create(ctx),
            a1 = create(ctx), other = create(ctx);
  ctx.step([&](auto& proxy) {
    proxy.set_parent(a, root);
    proxy.set_parent(b, root);
    proxy.set_parent(a1, a);
  });
  ctx.step([&](auto& proxy) { proxy.kill_entity(root); });
  const auto killed = refresh_event::kind::killed_with_parent;
  EXPECT_EQ(events,
            (std::vector<event_record>{
                {killed, a, root}, {killed, b, root}, {killed, a1, a}}));
  EXPECT_FALSE(ctx.alive(root) || ctx.alive(a) || ctx.alive(b) ||
               ctx.alive(a1));
  EXPECT_TRUE(ctx.alive(other));
  EXPECT_EQ(ctx.entity_count(), 1u);
  // The indices are reused by new entities, which start as roots.
  for (int i = 0; i < 4; ++i) {
    entity_id e = create(ctx);
    EXPECT_EQ(ctx.parent_of(e), null_entity);
    EXPECT_TRUE(ctx.children_of(e).empty());
    EXPECT_EQ(ctx.depth_of(e), 0u);
  }
}

TEST(HierarchyTest, KillingAChildLeavesItsParent) {
  auto ctx = strata::make_context(killing);
  entity_id p = create(ctx), a = create(ctx), b = create(ctx);
  ctx.step([&](auto& proxy) {
    proxy.set_parent(a, p);
    proxy.set_parent(b, p);
  });
  ctx.step([&](auto& proxy) { proxy.kill_entity(a); });
  EXPECT_EQ(children(ctx, p), std::vector<entity_id>{b});
  EXPECT_TRUE(ctx.alive(p));
}

TEST(HierarchyTest, DetachChildrenMakesThemRoots) {
  auto ctx = strata::make_context(detaching);
  std::vector<event_record> events;
  record_hierarchy_events(ctx, events);
  entity_id root = create(ctx), a = create(ctx), b = create(ctx),
            a1 = create(ctx);
  ctx.step([&](auto& proxy) {
    proxy.set_parent(a, root);
    proxy.set_parent(b, root);
    proxy.set_parent(a1, a);
  });
  ctx.step([&](auto& proxy) {
    proxy.kill_entity(root);
    proxy.kill_entity(b);
  });
  const auto detached = refresh_event::kind::detached_from_parent;
  EXPECT_EQ(events, (std::vector<event_record>{{detached, a, root}}));
  EXPECT_TRUE(ctx.alive(a) && ctx.alive(a1));
  EXPECT_FALSE(ctx.alive(b));
  EXPECT_EQ(ctx.parent_of(a), null_entity);
  EXPECT_EQ(ctx.depth_of(a1), 1u);
  EXPECT_EQ(ctx.root_of(a1), a);
}

TEST(HierarchyTest, ParentMarkedDeadInTheSameStepTakesTheChildAlong) {
  auto ctx = strata::make_context(killing);
  entity_id p = create(ctx), c = create(ctx);
  ctx.step([&](auto& proxy) {
    proxy.kill_entity(p);
    proxy.set_parent(c, p);
  });
  EXPECT_FALSE(ctx.alive(p));
  EXPECT_FALSE(ctx.alive(c));
}

// Systems' requests are deferred: applied in system, subtask, then call
// order, the same at every split.
TEST(HierarchyTest, RequestsFromSystems) {
  for (std::size_t threads : {1u, 2u, 4u}) {
    auto ctx =
        strata::make_context(killing, strata::run_options{}.threads(threads));
    std::vector<entity_id> chain;
    ctx.step([&](auto& proxy) {
      for (int i = 0; i < 10; ++i) chain.push_back(proxy.create_entity());
      for (int i = 1; i < 10; ++i) {
        proxy.add_component(wanted, chain[i], chain[i - 1]);
      }
      // Entity 0 asks first (lowest index): attached under entity 9, which
      // makes entity 9's own request, last, a cycle.
      proxy.add_component(wanted, chain[0], chain[9]);
    });
    std::vector<event_record> events;
    record_hierarchy_events(ctx, events);
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
    EXPECT_EQ(events,
              (std::vector<event_record>{
                  {refresh_event::kind::refused_parent, chain[9], chain[8]}}));
    EXPECT_EQ(ctx.parent_of(chain[0]), chain[9]);
    EXPECT_EQ(ctx.parent_of(chain[9]), null_entity);
    for (int i = 1; i < 9; ++i) {
      EXPECT_EQ(ctx.parent_of(chain[i]), chain[i - 1]);
      EXPECT_EQ(ctx.depth_of(chain[i]), static_cast<std::size_t>(i + 1));
      EXPECT_EQ(ctx.root_of(chain[i]), chain[9]);
    }
  }
}

TEST(HierarchyTest, SnapshotsCarryTheRelation) {
  auto ctx = strata::make_context(killing);
  entity_id p = create(ctx), c = create(ctx);
  ctx.step([&](auto& proxy) { proxy.set_parent(c, p); });
  auto saved = ctx.snapshot();
  ctx.step([&](auto& proxy) { proxy.remove_parent(c); });
  EXPECT_EQ(ctx.parent_of(c), null_entity);
  ctx.restore(saved);
  EXPECT_EQ(ctx.parent_of(c), p);
  EXPECT_EQ(children(ctx, p), std::vector<entity_id>{c});
}

}  // namespace
