#include "context/context.h"

#include <cstddef>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "component_storage/hash_map_chunk.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

using strata::testing::position;
using strata::testing::velocity;
struct health {
  int hp;
  explicit health(int h) : hp(h) {}  // not default-constructible
};
struct label {
  std::unique_ptr<std::string> text;  // move-only
};

namespace ct {
using strata::testing::ct::position;
using strata::testing::ct::velocity;
inline constexpr auto health = strata::tag<::health>;
inline constexpr auto label = strata::tag<::label>;
}  // namespace ct

struct movement {
  template <typename Data>
  void process(float dt, Data& data) const {
    data.for_each(
        [dt](strata::testing::position& p, const strata::testing::velocity& v) {
          p.x += v.x * dt;
          p.y += v.y * dt;
        });
  }
};

// Counts entities per subtask into its output.
struct counter {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](strata::entity_id) { ++data.output(); });
  }
};

// Sums the counter's outputs (reads a previous output) into its member: one
// subtask (none()), the only kind that may write the system object.
struct summer {
  int total = 0;
  template <typename Data>
  void process(Data& data) {
    total = 0;
    data.for_previous_outputs(strata::tag<counter>,
                              [&](counter&, int& count) { total += count; });
  }
};

// Kills entities whose health dropped to zero; defers a replacement.
struct reaper {
  int subscribed = 0;
  int unsubscribed = 0;
  void on_subscribe(strata::entity_id) { ++subscribed; }
  void on_unsubscribe(strata::entity_id) { ++unsubscribed; }
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](strata::entity_id e) {
      if (data.read(strata::tag<health>, e).hp <= 0) {
        data.kill_entity(e);
        data.defer([](auto& proxy) {
          auto fresh = proxy.create_entity();
          proxy.add_component(ct::health, fresh, 10);
        });
      }
    });
  }
};

namespace st {
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto counter = strata::tag<::counter>;
inline constexpr auto summer = strata::tag<::summer>;
inline constexpr auto reaper = strata::tag<::reaper>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity),
    strata::component_signature::make(ct::health).sparse(),
    strata::component_signature::make(ct::label).hash_map());

constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::movement)
        .read(ct::velocity)
        .write(ct::position),
    strata::system_signature::make(st::counter)
        .read(ct::position)
        .dependencies(st::movement)
        .parallelism(strata::inner_parallelism::split_evenly(3))
        .output<int>(),
    strata::system_signature::make(st::summer)
        .dependencies(st::counter)
        .parallelism(strata::inner_parallelism::none()),
    strata::system_signature::make(st::reaper).read(ct::health));

template <typename Settings>
auto run_all(float dt) {
  return [dt](auto& proxy) {
    proxy.execute_systems()(
        strata::execution_adapter::t(st::counter, st::summer, st::reaper)
            .for_subtasks(
                [](auto& system, auto& data) { system.process(data); }),
        strata::execution_adapter::all().for_subtasks(
            [dt](auto& system, auto& data) { system.process(dt, data); }));
  };
}

constexpr auto base_settings = strata::settings()
                                   .dynamic_entity_limit(16)
                                   .allow_inner_parallelism()
                                   .component_signatures(components)
                                   .system_signatures(systems)
                                   .threads(1);

// A context with components but no systems (the default system list) is
// legal: it compiles under -Werror and steps. (It once failed to compile:
// an unused parameter in the signature checks.)
TEST(ContextTest, ContextWithoutSystems) {
  auto ctx =
      strata::make_context(strata::settings().component_signatures(components));
  strata::entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e, 1.f, 2.f);
  });
  EXPECT_TRUE(ctx.has(ct::position, e));
}

