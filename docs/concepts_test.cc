// The snippets of docs/guide/01-concepts.md, compiled and run. The text
// between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME, character for character (docs:check_snippets_test).
#include <cstddef>
#include <string>
#include <vector>

#include "component_storage/hash_map_chunk.h"
#include "gtest/gtest.h"
#include "strata.h"

namespace {

// --- snippet: components ---
struct position {
  float x, y;
};
struct velocity {
  float x, y;
};
struct health {
  int hp;
};
struct nickname {
  std::string text;
};
struct frozen {};  // a tag: no data, no storage

namespace ct {  // component tags: a type as a constexpr value
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto health = strata::tag<::health>;
inline constexpr auto nickname = strata::tag<::nickname>;
inline constexpr auto frozen = strata::tag<::frozen>;
}  // namespace ct
// --- end snippet ---

// --- snippet: component-signatures ---
constexpr auto components = strata::component_signatures(
    // A contiguous buffer (the default), SoA: an array per component.
    strata::component_signature::make(ct::position, ct::velocity),
    // A packed sparse set.
    strata::component_signature::make(ct::health).sparse(),
    // A hash map: for rare components.
    strata::component_signature::make(ct::nickname).hash_map(),
    // An empty component stores nothing.
    strata::component_signature::make(ct::frozen));
// --- end snippet ---

struct wind {
  float push = 0;
};
struct damage_log {
  int total = 0;
};

// --- snippet: systems ---
struct movement {
  template <typename Data>
  void process(float dt, Data& data) const {
    data.for_each([dt](position& p, const velocity& v) {
      p.x += v.x * dt;
      p.y += v.y * dt;
    });
  }
};

struct aging {  // counts the entities it visited, per subtask
  template <typename Data>
  void process(float, Data& data) const {
    data.for_each([&](health& h) {
      --h.hp;
      ++data.output();
    });
  }
};

struct blown {  // pushed by the wind, unless frozen
  template <typename Data>
  void process(float dt, Data& data) const {
    const wind& w = data.template resource<wind>();
    data.for_each([&](velocity& v) { v.x += w.push * dt; });
  }
};

struct reporter {  // sums aging's outputs; optional access to nicknames
  template <typename Data>
  void process(float, Data& data) const {
    auto& log = data.template resource<damage_log>();
    data.for_previous_outputs(strata::tag<aging>,
                              [&](aging&, int n) { log.total += n; });
    data.for_entities([&](strata::entity_id e) {
      if (const nickname* n = data.try_read(ct::nickname, e)) {
        (void)n->text;  // only some entities have one
      }
    });
  }
};

namespace st {  // system tags
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto aging = strata::tag<::aging>;
inline constexpr auto blown = strata::tag<::blown>;
inline constexpr auto reporter = strata::tag<::reporter>;
}  // namespace st
// --- end snippet ---

// --- snippet: system-signatures ---
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::blown)
        .write(ct::velocity)
        .exclude(ct::frozen)
        .read_resource<wind>(),
    strata::system_signature::make(st::movement)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::blown)  // blown writes velocity: order them
        .parallelism(strata::inner_parallelism::split_evenly_per_core()),
    strata::system_signature::make(st::aging).write(ct::health).output<int>(),
    strata::system_signature::make(st::reporter)
        .read(ct::position)
        .read_optional(ct::nickname)
        .write_resource<damage_log>()
        .dependencies(st::aging, st::movement)
        // One subtask: it adds every output to the log once, and only a
        // system that never splits may write a resource (3. Parallelism).
        .parallelism(strata::inner_parallelism::none()));
// --- end snippet ---

// --- snippet: settings ---
constexpr auto settings =
    strata::settings()
        .fixed_entity_limit<10'000>()  // or .dynamic_entity_limit(capacity)
        .allow_inner_parallelism()
        .component_signatures(components)
        .system_signatures(systems)
        .resources(strata::resources(strata::resource<wind>,
                                     strata::resource<damage_log>))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2);
// --- end snippet ---

TEST(ConceptsTest, FirstSteps) {
  // --- snippet: first-steps ---
  auto ctx = strata::make_context<settings>();
  ctx.resource<wind>().push = 1;  // resources are set up between steps

  strata::entity_id hero;
  ctx.step([&](auto& proxy) {  // a step: critical operations allowed
    hero = proxy.create_entity();
    proxy.add_component(ct::position, hero, 0.f, 0.f);
    proxy.add_component(ct::velocity, hero, 1.f, 0.f);
    proxy.add_component(ct::health, hero, 10);
    proxy.add_component(ct::nickname, hero, "hero");
  });  // the refresh: hero joins blown, movement, aging and reporter

  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(0.5f, data); }));
  });

  EXPECT_FLOAT_EQ(ctx.get(ct::position, hero).x, 0.75f);  // (1 + 0.5) * 0.5
  EXPECT_EQ(ctx.get(ct::health, hero).hp, 9);
  EXPECT_EQ(ctx.resource<damage_log>().total, 1);
  // --- end snippet ---
}

TEST(ConceptsTest, StorageDoesNotChangeWhatSystemsSee) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 100; ++i) {
      auto e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, 0.f);
      proxy.add_component(ct::velocity, e, 0.f, 0.f);
      if (i % 10 == 0) proxy.add_component(ct::health, e, 5);
      if (i % 2 == 0) proxy.add_component(ct::frozen, e);
    }
  });
  EXPECT_EQ(ctx.count(ct::health), 10u);
  EXPECT_EQ(ctx.count(ct::frozen), 50u);
  ctx.step([](auto& proxy) {
    EXPECT_EQ(proxy.count_entities_in(st::blown), 50u);  // frozen excluded
    EXPECT_EQ(proxy.count_entities_in(st::aging), 10u);
    EXPECT_EQ(proxy.count_entities_in(st::reporter), 100u);
  });
}

// What a system's data proxy offers, all in one system.
struct inspector {
  std::size_t seen = 0;
  template <typename Data>
  void process(Data& data) {
    // --- snippet: data-proxy ---
    // The usual way: the parameter types name the components.
    data.for_each([&](strata::entity_id e, health& h, const position& p) {
      if (p.x > 100) h.hp = 0;
      if (h.hp <= 0) data.kill_entity(e);  // effective at the refresh
    });
    // By id: read() gives const T&; get() T& of a write() component. A
    // system that may split reaches by id only what it reads (3. Parallelism).
    data.for_entities([&](strata::entity_id e) {
      const position& p = data.read(ct::position, e);
      health& h = data.write(ct::health, e);  // compile error if read-only
      if (p.x < 0) ++h.hp;
    });
    seen += data.slice_entity_count();  // the size of this subtask's slice
    // --- end snippet ---
  }
};

TEST(ConceptsTest, DataProxy) {
  constexpr auto sys = strata::system_signatures(
      strata::system_signature::make(strata::tag<inspector>)
          .read(ct::position)
          .write(ct::health));
  auto ctx = strata::make_context(strata::settings()
                                      .component_signatures(components)
                                      .system_signatures(sys)
                                      .threads(1));
  ctx.step([](auto& proxy) {
    for (int hp : {1, 0, 3}) {
      auto e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, 0.f);
      proxy.add_component(ct::health, e, hp);
    }
  });
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
    EXPECT_EQ(proxy.system(strata::tag<inspector>).seen, 3u);
  });
  EXPECT_EQ(ctx.entity_count(), 2u);
}

}  // namespace
