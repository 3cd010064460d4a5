// The sender rule of data.send in a system that may split (context/
// effect_channel.h, "Order"): the sender must be an entity of the sending
// subtask's slice, named in ascending index order. A send that breaks it
// stops the program with Strata's message in every build, so that the
// order receivers see never depends on how the system was split.
#include <cstddef>
#include <vector>

#include "context/context.h"
#include "context/effect_channel_testing.h"
#include "gtest/gtest.h"

namespace {

namespace ect = strata::effect_channel_testing;
using ect::damage;
using ect::gun;
using strata::entity_id;
namespace ct {
using ect::ct::gun;
using ect::ct::hull;
}  // namespace ct
namespace mt {
using ect::mt::damage;
}  // namespace mt

// How a sender names its senders.
enum class naming { own_ids, descending, outside_slice };
struct naming_choice {
  naming how = naming::own_ids;
  entity_id outsider;  // a hull: not an entity this system visits
};

struct volley {
  template <typename Data>
  void process(Data& data) const {
    const naming_choice& choice = data.template resource<naming_choice>();
    std::vector<entity_id> visited;
    data.for_each([&](entity_id self, const gun& g) {
      visited.push_back(self);
      switch (choice.how) {
        case naming::own_ids:
          data.send(self, g.target, damage{1});
          break;
        case naming::descending:
          // Sends from itself, then again from the gun visited before it.
          data.send(self, g.target, damage{1});
          if (visited.size() > 1) {
            data.send(visited[visited.size() - 2], g.target, damage{1});
          }
          break;
        case naming::outside_slice:
          data.send(choice.outsider, g.target, damage{1});
          break;
      }
    });
  }
};
struct sink {
  std::size_t seen = 0;
  template <typename Data>
  void process(Data& data) {
    seen = 0;
    data.for_each_message(mt::damage, [&](const auto&) { ++seen; });
  }
};
namespace st {
inline constexpr auto volley = strata::tag<::volley>;
inline constexpr auto sink = strata::tag<::sink>;
}  // namespace st

// One thread, yet the system may split: the rule holds in every run, not
// only when a second thread happens to take a slice.
constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .resources(strata::resources(strata::resource<naming_choice>))
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::gun),
            strata::component_signature::make(ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::volley)
                .read(ct::gun)
                .read_resource<naming_choice>()
                .sends<damage>()
                .parallelism(strata::inner_parallelism::split_evenly(3)),
            strata::system_signature::make(st::sink)
                .receives<damage>()
                .dependencies(st::volley)
                .parallelism(strata::inner_parallelism::none())))
        .scheduler(strata::scheduler::sequential)
        .threads(1);

void run_with(naming how) {
  auto ctx = strata::make_context<settings>();
  const ect::world w = ect::populate(ctx, 4, 12, 5);
  ctx.template resource<naming_choice>() = {how, w.hulls.front()};
  ctx.step([](auto& proxy) { ect::run_systems(proxy); });
}

TEST(EffectChannelSenderRuleTest, OwnIdsInIterationOrderAreAccepted) {
  auto ctx = strata::make_context<settings>();
  const ect::world w = ect::populate(ctx, 4, 12, 5);
  ctx.step([&](auto& proxy) {
    ect::run_systems(proxy);
    EXPECT_EQ(proxy.system(st::sink).seen, w.guns.size());
  });
}

TEST(EffectChannelSenderRuleDeathTest, SendersInDescendingOrderStop) {
  EXPECT_DEATH(run_with(naming::descending),
               "data.send in a system that may split: the sender must be");
}

TEST(EffectChannelSenderRuleDeathTest, ASenderOutsideTheSliceStops) {
  EXPECT_DEATH(run_with(naming::outside_slice),
               "data.send in a system that may split: the sender must be");
}

}  // namespace
