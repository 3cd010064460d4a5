// Component hooks (context/hooks.h) through the public API: the events and
// their order against a model under random creations, adds, removes and
// kills; hooks that create, kill and throw; on_remove reading the removed
// value (also of a killed entity, and of the descendants a hierarchy kills
// with a hook's victim); the same events at every thread count
// under both schedulers while split systems kill and defer; no allocation
// in steady steps with hooks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::testing::health;
using strata::testing::position;
using strata::testing::velocity;
namespace ct = strata::testing::ct;

using id_key = std::tuple<std::size_t, std::size_t>;  // index, version
id_key key_of(entity_id e) { return {e.index(), e.version()}; }

// One hook call: what ran, on which entity, with which value's x.
struct event {
  char what;  // 'A' position added, 'R' position removed, 'V' velocity removed
  id_key entity;
  float x;
  friend bool operator==(const event&, const event&) = default;
};
std::ostream& operator<<(std::ostream& out, const event& e) {
  return out << e.what << "(" << std::get<0>(e.entity) << "v"
             << std::get<1>(e.entity) << ", " << e.x << ")";
}

// The hooks' log, a resource they declare.
struct hook_log {
  std::vector<event> events;
  // What the position hook does beside logging (set between steps).
  bool spawn = false;  // on_add of x == 7: a new entity with a velocity
  bool kill = false;   // on_add of x == 13: kills the entity
  bool fail = false;   // on_add of x == 99: throws
  entity_id strip;     // on_add of x == 21: removes strip's velocity
};

constexpr auto hooks = strata::component_hooks(
    strata::hook(ct::position)
        .on_add([](auto& proxy, entity_id e, position& p) {
          hook_log& log = proxy.template resource<hook_log>();
          log.events.push_back({'A', key_of(e), p.x});
          if (log.spawn && p.x == 7) {
            const entity_id spawned = proxy.create_entity();
            proxy.add_component(ct::velocity, spawned, 70.f, 0.f);
          }
          if (log.kill && p.x == 13) proxy.kill_entity(e);
          if (log.fail && p.x == 99) throw std::runtime_error("hook 99");
          if (p.x == 21) proxy.remove_component(ct::velocity, log.strip);
        })
        .on_remove([](auto& proxy, entity_id e, const position& p) {
          proxy.template resource<hook_log>().events.push_back(
              {'R', key_of(e), p.x});
        })
        .writes(ct::velocity)
        .resources(strata::resource<hook_log>),
    strata::hook(ct::velocity)
        .on_remove([](auto& proxy, entity_id e, const velocity& v) {
          proxy.template resource<hook_log>().events.push_back(
              {'V', key_of(e), v.x});
        })
        .resources(strata::resource<hook_log>));

// Split systems that move, kill and defer, for the determinism test.
struct mover {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p) { p.x += 1; });
  }
};
struct reaper {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const position& p) {
      const int x = static_cast<int>(p.x);
      if (x % 7 == 3) data.kill_entity(e);
      if (x % 5 == 1) {
        data.defer([e, x](auto& proxy) {
          proxy.remove_component(ct::position, e);
          proxy.add_component(ct::velocity, e, static_cast<float>(x), 0.f);
        });
      }
    });
  }
};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position),
    strata::component_signature::make(ct::velocity).sparse(),
    strata::component_signature::make(ct::health));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<mover>).write(ct::position),
    strata::system_signature::make(strata::tag<reaper>)
        .read(ct::position)
        .dependencies(strata::tag<mover>));
constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(components)
        .system_signatures(systems)
        .resources(strata::resources(strata::resource<hook_log>))
        .scheduler(strata::scheduler::atomic_counter)
        .hooks(hooks);

const auto all_subtasks = strata::execution_adapter::all().for_subtasks(
    [](auto& system, auto& data) { system.process(data); });

// The model: each live entity's components, and what the hooks were told at
// the last refresh.
struct model_entity {
  bool has_position = false, has_velocity = false;
  float position_x = 0, velocity_x = 0;
  // Latest removed values this step.
  float removed_position = 0, removed_velocity = 0;
  bool told_position = false, told_velocity = false;
  bool killed = false;
};

