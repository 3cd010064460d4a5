// The effect channel drops messages to ids that are not alive when sent
// (dead, stale, null) and counts them in ctx.dropped_messages(); a target
// killed in the step still receives; messages end with the step
// (context/effect_channel.h).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "context/context.h"
#include "context/effect_channel_testing.h"
#include "gtest/gtest.h"

namespace {

namespace ect = strata::effect_channel_testing;
using ect::damage;
using ect::gun;
using ect::hull;
using strata::entity_id;
namespace ct {
using ect::ct::gun;
using ect::ct::hull;
}  // namespace ct
namespace mt {
using ect::mt::damage;
}  // namespace mt

// Receives with for_each_message (never splits) and counts what it sees.
struct ledger {
  std::vector<std::pair<entity_id, int>> seen;
  entity_id watched;              // messages(mt::damage, watched) ...
  std::size_t watched_count = 0;  // ... has this many
  template <typename Data>
  void process(Data& data) {
    seen.clear();
    data.for_each_message(mt::damage, [&](const strata::message<damage>& m) {
      seen.push_back({m.target, m.value.amount});
    });
    watched_count = data.messages(mt::damage, watched).size();
  }
};
// Sends to the ids its guns hold, and to the null id.
struct volley {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, const gun& g) {
      data.send(self, g.target, damage{g.power});
      data.send(self, strata::null_entity, damage{100});
    });
  }
};
namespace st {
using ect::st::gunnery;
inline constexpr auto ledger = strata::tag<::ledger>;
inline constexpr auto volley = strata::tag<::volley>;
}  // namespace st

constexpr auto ledger_settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::gun),
            strata::component_signature::make(ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::volley)
                .read(ct::gun)
                .sends<damage>()
                .parallelism(strata::inner_parallelism::split_evenly(3)),
            strata::system_signature::make(st::ledger)
                .receives<damage>()
                .dependencies(st::volley)
                .parallelism(strata::inner_parallelism::none())))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(4);

TEST(EffectChannelTest, DeadStaleAndNullTargetsAreDroppedAndCounted) {
  auto ctx = strata::make_context<ledger_settings>();
  const ect::world w = ect::populate(ctx, 4, 12, 3);
  // Kill hull 0, then reuse its slot: guns aiming at it now hold a stale
  // id whose index names a live entity.
  ctx.step([&](auto& proxy) { proxy.kill_entity(w.hulls[0]); });
  entity_id reused;
  ctx.step([&](auto& proxy) {
    reused = proxy.create_entity();
    proxy.add_component(ct::hull, reused, hull{});
  });
  ASSERT_EQ(reused.index(), w.hulls[0].index());
  std::size_t aiming_at_dead = 0;
  for (const entity_id g : w.guns) {
    if (ctx.get(ct::gun, g).target == w.hulls[0]) ++aiming_at_dead;
  }
  ASSERT_GT(aiming_at_dead, 0u);
  // Kill hull 1 in the same step as the sends: alive until the refresh, so
  // its messages arrive.
  ctx.step([&](auto& proxy) {
    proxy.kill_entity(w.hulls[1]);
    ect::run_systems(proxy);
    const auto& seen = proxy.system(st::ledger).seen;
    EXPECT_EQ(seen.size(), w.guns.size() - aiming_at_dead);
    for (const auto& [target, amount] : seen) EXPECT_NE(target, reused);
  });
  EXPECT_EQ(ctx.dropped_messages(), w.guns.size() + aiming_at_dead);
  // The next step sees only its own messages; hull 1 is dead now.
  std::size_t aiming_at_one = 0;
  for (const entity_id g : w.guns) {
    if (ctx.get(ct::gun, g).target == w.hulls[1]) ++aiming_at_one;
  }
  ctx.step([&](auto& proxy) {
    ect::run_systems(proxy);
    EXPECT_EQ(proxy.system(st::ledger).seen.size(),
              w.guns.size() - aiming_at_dead - aiming_at_one);
  });
  EXPECT_EQ(ctx.dropped_messages(),
            w.guns.size() + aiming_at_dead + aiming_at_one);
  ctx.step([](auto&) {});
  EXPECT_EQ(ctx.dropped_messages(), 0u);
  // A run with messages to a hull, then one without any: the second sees
  // none of the first's.
  entity_id watched;
  for (const entity_id g : w.guns) {
    if (ctx.alive(ctx.get(ct::gun, g).target)) {
      watched = ctx.get(ct::gun, g).target;
      break;
    }
  }
  ASSERT_FALSE(watched.is_null());
  ctx.step([&](auto& proxy) {
    proxy.system(st::ledger).watched = watched;
    ect::run_systems(proxy);
  });
  ctx.step([&](auto& proxy) {
    EXPECT_GT(proxy.system(st::ledger).watched_count, 0u);
    for (const entity_id g : w.guns) proxy.kill_entity(g);
  });
  ctx.step([&](auto& proxy) {
    ect::run_systems(proxy);
    EXPECT_TRUE(proxy.system(st::ledger).seen.empty());
    EXPECT_EQ(proxy.system(st::ledger).watched_count, 0u);
  });
}

}  // namespace
