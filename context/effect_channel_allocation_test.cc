// A steady state of the effect channel (context/effect_channel.h) that
// sends, kills and creates entities every step allocates nothing, counted
// by //testing:allocation_counter across all threads.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "context/context.h"
#include "context/effect_channel_testing.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"

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

// Every step: every ship fires at its target, hit ships lose points, ships
// at zero die and are replaced (a kill and a creation), ships whose target
// died aim again after firing once more at the dead id (a drop). After
// warm-up nothing allocates.
struct reaper {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, const hull& h) {
      if (h.points <= 0) {
        data.kill_entity(self);
        data.defer([](auto& proxy) {
          const entity_id fresh = proxy.create_entity();
          proxy.add_component(ct::hull, fresh, hull{40, 0});
          proxy.add_component(ct::gun, fresh, gun{strata::null_entity, 3});
        });
      }
    });
  }
};
// Never splits: a gun whose target is dead aims at another ship.
struct aim {
  std::vector<entity_id> ships;
  std::uint32_t turn = 0;
  template <typename Data>
  void process(Data& data) {
    ships.clear();
    data.for_entities([&](entity_id id) { ships.push_back(id); });
    ++turn;
    data.for_each([&](entity_id self, gun& g) {
      if (!data.alive(g.target)) {
        g.target = ships[(self.index() * 7u + turn) % ships.size()];
      }
    });
  }
};
namespace st {
using ect::st::gunnery;
using ect::st::repair;
inline constexpr auto reaper = strata::tag<::reaper>;
inline constexpr auto aim = strata::tag<::aim>;
}  // namespace st

constexpr auto churn_settings =
    strata::settings()
        .dynamic_entity_limit(8192)
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::gun, ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::gunnery)
                .read(ct::gun)
                .sends<damage>()
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::aim)
                .write(ct::gun)
                .dependencies(st::gunnery)
                .parallelism(strata::inner_parallelism::none()),
            strata::system_signature::make(st::repair)
                .write(ct::hull)
                .receives<damage>()
                .dependencies(st::gunnery)
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::reaper)
                .read(ct::hull)
                .dependencies(st::repair)
                .parallelism(strata::inner_parallelism::split_evenly(2))))
        .scheduler(strata::scheduler::atomic_counter);

TEST(EffectChannelTest, SteadyStepsThatSendKillAndCreateAllocateNothing) {
  constexpr int kShips = 2000;
  for (const std::size_t threads : {1u, 2u, 4u}) {
    auto ctx = strata::make_context(churn_settings,
                                    strata::run_options().threads(threads));
    ctx.step([&](auto& proxy) {
      for (int i = 0; i < kShips; ++i) {
        const entity_id e = proxy.create_entity();
        proxy.add_component(ct::hull, e, hull{40, 0});
        proxy.add_component(ct::gun, e, gun{strata::null_entity, 1 + i % 7});
      }
    });
    const auto frame = [](auto& proxy) { ect::run_systems(proxy); };
    for (int i = 0; i < 200; ++i) ctx.step(frame);  // warm-up
    std::size_t dropped = 0;
    std::size_t steps_with_drops = 0;
    const std::size_t before = strata::testing::allocation_count();
    for (int i = 0; i < 100; ++i) {
      ctx.step(frame);
      dropped += ctx.dropped_messages();
      steps_with_drops += ctx.dropped_messages() > 0 ? 1 : 0;
    }
    const std::size_t after = strata::testing::allocation_count();
    EXPECT_EQ(after - before, 0u) << threads << " threads";
    // Ships die every step, so some gun fires at a dead id every step.
    EXPECT_EQ(steps_with_drops, 100u) << dropped;
    std::size_t ships = 0;
    ctx.step([&](auto& proxy) { ships = proxy.count_entities_in(st::repair); });
    EXPECT_EQ(ships, static_cast<std::size_t>(kShips));
  }
}

}  // namespace