// The events the refresh owes: entity-index order; per entity, removals in
// hook order, then additions.
std::vector<event> expected_events(std::map<id_key, model_entity>& entities) {
  std::vector<event> events;
  for (auto& [key, m] : entities) {  // id_key orders by index first
    const bool pos = m.has_position && !m.killed;
    const bool vel = m.has_velocity && !m.killed;
    if (m.told_position && !pos) {
      const bool still = m.killed && m.has_position;
      events.push_back({'R', key, still ? m.position_x : m.removed_position});
    }
    if (m.told_velocity && !vel) {
      const bool still = m.killed && m.has_velocity;
      events.push_back({'V', key, still ? m.velocity_x : m.removed_velocity});
    }
    if (!m.told_position && pos) events.push_back({'A', key, m.position_x});
    m.told_position = pos;
    m.told_velocity = vel;
  }
  std::erase_if(entities, [](const auto& kv) { return kv.second.killed; });
  return events;
}

TEST(ComponentHooks, EventsMatchTheModel) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    auto ctx = strata::make_context(settings);
    std::map<id_key, model_entity> model;
    std::vector<entity_id> alive;
    for (int step = 0; step < 60; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      ctx.resource<hook_log>().events.clear();
      ctx.step([&](auto& proxy) {
        const int operations = static_cast<int>(random() % 30);
        for (int op = 0; op < operations; ++op) {
          const unsigned what = random() % 8;
          const float x = static_cast<float>(random() % 1000);
          if (what == 0 || alive.empty()) {
            const entity_id e = proxy.create_entity();
            alive.push_back(e);
            model[key_of(e)];
            if (random() % 2) {
              proxy.add_component(ct::position, e, x, 0.f);
              model[key_of(e)].has_position = true;
              model[key_of(e)].position_x = x;
            }
            continue;
          }
          const std::size_t at = random() % alive.size();
          const entity_id e = alive[at];
          model_entity& m = model[key_of(e)];
          if (what == 1 || what == 2) {  // add or replace
            proxy.add_component(ct::position, e, x, 0.f);
            m.has_position = true;
            m.position_x = x;
          } else if (what == 3) {
            if (proxy.remove_component(ct::position, e)) {
              m.removed_position = m.position_x;
            }
            m.has_position = false;
          } else if (what == 4) {
            proxy.add_component(ct::velocity, e, x, 0.f);
            m.has_velocity = true;
            m.velocity_x = x;
          } else if (what == 5) {
            if (proxy.remove_component(ct::velocity, e)) {
              m.removed_velocity = m.velocity_x;
            }
            m.has_velocity = false;
          } else if (what == 6) {
            proxy.add_component(ct::health, e, 1);
          } else {
            proxy.kill_entity(e);
            m.killed = true;
            alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(at));
          }
        }
      });
      EXPECT_EQ(ctx.resource<hook_log>().events, expected_events(model));
    }
  }
}

TEST(ComponentHooks, HooksCreateAndKillWithinTheRefresh) {
  auto ctx = strata::make_context(settings);
  hook_log& log = ctx.resource<hook_log>();
  log.spawn = true;
  log.kill = true;
  entity_id spawner, victim;
  ctx.step([&](auto& proxy) {
    spawner = proxy.create_entity();
    proxy.add_component(ct::position, spawner, 7.f, 0.f);
    victim = proxy.create_entity();
    proxy.add_component(ct::position, victim, 13.f, 0.f);
  });
  // Round 1: both adds; the victim's hook killed it, so round 2 tells its
  // removal, with the value it still had. The spawned entity's velocity has
  // no on_add hook: nothing more.
  ASSERT_EQ(log.events.size(), 3u);
  EXPECT_EQ(log.events[0], (event{'A', key_of(spawner), 7}));
  EXPECT_EQ(log.events[1], (event{'A', key_of(victim), 13}));
  EXPECT_EQ(log.events[2], (event{'R', key_of(victim), 13}));
  EXPECT_FALSE(ctx.alive(victim));
  // The spawned entity is alive, with its velocity, and its later removal
  // is told.
  std::vector<entity_id> with_velocity;
  ctx.for_each([&](entity_id e, const velocity& v) {
    with_velocity.push_back(e);
    EXPECT_EQ(v.x, 70.f);
  });
  ASSERT_EQ(with_velocity.size(), 1u);
  log.events.clear();
  ctx.step([&](auto& proxy) { proxy.kill_entity(with_velocity[0]); });
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0], (event{'V', key_of(with_velocity[0]), 70}));
}

