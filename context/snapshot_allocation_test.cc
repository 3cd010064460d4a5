// Snapshots reuse their memory: once a snapshot and the world have held a
// world of this size, snapshot_into and restore make no heap allocation
// (counted by //testing:allocation_counter), with every storage kind in the
// world (snapshot_testing.h; its labels are short strings, which std::string
// keeps without allocating).
#include <cstddef>
#include <cstdint>

#include "context/snapshot_testing.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"

namespace {

namespace sn = strata::snapshot_testing;

TEST(SnapshotAllocationTest, SnapshotIntoAndRestoreAllocateNothingWhenWarm) {
  auto ctx = strata::make_context(
      sn::base_settings.scheduler(strata::scheduler::atomic_counter)
          .threads(2));
  for (std::uint64_t frame = 0; frame < 60; ++frame) sn::run_frame(ctx, frame);
  decltype(ctx)::snapshot_type saved;
  std::size_t allocations = 0;
  // A rollback loop: save frame 60, run to 70, go back; the first rounds
  // size the snapshot and the world, the later ones are counted.
  for (int round = 0; round < 6; ++round) {
    const std::size_t before_snapshot = strata::testing::allocation_count();
    ctx.snapshot_into(saved);
    const std::size_t after_snapshot = strata::testing::allocation_count();
    for (std::uint64_t frame = 60; frame < 70; ++frame) {
      sn::run_frame(ctx, frame);
    }
    const std::size_t before_restore = strata::testing::allocation_count();
    ctx.restore(saved);
    const std::size_t after_restore = strata::testing::allocation_count();
    if (round >= 2) {
      allocations +=
          (after_snapshot - before_snapshot) + (after_restore - before_restore);
    }
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_GT(ctx.count(sn::ct::label), 0u);
  EXPECT_GT(ctx.count(sn::ct::health), 0u);
  EXPECT_GT(ctx.count(sn::ct::spin), 0u);
}

}  // namespace
