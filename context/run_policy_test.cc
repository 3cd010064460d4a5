// The fixed run policy (settings().run_policy(strata::run_policy::fixed),
// context/internal/run_policy.h): on a random DAG with entity churn
// (scheduler_determinism_testing.h), a context with the fixed policy leaves
// exactly the state the sequential scheduler leaves on one thread, under the
// atomic_counter scheduler and, chosen at run time, the sequential one, with
// 0, 1, 2 and 8 workers and every hand-off mode; and it measures nothing:
// no system's cost is ever known.
#include <chrono>
#include <cstddef>
#include <string>

#include "context/scheduler_determinism_testing.h"
#include "gtest/gtest.h"
#include "testing/timeout.h"

namespace strata::determinism_testing {
namespace {

constexpr auto fixed_settings() {
  return base_settings<dag>()
      .scheduler(strata::scheduler::atomic_counter)
      .run_policy(strata::run_policy::fixed);
}

void expect_same_run(const run_result& reference, const run_result& result) {
  ASSERT_EQ(result.first.size(), reference.first.size());
  for (std::size_t step = 0; step < reference.first.size(); ++step) {
    ASSERT_EQ(result.first[step], reference.first[step])
        << "state diverged after step " << step;
  }
  EXPECT_TRUE(result.second == reference.second);
}

TEST(RunPolicyTest, FixedPolicyIsDeterministicUnderBothSchedulers) {
  const run_length length;
  const run_result reference = sequential_run(length, 1);
  ASSERT_GT(reference.second.entities.size(), 20u);
  for (std::size_t workers : {0, 1, 2, 8}) {
    for (strata::scheduler_kind kind : {strata::scheduler_kind::atomic_counter,
                                        strata::scheduler_kind::sequential}) {
      for (strata::hand_off mode :
           {strata::hand_off::automatic, strata::hand_off::always,
            strata::hand_off::never}) {
        SCOPED_TRACE("workers=" + std::to_string(workers) +
                     ", scheduler=" + std::to_string(static_cast<int>(kind)) +
                     ", hand_off=" + std::to_string(static_cast<int>(mode)));
        run_result result;
        strata::testing::run_with_timeout(
            std::chrono::seconds(120), "determinism run", [&] {
              result = run<dag>(length, fixed_settings(),
                                strata::run_options()
                                    .threads(workers + 1)
                                    .scheduler(kind)
                                    .hand_off(mode));
            });
        expect_same_run(reference, result);
      }
    }
  }
}

// A system's cost is measured only by the adaptive policy: with the fixed
// one it stays unknown after many steps on several threads.
TEST(RunPolicyTest, FixedPolicyMeasuresNothing) {
  auto ctx =
      strata::make_context(fixed_settings(), strata::run_options().threads(3));
  std::uint64_t rng = 7;
  ctx.step([&](auto& proxy) { churn(proxy, rng, kInitialEntities); });
  for (int step = 0; step < 70; ++step) {
    ctx.step([&](auto& proxy) { run_systems(proxy); });
  }
  ctx.step([&](auto& proxy) {
    EXPECT_FALSE(proxy.instance(strata::tag<all_entities>).cost().known());
  });
}

// The same program with the adaptive policy (the default) does measure:
// the test above can fail.
TEST(RunPolicyTest, AdaptivePolicyMeasures) {
  auto ctx = strata::make_context(
      base_settings<dag>().scheduler(strata::scheduler::atomic_counter),
      strata::run_options().threads(3));
  std::uint64_t rng = 7;
  ctx.step([&](auto& proxy) { churn(proxy, rng, kInitialEntities); });
  for (int step = 0; step < 70; ++step) {
    ctx.step([&](auto& proxy) { run_systems(proxy); });
  }
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.instance(strata::tag<all_entities>).cost().known());
  });
}

}  // namespace
}  // namespace strata::determinism_testing
