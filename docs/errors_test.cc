// The snippets of docs/guide/06-errors.md, compiled and run. The text
// between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
//
// Every context here has at least one system: with GCC 12 and -Werror, a
// context whose settings list no systems does not compile
// (scheduler/dag.h's first_rejected warns that its `keep` parameter is
// unused when there are no signature lists).
#include <optional>
#include <stdexcept>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct hp {
  int value;
};
namespace ct {
inline constexpr auto hp = strata::tag<::hp>;
}  // namespace ct

struct spawner {  // asks for two entities from a deferred function
  template <typename Data>
  void process(Data& data) {
    data.defer([](auto& proxy) {
      for (int i = 0; i < 2; ++i) {
        const strata::entity_id e = proxy.create_entity();  // null if full
        proxy.add_component(ct::hp, e, 1);  // on null: discarded
      }
    });
  }
};

// --- snippet: thrower ---
struct fragile {
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](strata::entity_id e, const hp& h) {
      if (h.value < 0) throw std::runtime_error("negative hp");
      data.kill_entity(e);  // discarded when the system throws
    });
  }
};
// --- end snippet ---

namespace st {
inline constexpr auto spawner = strata::tag<::spawner>;
inline constexpr auto fragile = strata::tag<::fragile>;
}  // namespace st

constexpr auto components =
    strata::component_signatures(strata::component_signature::make(ct::hp));

// One thread, one system (at least one: see the note at the top of this
// file).
constexpr auto kFragileSettings =
    strata::settings()
        .component_signatures(components)
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::fragile).read(ct::hp)))
        .threads(1);

TEST(ErrorsGuideTest, NoOps) {
  auto ctx = strata::make_context<kFragileSettings>();
  // --- snippet: no-ops ---
  strata::entity_id e;
  ctx.step([&](auto& proxy) { e = proxy.create_entity(); });
  ctx.step([&](auto& proxy) {
    EXPECT_FALSE(proxy.remove_component(ct::hp, e));  // it has none
    EXPECT_TRUE(proxy.kill_entity(e));
  });
  ctx.step([&](auto& proxy) {
    EXPECT_FALSE(proxy.kill_entity(e));  // dead (stale): no-op
    EXPECT_FALSE(proxy.kill_entity(strata::null_entity));
    EXPECT_FALSE(proxy.has_component(ct::hp, e));
  });
  // --- end snippet ---
}

TEST(ErrorsGuideDeathTest, CheckFailures) {
  auto ctx = strata::make_context<kFragileSettings>();
  strata::entity_id dead;
  ctx.step([&](auto& proxy) { dead = proxy.create_entity(); });
  ctx.step([&](auto& proxy) { proxy.kill_entity(dead); });
  // --- snippet: check-failures ---
  EXPECT_DEATH(
      ctx.step([&](auto& proxy) { proxy.add_component(ct::hp, dead, 1); }),
      "add_component: the entity is not alive");
  EXPECT_DEATH(
      ctx.step([&](auto& proxy) { proxy.get_component(ct::hp, dead); }),
      "get_component: the entity is not alive or lacks this component");
  // --- end snippet ---
}

TEST(ErrorsGuideDeathTest, FullFixedLimit) {
  // --- snippet: fixed-limit ---
  auto ctx =
      strata::make_context(strata::settings()
                               .fixed_entity_limit<2>()
                               .component_signatures(components)
                               .system_signatures(strata::system_signatures(
                                   strata::system_signature::make(st::spawner)))
                               .threads(1));
  ctx.step([](auto& proxy) {
    proxy.create_entity();
    std::optional<strata::entity_id> second = proxy.try_create_entity();
    EXPECT_TRUE(second.has_value());
    std::optional<strata::entity_id> third = proxy.try_create_entity();
    EXPECT_FALSE(third.has_value());  // full: nothing created
  });
  EXPECT_DEATH(ctx.step([](auto& proxy) { proxy.create_entity(); }), "limit");

  ctx.step([](auto& proxy) {  // spawner defers two creations: both refused
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  EXPECT_EQ(ctx.refused_creations(), 2u);
  EXPECT_EQ(ctx.entity_count(), 2u);  // the existing ones are untouched
  // --- end snippet ---

  // --- snippet: full-limit-reaction ---
  std::size_t refused = 0;
  ctx.observe_refresh([&](const strata::refresh_event& event) {
    if (event.what == strata::refresh_event::kind::refused_creations) {
      refused += event.count;  // e.g. log it, or stop spawning
    }
  });
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  EXPECT_EQ(refused, 2u);  // one event for the step, with the count
  // --- end snippet ---
}

TEST(ErrorsGuideTest, ExceptionsFromSystems) {
  auto ctx = strata::make_context<kFragileSettings>();
  // --- snippet: exceptions ---
  strata::entity_id created;
  ctx.step([](auto& proxy) {
    proxy.add_component(ct::hp, proxy.create_entity(), 1);
    proxy.add_component(ct::hp, proxy.create_entity(), -1);
  });
  EXPECT_THROW(ctx.step([&](auto& proxy) {
    created = proxy.create_entity();  // requested before the throw
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  }),
               std::runtime_error);
  EXPECT_TRUE(ctx.alive(created));    // the refresh still ran
  EXPECT_EQ(ctx.entity_count(), 3u);  // fragile's kill was discarded
  ctx.step([](auto&) {});             // and the context is usable
  // --- end snippet ---
}

}  // namespace
