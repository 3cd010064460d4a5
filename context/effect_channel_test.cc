// The effect channel (context/effect_channel.h) through the public API:
// each entity receives its messages in (sending system, sender index, send
// order) order, the same as a sequential reference computed here by hand,
// at 1, 2 and 8 threads under both schedulers. Its siblings:
// effect_channel_drop_test.cc (dead, stale and null targets),
// effect_channel_model_test.cc (a model of random sends and kills),
// effect_channel_allocation_test.cc (a steady state allocates nothing),
// effect_channel_concurrency_test.cc (ThreadSanitizer); the compile-time
// rules are the message_* compile-fail tests (context/BUILD.bazel). One
// context per file keeps each file cheap to compile under sanitizers.
#include <cstddef>
#include <cstdint>
#include <random>
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

// Never splits: sends from the first hull to the hull `stride` after each
// one, in reverse (a send order no iteration gives).
struct mines {
  std::size_t stride = 3;
  template <typename Data>
  void process(Data& data) const {
    std::vector<entity_id> hulls;
    data.for_entities([&](entity_id id) { hulls.push_back(id); });
    for (std::size_t i = hulls.size(); i-- > 0;) {
      data.send(hulls.front(), hulls[(i * stride) % hulls.size()],
                damage{static_cast<int>(i % 5)});
    }
  }
};
namespace st {
using ect::st::gunnery;
using ect::st::repair;
inline constexpr auto mines = strata::tag<::mines>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::gun),
            strata::component_signature::make(ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::gunnery)
                .read(ct::gun)
                .sends<damage>()
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::mines)
                .read(ct::hull)
                .sends<damage>()
                .parallelism(strata::inner_parallelism::none()),
            strata::system_signature::make(st::repair)
                .write(ct::hull)
                .receives<damage>()
                .dependencies(st::gunnery, st::mines)
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core())))
        .scheduler(strata::scheduler::atomic_counter);

// The reference: every hull's messages in (gunnery by gun index, then
// mines in send order), applied by hand.
std::vector<hull> reference(const ect::world& w, int steps) {
  std::vector<hull> hulls(w.hulls.size(), hull{1000, 0});
  const auto slot = [&](entity_id id) {
    for (std::size_t i = 0; i < w.hulls.size(); ++i) {
      if (w.hulls[i] == id) return i;
    }
    return w.hulls.size();
  };
  std::mt19937 random(7);
  std::vector<gun> guns;
  for (std::size_t i = 0; i < w.guns.size(); ++i) {
    guns.push_back(
        gun{w.hulls[random() % w.hulls.size()], 1 + static_cast<int>(i) % 7});
  }
  for (int step = 0; step < steps; ++step) {
    std::vector<std::vector<std::pair<entity_id, int>>> inbox(hulls.size());
    for (std::size_t i = 0; i < guns.size(); ++i) {
      inbox[slot(guns[i].target)].push_back({w.guns[i], guns[i].power});
      inbox[slot(guns[i].target)].push_back({w.guns[i], 1});
    }
    for (std::size_t i = hulls.size(); i-- > 0;) {
      inbox[(i * 3) % hulls.size()].push_back(
          {w.hulls.front(), static_cast<int>(i % 5)});
    }
    for (std::size_t h = 0; h < hulls.size(); ++h) {
      for (auto [sender, amount] : inbox[h]) {
        hulls[h].points -= amount;
        hulls[h].fold = ect::fold_in(hulls[h].fold, sender, amount);
      }
    }
  }
  return hulls;
}

TEST(EffectChannelTest, OrderIsTheSequentialReferenceAtEveryThreadCount) {
  constexpr int kHulls = 300;
  constexpr int kGuns = 5000;
  constexpr int kSteps = 3;
  for (const auto kind : {strata::scheduler_kind::sequential,
                          strata::scheduler_kind::atomic_counter}) {
    for (const std::size_t threads : {1u, 2u, 8u}) {
      auto ctx = strata::make_context(
          settings, strata::run_options().threads(threads).scheduler(kind));
      const ect::world w = ect::populate(ctx, kHulls, kGuns, 7);
      for (int step = 0; step < kSteps; ++step) {
        ctx.step([](auto& proxy) { ect::run_systems(proxy); });
        EXPECT_EQ(ctx.dropped_messages(), 0u);
      }
      const std::vector<hull> expected = reference(w, kSteps);
      for (std::size_t h = 0; h < w.hulls.size(); ++h) {
        const hull& got = ctx.get(ct::hull, w.hulls[h]);
        ASSERT_EQ(got.points, expected[h].points) << h << " at " << threads;
        ASSERT_EQ(got.fold, expected[h].fold) << h << " at " << threads;
      }
    }
  }
}

}  // namespace
