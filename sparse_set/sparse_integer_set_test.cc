#include "sparse_set/sparse_integer_set.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

constexpr std::size_t kCapacity = 4096;
using fixed_set = fixed_sparse_integer_set<std::uint32_t, kCapacity>;
using dynamic_set = dynamic_sparse_integer_set<std::uint32_t>;

std::vector<std::uint32_t> sorted_values(const auto& set) {
  std::vector<std::uint32_t> values(set.begin(), set.end());
  std::sort(values.begin(), values.end());
  return values;
}

// Runs `steps` random operations on `set` and on a std::set, checking each
// result, the size and the membership of the touched value at every step,
// and the full contents every 1000 steps.
template <typename Set>
void run_model(Set& set, std::uint32_t value_limit, std::uint32_t seed,
               int steps) {
  std::mt19937 rng(seed);
  std::set<std::uint32_t> model;
  std::uniform_int_distribution<std::uint32_t> value_dist(0, value_limit - 1);
  std::uniform_int_distribution<int> op_dist(0, 999);
  for (int step = 0; step < steps; ++step) {
    const std::uint32_t value = value_dist(rng);
    const int op = op_dist(rng);
    if (op < 450) {
      ASSERT_EQ(set.insert(value), model.insert(value).second) << step;
    } else if (op < 800) {
      ASSERT_EQ(set.erase(value), model.erase(value) == 1) << step;
    } else if (op < 998) {
      ASSERT_EQ(set.contains(value), model.count(value) == 1) << step;
    } else if (op < 999) {
      set.clear();
      model.clear();
    } else {
      const bool descending = (step & 1) != 0;
      if (descending) {
        set.sort(std::greater<>());
      } else {
        set.sort();
      }
      std::vector<std::uint32_t> expected(model.begin(), model.end());
      if (descending) std::reverse(expected.begin(), expected.end());
      ASSERT_EQ(std::vector<std::uint32_t>(set.begin(), set.end()), expected);
      for (std::size_t pos = 0; pos < set.size(); ++pos) {
        ASSERT_EQ(set.index_of(set[pos]), pos);
      }
    }
    ASSERT_EQ(set.size(), model.size()) << step;
    ASSERT_EQ(set.empty(), model.empty()) << step;
    ASSERT_EQ(set.contains(value), model.count(value) == 1) << step;
    if (step % 1000 == 0) {
      ASSERT_EQ(sorted_values(set),
                std::vector<std::uint32_t>(model.begin(), model.end()))
          << step;
    }
  }
}

