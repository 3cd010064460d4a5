// The snippets of docs/guide/02-step-and-refresh.md, compiled and run. The
// text between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct position {
  float x, y;
};
struct velocity {
  float x, y;
};
struct health {
  int hp;
};
struct frozen {};

namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto health = strata::tag<::health>;
inline constexpr auto frozen = strata::tag<::frozen>;
}  // namespace ct

// --- snippet: hooks ---
struct mover {
  static constexpr std::string_view name = "mover";  // for events, traces
  int joined = 0;
  int left = 0;
  void on_subscribe(strata::entity_id) { ++joined; }
  void on_unsubscribe(strata::entity_id) { ++left; }

  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x;
      p.y += v.y;
    });
  }
};
// --- end snippet ---

struct medic {  // heals the wounded
  static constexpr std::string_view name = "medic";
  template <typename Data>
  void process(Data& data) {
    data.for_each([](health& h) {
      if (h.hp > 0 && h.hp < 10) ++h.hp;
    });
  }
};

// --- snippet: defer ---
struct reaper {
  static constexpr std::string_view name = "reaper";
  std::vector<std::string> log;

  template <typename Data>
  void process(Data& data) {
    data.for_each([&](strata::entity_id e, const health& h) {
      if (h.hp > 0) return;
      data.kill_entity(e);  // at the refresh, after the deferred functions
      data.defer([this, e](auto& proxy) {
        // Critical operations are allowed here; the kill is not applied yet.
        log.push_back(proxy.alive(e) ? "victim still alive" : "victim gone");
        const strata::entity_id heir = proxy.create_entity();
        proxy.add_component(ct::health, heir, 10);
      });
    });
  }
};
// --- end snippet ---

namespace st {
inline constexpr auto mover = strata::tag<::mover>;
inline constexpr auto medic = strata::tag<::medic>;
inline constexpr auto reaper = strata::tag<::reaper>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity),
            strata::component_signature::make(ct::health).sparse(),
            strata::component_signature::make(ct::frozen)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::mover)
                .read(ct::velocity)
                .write(ct::position)
                .exclude(ct::frozen),
            strata::system_signature::make(st::medic).write(ct::health),
            strata::system_signature::make(st::reaper)
                .read(ct::health)
                .dependencies(st::medic)))
        .threads(1);

void run_systems(auto& proxy) {
  proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}

TEST(RefreshGuideTest, CriticalOperations) {
  auto ctx = strata::make_context(settings);
  // --- snippet: critical-operations ---
  ctx.step([&](auto& proxy) {
    const strata::entity_id e = proxy.create_entity();
    proxy.add_component(ct::position, e, 1.f, 2.f);
    proxy.add_component(ct::health, e, 10);
    // Many at once: f's parameters name the components each one gets.
    proxy.create_entities(3, [](position& p, velocity& v) {
      p = {0, 0};
      v = {1, 0};
    });
    std::vector<strata::entity_id> movers;
    proxy.for_each(
        [&](strata::entity_id id, const velocity&) { movers.push_back(id); });
    proxy.add_components(ct::health, movers, 5);  // the same value for each
    EXPECT_EQ(proxy.count(ct::health), 4u);       // O(1)
    EXPECT_EQ(proxy.remove_components(ct::health, movers), 3u);
    proxy.get_component(ct::health, e).hp += 1;
    EXPECT_TRUE(proxy.has_component(ct::position, e));
    EXPECT_EQ(proxy.kill_entities(movers), 3u);  // dead at the refresh
    EXPECT_EQ(proxy.entity_count(), 4u);
  });
  EXPECT_EQ(ctx.entity_count(), 1u);
  // --- end snippet ---
}

