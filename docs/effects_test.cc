// The snippets of docs/guide/10-effects.md, compiled and run. The text
// between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <cstddef>
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct turret {
  strata::entity_id target;
  int power = 1;
};
struct health {
  int points = 10;
};
namespace ct {
inline constexpr auto turret = strata::tag<::turret>;
inline constexpr auto health = strata::tag<::health>;
}  // namespace ct

// --- snippet: message ---
struct damage {  // a message type: plain data
  int amount = 0;
};
namespace mt {
inline constexpr auto damage = strata::tag<::damage>;
}  // namespace mt
// --- end snippet ---

// --- snippet: systems ---
struct gunnery {  // may split: every subtask sends from its own entities
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, const turret& t) {
      data.send(self, t.target, damage{t.power});
    });
  }
};

struct hull {  // may split: each entity applies the messages sent to it
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, health& h) {
      // strata::message<damage>: m.sender, m.target, m.value
      for (const auto& m : data.messages(mt::damage, self)) {
        h.points -= m.value.amount;
      }
    });
  }
};

struct tally {  // never splits: sees every message, in send order
  std::vector<int> amounts;
  template <typename Data>
  void process(Data& data) {
    amounts.clear();
    data.for_each_message(mt::damage, [&](const strata::message<damage>& m) {
      amounts.push_back(m.value.amount);
    });
  }
};
// --- end snippet ---

namespace st {
inline constexpr auto gunnery = strata::tag<::gunnery>;
inline constexpr auto hull = strata::tag<::hull>;
inline constexpr auto tally = strata::tag<::tally>;
}  // namespace st

// --- snippet: signatures ---
constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::turret),
            strata::component_signature::make(ct::health)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::gunnery)
                .read(ct::turret)
                .sends<damage>(),
            strata::system_signature::make(st::hull)
                .write(ct::health)
                .receives<damage>()
                .dependencies(st::gunnery),  // after every sender of damage
            strata::system_signature::make(st::tally)
                .receives<damage>()
                .dependencies(st::gunnery)
                .parallelism(strata::inner_parallelism::none())))
        .threads(4);
// --- end snippet ---

void run_systems(auto& proxy) {
  proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}

TEST(EffectsGuideTest, SendReceiveAndDrop) {
  auto ctx = strata::make_context(settings);
  // --- snippet: run ---
  strata::entity_id ship, wreck;
  ctx.step([&](auto& proxy) {
    ship = proxy.create_entity();
    wreck = proxy.create_entity();
    proxy.add_component(ct::health, ship);
    proxy.add_component(ct::health, wreck);
    for (int power : {1, 2, 3}) {
      proxy.add_component(ct::turret, proxy.create_entity(), ship, power);
    }
    proxy.add_component(ct::turret, proxy.create_entity(), wreck, 5);
  });
  ctx.step([&](auto& proxy) { proxy.kill_entity(wreck); });
  ctx.step([&](auto& proxy) {
    run_systems(proxy);
    // Sent in this step, seen by the receivers, then cleared at the refresh:
    EXPECT_EQ(proxy.system(st::tally).amounts, (std::vector<int>{1, 2, 3}));
  });
  EXPECT_EQ(ctx.get(ct::health, ship).points, 10 - 6);
  EXPECT_EQ(ctx.dropped_messages(), 1u);  // the 5 sent to the dead wreck
  // --- end snippet ---
}

}  // namespace
