#include "scheduler/inner_parallelism.h"

#include <cstddef>
#include <type_traits>

#include "gtest/gtest.h"

namespace strata {
namespace {

static_assert(inner_parallelism_strategy<inner_parallelism::none_t>);
static_assert(!inner_parallelism_strategy<int>);

// The optional short names are the same namespaces.
static_assert(std::is_same_v<ips::none_t, inner_parallelism::none_t>);
static_assert(
    std::is_same_v<decltype(ipc::none_below_threshold(1, ips::split_evenly(2))),
                   decltype(inner_parallelism_composer::none_below_threshold(
                       1, inner_parallelism::split_evenly(2)))>);

static_assert(subtask_count(inner_parallelism::none(), 1000, 8) == 1);
static_assert(subtask_count(inner_parallelism::split_evenly(4), 1000, 8) == 4);
static_assert(subtask_count(inner_parallelism::split_evenly(4), 3, 8) ==
              3);  // no empty slices
static_assert(subtask_count(inner_parallelism::split_evenly(4), 0, 8) ==
              1);  // always runs
static_assert(subtask_count(inner_parallelism::split_evenly_per_core(), 1000,
                            8) == 8);
static_assert(subtask_count(inner_parallelism::split_every_n(100), 1001, 8) ==
              11);
static_assert(subtask_count(inner_parallelism::split_evenly(1000), 100000, 2) ==
              1000);  // no cap

constexpr auto composed = inner_parallelism_composer::fixed_threshold(
    500, inner_parallelism::split_evenly(8),
    inner_parallelism::split_evenly(2));
static_assert(subtask_count(composed, 499, 4) == 2);
static_assert(subtask_count(composed, 500, 4) == 8);
constexpr auto none_below = inner_parallelism_composer::none_below_threshold(
    100, inner_parallelism::split_evenly_per_core());
static_assert(subtask_count(none_below, 99, 4) == 1);
static_assert(subtask_count(none_below, 100, 4) == 4);

// A user strategy: one subtask per 1000 entities, at most 2 per thread.
struct per_thousand_capped {
  constexpr std::size_t subtasks(std::size_t entities,
                                 std::size_t threads) const {
    const std::size_t wanted = entities / 1000;
    return wanted < 2 * threads ? wanted : 2 * threads;
  }
};
static_assert(inner_parallelism_strategy<per_thousand_capped>);
static_assert(subtask_count(per_thousand_capped{}, 10'000, 2) == 4);
static_assert(subtask_count(per_thousand_capped{}, 500, 2) == 1);

TEST(InnerParallelismTest, SlicesCoverEveryEntityOnceWithoutEmptySlices) {
  for (std::size_t entities : {0u, 1u, 2u, 7u, 64u, 1000u, 1001u}) {
    for (std::size_t requested : {1u, 2u, 3u, 8u, 17u, 2000u}) {
      const std::size_t count = subtask_count(
          inner_parallelism::split_evenly(requested), entities, 2);
      std::size_t covered = 0;
      std::size_t previous_end = 0;
      for (std::size_t i = 0; i < count; ++i) {
        auto [begin, end] = slice_bounds(i, count, entities);
        EXPECT_EQ(begin, previous_end);
        if (entities > 0) {
          EXPECT_LT(begin, end) << entities << " " << requested;
        }
        EXPECT_LE(end - begin, entities / count + 1);
        covered += end - begin;
        previous_end = end;
      }
      EXPECT_EQ(covered, entities);
    }
  }
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(InnerParallelismDeathTest, ZeroCountIsACheckFailure) {
  volatile std::size_t zero = 0;
  EXPECT_DEATH(inner_parallelism::split_evenly(zero),
               "split_evenly\\(n\\): n must be at least 1");
  EXPECT_DEATH(inner_parallelism::split_every_n(zero),
               "split_every_n\\(n\\): n must be at least 1");
}

}  // namespace
}  // namespace strata