TEST(ContextTest, CreatedEntitiesAreAliveButSubscribedOnlyAfterRefresh) {
  auto ctx = strata::make_context(base_settings);
  strata::entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e, position{1, 2});
    proxy.add_component(ct::velocity, e, velocity{3, 4});
    EXPECT_TRUE(proxy.alive(e));
    EXPECT_FALSE(proxy.is_in_system(st::movement, e));
    EXPECT_EQ(proxy.count_entities_in(st::movement), 0u);
  });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.is_in_system(st::movement, e));
    EXPECT_TRUE(proxy.is_in_system(st::counter, e));
    EXPECT_FALSE(proxy.is_in_system(st::reaper, e));  // no health
    EXPECT_TRUE(proxy.is_in_system(st::summer, e));   // needs nothing
    proxy.execute_systems()(strata::execution_adapter::all().detailed_instance(
        [](auto&, auto& executor) {
          executor.for_subtasks([](auto& system, auto& data) {
            if constexpr (requires { system.process(0.5f, data); }) {
              system.process(0.5f, data);
            } else {
              system.process(data);
            }
          });
        }));
    const auto& p = proxy.get_component(ct::position, e);
    EXPECT_FLOAT_EQ(p.x, 1 + 3 * 0.5f);
    EXPECT_FLOAT_EQ(p.y, 2 + 4 * 0.5f);
  });
}

TEST(ContextTest, KillsTakeEffectAfterTheRefresh) {
  auto ctx = strata::make_context(base_settings);
  strata::entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e);
  });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.kill_entity(e));
    EXPECT_FALSE(proxy.kill_entity(e));  // already marked
    EXPECT_TRUE(proxy.alive(e));         // until the refresh
    EXPECT_TRUE(proxy.is_in_system(st::counter, e));
  });
  EXPECT_FALSE(ctx.alive(e));
  ctx.step([&](auto& proxy) {
    EXPECT_FALSE(proxy.kill_entity(e));  // dead: no-op
    EXPECT_FALSE(proxy.is_in_system(st::counter, e));
    EXPECT_EQ(proxy.count_entities_in(st::counter), 0u);
    // The index is reused with a new version; the old id stays dead.
    auto reused = proxy.create_entity();
    EXPECT_EQ(reused.index(), e.index());
    EXPECT_NE(reused, e);
    EXPECT_FALSE(proxy.alive(e));
    EXPECT_FALSE(proxy.has_component(ct::position, reused));
  });
}

TEST(ContextTest, StaleHandlesAreInvalidAfterReuse) {
  auto ctx = strata::make_context(base_settings);
  strata::entity_handle handle;
  ctx.step(
      [&](auto& proxy) { handle = proxy.make_handle(proxy.create_entity()); });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.valid(handle));
    EXPECT_TRUE(proxy.kill_entity(handle));
  });
  ctx.step([&](auto& proxy) {
    proxy.create_entity();  // reuses the index
    EXPECT_FALSE(proxy.valid(handle));
  });
}

TEST(ContextTest, DeferredCriticalOperationsRunInTheRefresh) {
  auto ctx = strata::make_context(base_settings);
  std::vector<strata::entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int hp : {5, 0, 0, 7}) {
      auto e = proxy.create_entity();
      proxy.add_component(ct::health, e, hp);
      ids.push_back(e);
    }
  });
  ctx.step(run_all<void>(0.f));  // reaper kills the two at 0, defers two new
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.alive(ids[0]));
    EXPECT_FALSE(proxy.alive(ids[1]));
    EXPECT_FALSE(proxy.alive(ids[2]));
    EXPECT_TRUE(proxy.alive(ids[3]));
    EXPECT_EQ(proxy.entity_count(), 4u);
    EXPECT_EQ(proxy.count_entities_in(st::reaper), 4u);
    EXPECT_EQ(proxy.system(st::reaper).subscribed, 6);
    EXPECT_EQ(proxy.system(st::reaper).unsubscribed, 2);
  });
}

struct adder {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](strata::entity_id e) {
      data.defer([e](auto& proxy) {
        proxy.add_component(ct::velocity, e, velocity{1, 1});
        proxy.remove_component(ct::label, e);
      });
    });
  }
};

TEST(ContextTest, DeferredAddAndRemoveComponents) {
  constexpr auto sys = strata::system_signatures(
      strata::system_signature::make(strata::tag<adder>).read(ct::position));
  auto ctx = strata::make_context(strata::settings()
                                      .component_signatures(components)
                                      .system_signatures(sys)
                                      .threads(1));
  strata::entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e);
    proxy.add_component(ct::label, e,
                        label{std::make_unique<std::string>("x")});
  });
  ctx.step([&](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
    EXPECT_FALSE(proxy.has_component(ct::velocity, e));  // deferred
  });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.has_component(ct::velocity, e));
    EXPECT_FALSE(proxy.has_component(ct::label, e));
  });
}

