#include "scheduler/hand_off.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "scheduler/inner_parallelism.h"

namespace strata {
namespace {

TEST(RunCostTest, UnknownUntilMeasured) {
  run_cost cost;
  EXPECT_FALSE(cost.known());
  EXPECT_EQ(cost.predict(1000), run_cost::unknown);
  cost.record(2000, 1000);  // 2 ns per entity
  EXPECT_TRUE(cost.known());
  EXPECT_EQ(cost.predict(1000), 2000);
  EXPECT_EQ(cost.predict(5000), 10000);  // scales with the entities
  EXPECT_EQ(cost.predict(0), 2000);      // no entities: the per-run mean
}

TEST(RunCostTest, FollowsChangesWithinAFewSamples) {
  run_cost cost;
  cost.record(1000, 1000);
  for (int i = 0; i < 12; ++i) cost.record(4000, 1000);  // now 4 ns/entity
  EXPECT_NEAR(static_cast<double>(cost.predict(1000)), 4000, 100);
  cost.record(400'000, 1000);  // one outlier moves it by a quarter only
  EXPECT_LT(cost.predict(1000), 110'000);
}

TEST(HandOffPolicyTest, AutomaticDecidesFromThePrediction) {
  const hand_off_policy automatic = hand_off::automatic;
  EXPECT_FALSE(automatic.worth_handing_off(run_cost::unknown));
  EXPECT_FALSE(automatic.worth_handing_off(hand_off_policy::kHandOffNs - 1));
  EXPECT_TRUE(automatic.worth_handing_off(hand_off_policy::kHandOffNs));
  EXPECT_FALSE(automatic.worth_threads(hand_off_policy::kInlineStepNs - 1));
  EXPECT_TRUE(automatic.worth_threads(hand_off_policy::kInlineStepNs));
}

TEST(HandOffPolicyTest, SubtasksSplitWhenTheWorkBeyondOneIsWorthAThread) {
  const hand_off_policy automatic = hand_off::automatic;
  constexpr std::int64_t per = hand_off_policy::kMinSubtaskNs;
  EXPECT_FALSE(automatic.worth_splitting(run_cost::unknown, 2));
  EXPECT_FALSE(automatic.worth_splitting(100 * per, 1));
  EXPECT_FALSE(automatic.worth_splitting(2 * per - 2, 2));  // 1 ns short
  EXPECT_TRUE(automatic.worth_splitting(2 * per, 2));
  EXPECT_FALSE(automatic.worth_splitting(per, 8));  // 7/8 of it: short
  EXPECT_TRUE(automatic.worth_splitting(2 * per, 8));
  // Where inner_parallelism::automatic() splits in two, the split pays.
  EXPECT_EQ(
      subtask_count(inner_parallelism::automatic(), 1'000'000, 2, 2 * per), 2u);
}

TEST(HandOffPolicyTest, ForcedModesIgnoreThePrediction) {
  const hand_off_policy always = hand_off::always;
  const hand_off_policy never = hand_off::never;
  EXPECT_TRUE(always.worth_handing_off(0));
  EXPECT_TRUE(always.worth_splitting(run_cost::unknown, 2));
  EXPECT_FALSE(never.worth_splitting(1'000'000'000, 2));
  EXPECT_TRUE(always.worth_threads(run_cost::unknown));
  EXPECT_FALSE(never.worth_handing_off(1'000'000'000));
  EXPECT_FALSE(never.worth_threads(1'000'000'000));
}

TEST(AutomaticStrategyTest, SplitsOnlyWhatFillsSubtasks) {
  constexpr auto automatic = inner_parallelism::automatic();
  constexpr std::int64_t per = hand_off_policy::kMinSubtaskNs;
  static_assert(cost_aware_strategy<inner_parallelism::automatic_t>);
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 8), 1u);  // cost unknown
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 8, run_cost::unknown), 1u);
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 8, per - 1), 1u);
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 8, 3 * per), 3u);
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 8, 100 * per), 8u);  // threads
  EXPECT_EQ(subtask_count(automatic, 2, 8, 100 * per), 2u);          // entities
  EXPECT_EQ(automatic.describe(), "automatic");
}

TEST(AutomaticStrategyTest, LargeWorkSplitsIntoSeveralSlicesPerThread) {
  constexpr auto automatic = inner_parallelism::automatic();
  constexpr std::int64_t per = hand_off_policy::kMinSubtaskNs;
  constexpr std::size_t slice =
      inner_parallelism::automatic_t::kMinSubtasksPerSlice;
  constexpr std::size_t most =
      inner_parallelism::automatic_t::kMaxSlicesPerThread;
  // One slice per thread until each thread's share fills two slices.
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 2, 2 * slice * per - 1), 2u);
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 2, 2 * 2 * slice * per), 4u);
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 2, 3 * 2 * slice * per), 6u);
  // At most kMaxSlicesPerThread per thread, however large the work.
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 2, 1'000 * slice * per),
            2 * most);
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 8, 1'000 * slice * per),
            8 * most);
  // One thread: never split, whatever the work.
  EXPECT_EQ(subtask_count(automatic, 1'000'000, 1, 1'000 * slice * per), 1u);
  // Never more subtasks than entities.
  EXPECT_EQ(subtask_count(automatic, 5, 2, 1'000 * slice * per), 5u);
}

TEST(AutomaticStrategyTest, ComposesWithAThreshold) {
  constexpr auto automatic = inner_parallelism::automatic();
  constexpr std::int64_t per = hand_off_policy::kMinSubtaskNs;
  // Composed: the prediction reaches the strategy above the threshold.
  constexpr auto composed =
      inner_parallelism_composer::none_below_threshold(100, automatic);
  EXPECT_EQ(subtask_count(composed, 1000, 8, 4 * per), 4u);
  EXPECT_EQ(subtask_count(composed, 50, 8, 4 * per), 1u);
}

}  // namespace
}  // namespace strata