TEST(RefreshGuideTest, TimingRules) {
  auto ctx = strata::make_context(settings);
  // --- snippet: timing-create ---
  strata::entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e, 0.f, 0.f);
    proxy.add_component(ct::velocity, e, 1.f, 0.f);
    EXPECT_TRUE(proxy.alive(e));                     // alive at once
    EXPECT_FALSE(proxy.is_in_system(st::mover, e));  // in no system yet
  });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.is_in_system(st::mover, e));  // joined at the refresh
    EXPECT_EQ(proxy.system(st::mover).joined, 1);
  });
  // --- end snippet ---

  // --- snippet: timing-remove-add ---
  ctx.step([&](auto& proxy) {
    proxy.remove_component(ct::velocity, e);
    proxy.add_component(ct::velocity, e, 1.f, 0.f);  // back before any look:
    EXPECT_TRUE(proxy.is_in_system(st::mover, e));   // it never left
    proxy.remove_component(ct::velocity, e);
    EXPECT_FALSE(proxy.is_in_system(st::mover, e));  // a look: out
    proxy.add_component(ct::velocity, e, 2.f, 0.f);
    EXPECT_FALSE(proxy.is_in_system(st::mover, e));  // back at the refresh
  });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.is_in_system(st::mover, e));  // back, silently:
    EXPECT_EQ(proxy.system(st::mover).joined, 1);   // no on_subscribe
    EXPECT_EQ(proxy.system(st::mover).left, 0);     // no on_unsubscribe
  });
  // --- end snippet ---

  // --- snippet: timing-add ---
  ctx.step([&](auto& proxy) {
    proxy.add_component(ct::frozen, e);               // mover excludes it
    proxy.add_component(ct::health, e, 3);            // medic requires it
    EXPECT_TRUE(proxy.has_component(ct::frozen, e));  // there at once
    EXPECT_TRUE(proxy.is_in_system(st::mover, e));    // leaves at the refresh
    EXPECT_FALSE(proxy.is_in_system(st::medic, e));   // joins at the refresh
  });
  ctx.step([&](auto& proxy) {
    EXPECT_FALSE(proxy.is_in_system(st::mover, e));
    EXPECT_TRUE(proxy.is_in_system(st::medic, e));
  });
  // --- end snippet ---

  // --- snippet: timing-remove ---
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.remove_component(ct::health, e));
    EXPECT_FALSE(proxy.has_component(ct::health, e));     // destroyed at once
    EXPECT_FALSE(proxy.is_in_system(st::medic, e));       // out at once
    EXPECT_FALSE(proxy.remove_component(ct::health, e));  // none: false
    proxy.remove_component(ct::frozen, e);           // mover excludes frozen:
    EXPECT_FALSE(proxy.is_in_system(st::mover, e));  // e joins at the refresh
  });
  // --- end snippet ---

  // --- snippet: timing-kill ---
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.kill_entity(e));
    EXPECT_FALSE(proxy.kill_entity(e));             // already marked: false
    EXPECT_TRUE(proxy.alive(e));                    // alive until the refresh
    EXPECT_TRUE(proxy.is_in_system(st::mover, e));  // and in its systems
  });
  EXPECT_FALSE(ctx.alive(e));  // the refresh applied the kill
  // --- end snippet ---
}

TEST(RefreshGuideTest, DeferredWork) {
  auto ctx = strata::make_context(settings);
  strata::entity_id victim;
  ctx.step([&](auto& proxy) {
    victim = proxy.create_entity();
    proxy.add_component(ct::health, victim, 0);
  });
  // --- snippet: defer-run ---
  ctx.step([&](auto& proxy) { run_systems(proxy); });
  ctx.step([&](auto& proxy) {
    EXPECT_EQ(proxy.system(st::reaper).log,
              std::vector<std::string>{"victim still alive"});
    EXPECT_FALSE(proxy.alive(victim));                   // then the kill
    EXPECT_EQ(proxy.count_entities_in(st::reaper), 1u);  // then the heir
  });
  // --- end snippet ---
}

TEST(RefreshGuideTest, ObserveRefresh) {
  auto ctx = strata::make_context(settings);
  strata::entity_id a;
  ctx.step([&](auto& proxy) {
    a = proxy.create_entity();
    proxy.add_component(ct::position, a, 0.f, 0.f);
    proxy.add_component(ct::velocity, a, 0.f, 0.f);
    proxy.add_component(ct::health, a, 5);
  });
  // --- snippet: observe ---
  std::vector<std::string> events;
  ctx.observe_refresh([&](const strata::refresh_event& event) {
    using kind = strata::refresh_event::kind;
    std::string text = event.what == kind::subscribe     ? "+"
                       : event.what == kind::unsubscribe ? "-"
                                                         : "reclaim ";
    text += to_string(event.entity);
    if (event.what != kind::reclaim)
      text += " " + std::string(event.system_name);
    events.push_back(text);
  });
  ctx.step([&](auto& proxy) {
    proxy.kill_entity(a);  // a is 0@0, in mover, medic and reaper
    proxy.add_component(ct::health, proxy.create_entity(), 1);
  });
  EXPECT_EQ(events, (std::vector<std::string>{
                        "-0@0 mover", "-0@0 medic", "-0@0 reaper",
                        "reclaim 0@0",  // kills first, in index order
                        "+1@0 medic", "+1@0 reaper"}));  // then matching
  ctx.observe_refresh(nullptr);                          // stop observing
  // --- end snippet ---
}

}  // namespace