// A hook kills a parent whose hierarchy kills its children: the cascade
// runs within the hook rounds, so the descendants it kills are told too.
TEST(ComponentHooks, DescendantsKilledWithAHooksVictimAreTold) {
  auto ctx = strata::make_context(settings.hierarchy(strata::kill_children));
  hook_log& log = ctx.resource<hook_log>();
  log.kill = true;
  entity_id parent, child, grandchild;
  ctx.step([&](auto& proxy) {
    parent = proxy.create_entity();
    child = proxy.create_entity();
    proxy.add_component(ct::position, child, 2.f, 0.f);
    grandchild = proxy.create_entity();
    proxy.add_component(ct::position, grandchild, 3.f, 0.f);
    proxy.add_component(ct::velocity, grandchild, 30.f, 0.f);
    proxy.set_parent(child, parent);
    proxy.set_parent(grandchild, child);
  });
  log.events.clear();
  // The parent's on_add kills it (x == 13).
  ctx.step([&](auto& proxy) {
    proxy.add_component(ct::position, parent, 13.f, 0.f);
  });
  EXPECT_EQ(log.events, (std::vector<event>{{'A', key_of(parent), 13},
                                            {'R', key_of(parent), 13},
                                            {'R', key_of(child), 2},
                                            {'R', key_of(grandchild), 3},
                                            {'V', key_of(grandchild), 30}}));
  EXPECT_FALSE(ctx.alive(parent));
  EXPECT_FALSE(ctx.alive(child));
  EXPECT_FALSE(ctx.alive(grandchild));
}

// A hook changes an entity that the same round visits later: the later
// visit sees the change (the velocity's removal, with its value).
TEST(ComponentHooks, AHookChangesAnEntityLaterInTheRound) {
  auto ctx = strata::make_context(settings);
  hook_log& log = ctx.resource<hook_log>();
  entity_id a, b;
  ctx.step([&](auto& proxy) {
    a = proxy.create_entity();
    b = proxy.create_entity();
    proxy.add_component(ct::velocity, b, 5.f, 0.f);
  });
  ASSERT_LT(a.index(), b.index());
  log.strip = b;
  ctx.step([&](auto& proxy) {
    proxy.add_component(ct::position, a, 21.f, 0.f);
    proxy.add_component(ct::position, b, 1.f, 0.f);
  });
  EXPECT_EQ(log.events, (std::vector<event>{{'A', key_of(a), 21},
                                            {'V', key_of(b), 5},
                                            {'A', key_of(b), 1}}));
  ctx.step(
      [&](auto& proxy) { EXPECT_FALSE(proxy.has_component(ct::velocity, b)); });
}

TEST(ComponentHooks, AThrowingHookStopsNoOtherWork) {
  auto ctx = strata::make_context(settings);
  hook_log& log = ctx.resource<hook_log>();
  log.fail = true;
  entity_id a, b, doomed;
  ctx.step([&](auto& proxy) { doomed = proxy.create_entity(); });
  EXPECT_THROW(ctx.step([&](auto& proxy) {
    a = proxy.create_entity();
    proxy.add_component(ct::position, a, 99.f, 0.f);
    b = proxy.create_entity();
    proxy.add_component(ct::position, b, 99.f, 0.f);
    proxy.kill_entity(doomed);
  }),
               std::runtime_error);
  // Both hooks ran (each threw), the kill and the matching were applied.
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.events[1], (event{'A', key_of(b), 99}));
  EXPECT_FALSE(ctx.alive(doomed));
  EXPECT_TRUE(ctx.alive(a));
  // Usable: the events counted as told, later changes are told once.
  log.events.clear();
  ctx.step([&](auto& proxy) { proxy.remove_component(ct::position, a); });
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0], (event{'R', key_of(a), 99}));
}

