// Test-only: the components, message and systems the effect channel's
// tests share (context/effect_channel_test.cc and its siblings): guns that
// send damage to hulls, hulls that fold every message they receive, in
// order, into a hash, so equal folds mean the same messages in the same
// order.
#ifndef STRATA_CONTEXT_EFFECT_CHANNEL_TESTING_H_
#define STRATA_CONTEXT_EFFECT_CHANNEL_TESTING_H_

#include <cstdint>
#include <random>
#include <vector>

#include "context/context.h"

namespace strata::effect_channel_testing {

using strata::entity_id;

struct gun {
  entity_id target;
  int power = 0;
};
struct hull {
  int points = 0;
  // A fold of every message applied, in order: equal folds mean the same
  // messages in the same order.
  std::uint64_t fold = 0;
};
struct damage {
  int amount = 0;
};
namespace ct {
inline constexpr auto gun = strata::tag<effect_channel_testing::gun>;
inline constexpr auto hull = strata::tag<effect_channel_testing::hull>;
}  // namespace ct
namespace mt {
inline constexpr auto damage = strata::tag<effect_channel_testing::damage>;
}  // namespace mt

std::uint64_t fold_in(std::uint64_t fold, entity_id sender, int amount) {
  return fold * 1000003u + sender.index() * 131u +
         static_cast<std::uint64_t>(amount);
}

// Each gun fires twice at its target (power, then 1): two messages per
// sender, so the send order within one sender counts.
struct gunnery {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, const gun& g) {
      data.send(self, g.target, damage{g.power});
      data.send(self, g.target, damage{1});
    });
  }
};
// Applies each hull's messages through for_each's T&: race-free however
// the system splits.
struct repair {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, hull& h) {
      for (const strata::message<damage>& m : data.messages(mt::damage, self)) {
        h.points -= m.value.amount;
        h.fold = fold_in(h.fold, m.sender, m.value.amount);
      }
    });
  }
};
namespace st {
inline constexpr auto gunnery = strata::tag<effect_channel_testing::gunnery>;
inline constexpr auto repair = strata::tag<effect_channel_testing::repair>;
}  // namespace st

struct world {
  std::vector<entity_id> guns;
  std::vector<entity_id> hulls;
};

// Hulls first (indices 0..hull_count-1), then guns aiming at random hulls.
template <typename Context>
world populate(Context& ctx, int hull_count, int gun_count,
               std::uint32_t seed) {
  world w;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < hull_count; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::hull, e, hull{1000, 0});
      w.hulls.push_back(e);
    }
    std::mt19937 random(seed);
    for (int i = 0; i < gun_count; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::gun, e,
                          gun{w.hulls[random() % w.hulls.size()], 1 + i % 7});
      w.guns.push_back(e);
    }
  });
  return w;
}

template <typename Proxy>
void run_systems(Proxy& proxy) {
  proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}

}  // namespace strata::effect_channel_testing

#endif  // STRATA_CONTEXT_EFFECT_CHANNEL_TESTING_H_