TEST(ContextTest, OutputsPerSubtaskAndPreviousOutputs) {
  auto ctx = strata::make_context(base_settings);
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 10; ++i)
      proxy.add_component(ct::position, proxy.create_entity());
  });
  ctx.step([&](auto& proxy) {
    run_all<void>(1.f)(proxy);
    std::vector<int> counts;
    proxy.for_system_outputs(st::counter,
                             [&](auto&, int& n) { counts.push_back(n); });
    EXPECT_EQ(counts, (std::vector<int>{3, 3, 4}));  // split_evenly(3) of 10
    EXPECT_EQ(proxy.system(st::summer).total, 10);
  });
  // Outputs are reset before each run.
  ctx.step([&](auto& proxy) {
    run_all<void>(1.f)(proxy);
    EXPECT_EQ(proxy.system(st::summer).total, 10);
  });
}

TEST(ContextTest, ExecuteSystemsFromRunsTheChainOnly) {
  auto ctx = strata::make_context(base_settings);
  ctx.step([&](auto& proxy) {
    proxy.add_component(ct::position, proxy.create_entity());
  });
  ctx.step([&](auto& proxy) {
    int ran = 0;
    proxy.execute_systems_from(st::counter)(
        strata::execution_adapter::all().for_subtasks(
            [&](auto& system, auto& data) {
              ++ran;
              system.process(data);
            }));
    EXPECT_EQ(ran, 2);  // counter (one subtask for one entity) and summer
    EXPECT_EQ(proxy.system(st::summer).total, 1);
  });
}

TEST(ContextTest, RemoveComponentLeavesSystemsAtOnce) {
  auto ctx = strata::make_context(base_settings);
  strata::entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e);
    proxy.add_component(ct::velocity, e);
  });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.is_in_system(st::movement, e));
    EXPECT_TRUE(proxy.remove_component(ct::velocity, e));
    EXPECT_FALSE(proxy.is_in_system(st::movement, e));
    EXPECT_TRUE(proxy.is_in_system(st::counter, e));
    EXPECT_FALSE(proxy.remove_component(ct::velocity, e));  // missing: no-op
    run_all<void>(1.f)(proxy);  // movement must not see e
  });
}

TEST(ContextTest, RunTimeMisuseHasDocumentedResults) {
  auto ctx = strata::make_context(base_settings);
  strata::entity_id dead;
  ctx.step([&](auto& proxy) { dead = proxy.create_entity(); });
  ctx.step([&](auto& proxy) { proxy.kill_entity(dead); });
  ctx.step([&](auto& proxy) {
    EXPECT_FALSE(proxy.kill_entity(dead));
    EXPECT_FALSE(proxy.remove_component(ct::position, dead));
    EXPECT_FALSE(proxy.has_component(ct::position, dead));
    EXPECT_FALSE(proxy.kill_entity(strata::null_entity));
  });
}

TEST(ContextDeathTest, AddComponentToDeadEntityIsACheckFailure) {
  auto ctx = strata::make_context(base_settings);
  strata::entity_id dead;
  ctx.step([&](auto& proxy) { dead = proxy.create_entity(); });
  ctx.step([&](auto& proxy) { proxy.kill_entity(dead); });
  EXPECT_DEATH(
      ctx.step([&](auto& proxy) { proxy.add_component(ct::position, dead); }),
      "add_component: the entity is not alive");
  EXPECT_DEATH(
      ctx.step([&](auto& proxy) { proxy.get_component(ct::position, dead); }),
      "get_component: the entity is not alive or lacks this component");
}

TEST(ContextTest, FullFixedLimitRefusesAndKeepsEveryEntity) {
  auto ctx = strata::make_context(strata::settings()
                                      .fixed_entity_limit<4>()
                                      .component_signatures(components)
                                      .system_signatures(systems)
                                      .threads(1));
  std::vector<strata::entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 4; ++i) {
      auto e = proxy.create_entity();
      proxy.add_component(ct::health, e, i);
      ids.push_back(e);
    }
    auto refused = proxy.try_create_entity();
    EXPECT_FALSE(refused.has_value());
  });
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 4; ++i) {
      EXPECT_TRUE(proxy.alive(ids[i]));
      EXPECT_EQ(proxy.get_component(ct::health, ids[i]).hp, i);
    }
    EXPECT_EQ(proxy.count_entities_in(st::reaper), 4u);
  });
  EXPECT_DEATH(ctx.step([](auto& proxy) { proxy.create_entity(); }), "limit");
}