TEST(SparseIntegerSetTest, FixedMatchesModel) {
  auto set = std::make_unique<fixed_set>();
  run_model(*set, kCapacity, 1, 150'000);
}

TEST(SparseIntegerSetTest, FixedMatchesModelSmallUniverse) {
  // A small universe keeps the set near full, exercising full-capacity paths.
  fixed_sparse_integer_set<std::uint8_t, 256> set;
  std::mt19937 rng(7);
  std::set<std::uint32_t> model;
  for (int step = 0; step < 100'000; ++step) {
    const auto value = static_cast<std::uint8_t>(rng());
    if (rng() % 3 != 0) {
      ASSERT_EQ(set.insert(value), model.insert(value).second);
    } else {
      ASSERT_EQ(set.erase(value), model.erase(value) == 1);
    }
    ASSERT_EQ(set.size(), model.size());
    ASSERT_EQ(set.contains(value), model.count(value) == 1);
  }
}

TEST(SparseIntegerSetTest, DynamicMatchesModel) {
  dynamic_set set;
  run_model(set, kCapacity, 2, 150'000);
  // The dynamic set accepts any value and grows.
  set.clear();
  run_model(set, 1'000'000, 3, 50'000);
  EXPECT_GE(set.storage().sparse_extent(), 500'000u);
}

TEST(SparseIntegerSetTest, FixedFullAndBoundaries) {
  auto set = std::make_unique<fixed_set>();
  EXPECT_TRUE(set->insert(kCapacity - 1));
  EXPECT_TRUE(set->contains(kCapacity - 1));
  EXPECT_FALSE(set->contains(kCapacity));
  EXPECT_FALSE(set->erase(kCapacity));
  EXPECT_FALSE(set->contains(~std::uint32_t{0}));
  for (std::uint32_t v = 0; v < kCapacity; ++v) set->insert(v);
  EXPECT_EQ(set->size(), kCapacity);
  EXPECT_EQ(set->capacity(), kCapacity);
  EXPECT_FALSE(set->insert(0));  // duplicate, even when full
  EXPECT_EQ(sorted_values(*set).back(), kCapacity - 1);
  EXPECT_TRUE(set->erase(kCapacity - 1));
  EXPECT_FALSE(set->contains(kCapacity - 1));
  EXPECT_EQ(set->size(), kCapacity - 1);
}

TEST(SparseIntegerSetDeathTest, FixedInsertOutOfRangeFailsCheck) {
  fixed_sparse_integer_set<std::uint32_t, 16> set;
  set.insert(3);
  EXPECT_DEATH(set.insert(16), "strata: check failed.*out of range");
  EXPECT_DEATH(set.insert(~std::uint32_t{0}), "strata: check failed");
  // The parent is untouched.
  EXPECT_EQ(set.size(), 1u);
  EXPECT_TRUE(set.contains(3));
}

TEST(SparseIntegerSetDeathTest, FixedReserveBeyondCapacityFailsCheck) {
  fixed_sparse_integer_set<std::uint32_t, 16> set;
  set.reserve(16);
  EXPECT_DEATH(set.reserve(17), "strata: check failed");
}

TEST(SparseIntegerSetTest, ClearIsConstantTimeAndForgetsStaleSlots) {
  fixed_sparse_integer_set<std::uint32_t, 64> set;
  for (std::uint32_t v = 0; v < 64; v += 2) set.insert(v);
  set.clear();
  EXPECT_TRUE(set.empty());
  for (std::uint32_t v = 0; v < 64; ++v) EXPECT_FALSE(set.contains(v)) << v;
  // Old sparse slots still point into the dense range once it refills.
  set.insert(1);
  set.insert(3);
  EXPECT_FALSE(set.contains(0));
  EXPECT_FALSE(set.contains(2));
  EXPECT_TRUE(set.contains(3));
  EXPECT_EQ(set.size(), 2u);
}

TEST(SparseIntegerSetTest, ReverseIterationAllowsErase) {
  dynamic_set set;
  for (std::uint32_t v = 0; v < 1000; ++v) set.insert((v * 7919) % 1000);
  // Erasing the current element moves the last (already visited) one here.
  for (std::size_t pos = set.size(); pos-- > 0;) {
    if (set[pos] % 3 == 0) set.erase(set[pos]);
  }
  EXPECT_EQ(set.size(), 666u);
  for (std::uint32_t v = 0; v < 1000; ++v) {
    EXPECT_EQ(set.contains(v), v % 3 != 0) << v;
  }
}

TEST(SparseIntegerSetTest, SortEmptyAndSingle) {
  dynamic_set set;
  set.sort();
  EXPECT_TRUE(set.empty());
  set.insert(42);
  set.sort(std::greater<>());
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(set[0], 42u);
  EXPECT_EQ(set.index_of(42), 0u);
}

TEST(SparseIntegerSetTest, SortLargeShuffled) {
  dynamic_set set;
  std::vector<std::uint32_t> values(100'000);
  for (std::uint32_t i = 0; i < values.size(); ++i) values[i] = i * 3;
  std::shuffle(values.begin(), values.end(), std::mt19937(11));
  for (auto v : values) set.insert(v);
  set.sort();
  for (std::size_t pos = 0; pos < set.size(); ++pos) {
    ASSERT_EQ(set[pos], pos * 3);
    ASSERT_EQ(set.index_of(set[pos]), pos);
  }
  // Erase still works through the repointed sparse slots.
  EXPECT_TRUE(set.erase(3));
  EXPECT_FALSE(set.contains(3));
  EXPECT_EQ(set[1], (values.size() - 1) * 3);
}

TEST(SparseIntegerSetTest, IterationAndSpanSeeDenseOrder) {
  fixed_sparse_integer_set<std::uint16_t, 100> set;
  set.insert(5);
  set.insert(9);
  set.insert(1);
  set.erase(5);
  EXPECT_EQ(std::vector<std::uint16_t>(set.begin(), set.end()),
            (std::vector<std::uint16_t>{1, 9}));
  EXPECT_EQ(std::vector<std::uint16_t>(set.rbegin(), set.rend()),
            (std::vector<std::uint16_t>{9, 1}));
  EXPECT_EQ(set.values().size(), 2u);
}

}  // namespace
}  // namespace strata
