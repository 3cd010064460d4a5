// A system declared both .ordered_by(ct::x) and .changed(ct::x) visits only
// the entities whose x changed since its last run, in key order (ties by
// index), through for_each and through for_entities alike, at every
// thread count.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"

namespace {

using strata::entity_id;

struct layer {
  int depth = 0;
};
namespace ct {
inline constexpr auto layer = strata::tag<::layer>;
}  // namespace ct

using visits = std::vector<std::uint32_t>;

struct through_for_each {
  template <typename Data>
  void process(Data& data) const {
    data.for_each(
        [&](entity_id e, const layer&) { data.output().push_back(e.index()); });
  }
};
struct through_for_entities {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) { data.output().push_back(e.index()); });
  }
};
namespace st {
inline constexpr auto through_for_each = strata::tag<::through_for_each>;
inline constexpr auto through_for_entities =
    strata::tag<::through_for_entities>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::layer)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::through_for_each)
                .read(ct::layer)
                .changed(ct::layer)
                .ordered_by(ct::layer, strata::order_by_member<&layer::depth>)
                .parallelism(strata::inner_parallelism::split_evenly(3))
                .output<visits>(),
            strata::system_signature::make(st::through_for_entities)
                .read(ct::layer)
                .changed(ct::layer)
                .ordered_by(ct::layer, strata::order_by_member<&layer::depth>)
                .parallelism(strata::inner_parallelism::split_evenly(3))
                .output<visits>()))
        .scheduler(strata::scheduler::atomic_counter);

template <typename Context, typename Tag>
visits visited(Context& ctx, Tag system) {
  visits all;
  ctx.step([&](auto& proxy) {
    proxy.for_system_outputs(system, [&](auto&, const visits& part) {
      all.insert(all.end(), part.begin(), part.end());
    });
  });
  return all;
}

void check_at(std::size_t threads) {
  auto ctx = strata::make_context<settings>(
      strata::run_options().threads(threads).hand_off(
          strata::hand_off::always));
  std::vector<entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 60; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::layer, e, (i * 7) % 5);
      ids.push_back(e);
    }
  });
  const auto run = [&] {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  };
  run();  // the first run sees every entity (each was added)
  // Change every third entity's depth; the others keep theirs.
  std::vector<std::pair<int, std::uint32_t>> expected;
  ctx.step([&](auto& proxy) {
    for (std::size_t i = 0; i < ids.size(); i += 3) {
      const int depth = static_cast<int>(40 - i) % 6;
      proxy.add_component(ct::layer, ids[i], depth);  // replaces: a write
      expected.emplace_back(depth, static_cast<std::uint32_t>(ids[i].index()));
    }
  });
  std::stable_sort(
      expected.begin(), expected.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  visits order;
  for (const auto& [depth, index] : expected) order.push_back(index);
  run();
  EXPECT_EQ(visited(ctx, st::through_for_each), order) << threads;
  EXPECT_EQ(visited(ctx, st::through_for_entities), order) << threads;
  run();  // nothing changed since
  EXPECT_TRUE(visited(ctx, st::through_for_each).empty()) << threads;
  EXPECT_TRUE(visited(ctx, st::through_for_entities).empty()) << threads;
}

TEST(OrderedChangeFilterTest, VisitsTheChangedEntitiesInKeyOrder) {
  for (std::size_t threads : {1u, 2u, 8u}) check_at(threads);
}

}  // namespace