// A component that counts its live objects.
struct counted {
  static inline int live = 0;
  explicit counted(std::string v) : value(std::move(v)) { ++live; }
  counted(counted&& other) noexcept : value(std::move(other.value)) { ++live; }
  counted& operator=(counted&&) noexcept = default;
  ~counted() { --live; }
  std::string value;
};
struct counted_spawner {  // defers three creations, each given a counted
  template <typename Data>
  void process(Data& data) const {
    data.defer([](auto& proxy) {
      for (int i = 0; i < 3; ++i) {
        const strata::entity_id e = proxy.create_entity();  // null if full
        counted& c = proxy.add_component(strata::tag<counted>, e,
                                         std::string(40, 'a' + i));
        c.value += "!";  // usable, kept or discarded
      }
    });
  }
};

TEST(ContextTest, ComponentsForRefusedCreationsAreDiscardedAtTheRefresh) {
  counted::live = 0;
  {
    auto ctx = strata::make_context(
        strata::settings()
            .fixed_entity_limit<1>()
            .component_signatures(strata::component_signatures(
                strata::component_signature::make(strata::tag<counted>),
                strata::component_signature::make(ct::position)))
            .system_signatures(strata::system_signatures(
                strata::system_signature::make(strata::tag<counted_spawner>)))
            .threads(1));
    const auto run = [](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    };
    ctx.step(run);  // one created, two refused: their objects are gone
    EXPECT_EQ(ctx.refused_creations(), 2u);
    EXPECT_EQ(ctx.entity_count(), 1u);
    EXPECT_EQ(counted::live, 1);
    ctx.for_each([](const counted& c) {
      EXPECT_EQ(c.value, std::string(40, 'a') + "!");
    });
    ctx.step(run);  // all three refused, the slot reused
    EXPECT_EQ(ctx.refused_creations(), 3u);
    EXPECT_EQ(counted::live, 1);
  }
  EXPECT_EQ(counted::live, 0);
}

struct thrower {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](strata::entity_id) {
      if (data.subtask_index() == 1) throw std::runtime_error("boom");
    });
  }
};

TEST(ContextTest, ExceptionFromASystemReachesStepAndContextStaysUsable) {
  constexpr auto sys = strata::system_signatures(
      strata::system_signature::make(strata::tag<thrower>)
          .read(ct::position)
          .parallelism(strata::inner_parallelism::split_evenly(4)));
  auto ctx = strata::make_context(strata::settings()
                                      .allow_inner_parallelism()
                                      .component_signatures(components)
                                      .system_signatures(sys)
                                      .threads(2));
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 8; ++i)
      proxy.add_component(ct::position, proxy.create_entity());
  });
  strata::entity_id created_before_throw;
  EXPECT_THROW(ctx.step([&](auto& proxy) {
    created_before_throw = proxy.create_entity();
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  }),
               std::runtime_error);
  EXPECT_TRUE(ctx.alive(created_before_throw));  // the refresh still ran
  ctx.step([&](auto& proxy) {
    EXPECT_EQ(proxy.entity_count(), 9u);
    proxy.kill_entity(created_before_throw);
  });
  EXPECT_EQ(ctx.entity_count(), 8u);
}

struct with_arguments {
  int scale;
  explicit with_arguments(int s) : scale(s) {}
  template <typename Data>
  void process(Data&) const {}
};

TEST(ContextTest, SystemsGetConstructorArguments) {
  constexpr auto sys = strata::system_signatures(
      strata::system_signature::make(strata::tag<with_arguments>));
  auto ctx = strata::make_context(
      strata::settings()
          .component_signatures(components)
          .system_signatures(sys)
          .threads(1),
      strata::system_arguments(strata::tag<with_arguments>, 42));
  ctx.step([](auto& proxy) {
    EXPECT_EQ(proxy.system(strata::tag<with_arguments>).scale, 42);
  });
}

TEST(ContextTest, ContextIsMovable) {
  auto ctx = strata::make_context(base_settings);
  strata::entity_id e;
  ctx.step([&](auto& proxy) { e = proxy.create_entity(); });
  auto moved = std::move(ctx);
  EXPECT_TRUE(moved.alive(e));
}

}  // namespace