TEST(ComponentHooks, AReplacedComponentIsNeitherAddedNorRemoved) {
  auto ctx = strata::make_context(settings);
  hook_log& log = ctx.resource<hook_log>();
  entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e, 1.f, 0.f);
  });
  log.events.clear();
  ctx.step([&](auto& proxy) {
    proxy.add_component(ct::position, e, 2.f, 0.f);
    proxy.remove_component(ct::position, e);
    proxy.add_component(ct::position, e, 3.f, 0.f);
  });
  EXPECT_TRUE(log.events.empty());
  ctx.step([&](auto& proxy) {
    proxy.remove_component(ct::position, e);
    const entity_id other = proxy.create_entity();
    proxy.add_component(ct::position, other, 5.f, 0.f);
    proxy.remove_component(ct::position, other);  // added and removed
  });
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0], (event{'R', key_of(e), 3}));
}

// The events of a run of steps where split systems kill and defer.
std::vector<event> run_with(strata::run_options options) {
  auto ctx = strata::make_context(settings, options);
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 3000; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, static_cast<float>(i % 97), 0.f);
    }
  });
  std::vector<event> all;
  for (int step = 0; step < 8; ++step) {
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(all_subtasks);
      for (int i = 0; i < 50; ++i) {
        const entity_id e = proxy.create_entity();
        proxy.add_component(ct::position, e, static_cast<float>(i), 0.f);
      }
    });
    auto& events = ctx.resource<hook_log>().events;
    all.insert(all.end(), events.begin(), events.end());
    events.clear();
  }
  return all;
}

TEST(ComponentHooks, SameEventsAtEveryThreadCountAndScheduler) {
  const std::vector<event> reference =
      run_with(strata::run_options().threads(1).scheduler(
          strata::scheduler_kind::sequential));
  ASSERT_FALSE(reference.empty());
  for (std::size_t threads : {1u, 2u, 3u, 9u}) {
    for (auto kind : {strata::scheduler_kind::sequential,
                      strata::scheduler_kind::atomic_counter}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      EXPECT_EQ(
          run_with(strata::run_options().threads(threads).scheduler(kind)),
          reference);
    }
  }
}

TEST(ComponentHooks, SteadyStepsWithHooksAllocateNothing) {
  auto ctx = strata::make_context(settings,
                                  strata::run_options().threads(2).scheduler(
                                      strata::scheduler_kind::atomic_counter));
  std::vector<entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 500; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, 2.f, 0.f);
      proxy.add_component(ct::velocity, e, 1.f, 0.f);
      ids.push_back(e);
    }
  });
  ctx.resource<hook_log>().events.reserve(4096);
  // Every step strips and gives back a position and a velocity of a tenth of
  // the entities: hooks run in both directions.
  const auto churn = [&](int step) {
    ctx.resource<hook_log>().events.clear();
    ctx.step([&](auto& proxy) {
      for (std::size_t i = static_cast<std::size_t>(step % 10); i < ids.size();
           i += 10) {
        if (proxy.has_component(ct::position, ids[i])) {
          proxy.remove_component(ct::position, ids[i]);
          proxy.remove_component(ct::velocity, ids[i]);
        } else {
          proxy.add_component(ct::position, ids[i], 2.f, 0.f);
          proxy.add_component(ct::velocity, ids[i], 1.f, 0.f);
        }
      }
    });
  };
  for (int step = 0; step < 40; ++step) churn(step);
  const std::size_t before = strata::testing::allocation_count();
  for (int step = 40; step < 140; ++step) churn(step);
  EXPECT_EQ(strata::testing::allocation_count(), before);
  EXPECT_FALSE(ctx.resource<hook_log>().events.empty());
}

}  // namespace
