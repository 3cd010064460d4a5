// Snapshots and change filters (context/snapshot.h,
// context/internal/change_stamps.h): a system with changed() sees after a
// restore exactly what it saw the first time, and a world loaded from a
// file shows it no change that happened before the load.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

#include "context/context.h"
#include "context/save_load.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::testing::position;
using strata::testing::velocity;
namespace ct = strata::testing::ct;

// Which entities the writer moves in the coming step (set between steps).
std::size_t chosen_stride = 2;
std::size_t chosen_offset = 0;

// Moves every chosen_stride-th entity: a write through data.write, so only
// those are stamped.
struct writer {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      if (e.index() % chosen_stride == chosen_offset) {
        data.write(ct::position, e).x += data.read(ct::velocity, e).x;
      }
    });
  }
};
// Lists the entities whose position changed since its previous run.
struct watcher {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      data.output().push_back(static_cast<std::uint32_t>(e.index()));
    });
  }
};

namespace st {
inline constexpr auto writer = strata::tag<::writer>;
inline constexpr auto watcher = strata::tag<::watcher>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::writer)
                .parallelism(strata::inner_parallelism::none())
                .read(ct::velocity)
                .write(ct::position),
            strata::system_signature::make(st::watcher)
                .read(ct::position)
                .changed(ct::position)
                .dependencies(st::writer)
                .output<std::vector<std::uint32_t>>()))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2);

template <typename Context>
void populate(Context& ctx) {
  ctx.step([](auto& proxy) {
    proxy.create_entities(64, [](position& p, velocity& v) {
      p.x = 0;
      v.x = 1;
    });
  });
}

// Runs one step with the writer's choice for step `k` and returns what the
// watcher saw, sorted.
template <typename Context>
std::vector<std::uint32_t> run_step(Context& ctx, std::size_t k) {
  chosen_stride = 2 + k % 5;
  chosen_offset = k % chosen_stride;
  std::vector<std::uint32_t> seen;
  ctx.step([&](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
    proxy.for_system_outputs(st::watcher,
                             [&](auto&, std::vector<std::uint32_t>& out) {
                               seen.insert(seen.end(), out.begin(), out.end());
                             });
  });
  std::sort(seen.begin(), seen.end());
  return seen;
}

TEST(SnapshotChangeFilterTest,
     AFilteredSystemSeesAfterARestoreWhatItSawTheFirstTime) {
  auto ctx = strata::make_context<settings>();
  populate(ctx);
  for (std::size_t k = 0; k < 6; ++k) run_step(ctx, k);
  auto snapshot = ctx.snapshot();
  const std::uint64_t steps_at_snapshot = ctx.step_count();
  std::vector<std::vector<std::uint32_t>> first;
  for (std::size_t k = 6; k < 16; ++k) first.push_back(run_step(ctx, k));
  ctx.restore(snapshot);
  EXPECT_EQ(ctx.step_count(), steps_at_snapshot);
  for (std::size_t k = 6; k < 16; ++k) {
    EXPECT_EQ(run_step(ctx, k), first[k - 6]) << "step " << k;
  }
}

TEST(SnapshotChangeFilterTest, ALoadedWorldShowsNoEarlierChange) {
  auto source = strata::make_context<settings>();
  populate(source);
  for (std::size_t k = 0; k < 3; ++k) run_step(source, k);
  std::stringstream file;
  ASSERT_EQ(source.save(file), strata::save_error::none);

  auto target = strata::make_context<settings>();
  populate(target);
  for (std::size_t k = 0; k < 5; ++k) run_step(target, k);
  // Replaced components: changes the watcher would see at its next run.
  target.step([](auto& proxy) {
    proxy.for_each([&](entity_id e, const position&) {
      if (e.index() % 3 == 0) proxy.add_component(ct::position, e, 5.f, 5.f);
    });
  });
  ASSERT_EQ(target.load(file), strata::load_error::none);
  // The writer moves none this step: the watcher sees nothing, neither the
  // loaded world's history nor the replaced world's.
  chosen_stride = 1000;
  chosen_offset = 999;
  std::vector<std::uint32_t> seen;
  target.step([&](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
    proxy.for_system_outputs(st::watcher,
                             [&](auto&, std::vector<std::uint32_t>& out) {
                               seen.insert(seen.end(), out.begin(), out.end());
                             });
  });
  EXPECT_TRUE(seen.empty());
}

}  // namespace
