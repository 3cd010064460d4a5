#include "base/internal/trivial_vector.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace strata::base_internal {
namespace {

struct point {
  int x = 7;
  std::int16_t y = -1;
  friend bool operator==(const point&, const point&) = default;
};

struct alignas(64) wide {
  std::int64_t value = 0;
};

template <typename T>
std::vector<T> contents(const trivial_vector<T>& v) {
  return std::vector<T>(v.begin(), v.end());
}

// Random operations on a trivial_vector and a std::vector side by side:
// the same elements after each one.
TEST(TrivialVectorTest, BehavesAsStdVectorUnderRandomOperations) {
  std::mt19937 random(20261207);
  trivial_vector<point> tested;
  std::vector<point> model;
  for (int step = 0; step < 20000; ++step) {
    const int value = static_cast<int>(random() % 1000);
    switch (random() % 9) {
      case 0:
      case 1:
      case 2:
        tested.push_back({value, 3});
        model.push_back({value, 3});
        break;
      case 3:
        tested.emplace_back();
        model.emplace_back();
        break;
      case 4:
        if (!model.empty()) {
          tested.pop_back();
          model.pop_back();
        }
        break;
      case 5: {
        const std::size_t n = random() % 64;
        tested.resize(n);
        model.resize(n);
        break;
      }
      case 6:
        tested.reserve(random() % 256);
        break;
      case 7:
        if (!model.empty()) {
          // An element of the vector itself, pushed while it may grow.
          tested.push_back(tested[0]);
          model.push_back(model[0]);
        }
        break;
      case 8:
        if (random() % 16 == 0) {
          tested.assign(random() % 40, {value, 5});
          model.assign(tested.size(), {value, 5});
        }
        break;
    }
    ASSERT_EQ(tested.size(), model.size()) << "step " << step;
    ASSERT_GE(tested.capacity(), tested.size());
  }
  EXPECT_EQ(contents(tested), model);
}

TEST(TrivialVectorTest, ValueInitializesNewElements) {
  trivial_vector<point> v;
  v.resize(3);
  point& added = v.emplace_back();
  EXPECT_EQ(added, point{});
  EXPECT_EQ(contents(v), std::vector<point>(4));
  trivial_vector<int> ints;
  ints.push_back(5);
  ints.resize(0);
  ints.resize(2);  // the old 5 is not kept
  EXPECT_EQ(ints[0], 0);
  EXPECT_EQ(ints[1], 0);
}

TEST(TrivialVectorTest, CopiesAndMovesItsElements) {
  trivial_vector<int> a;
  for (int i = 0; i < 100; ++i) a.push_back(i);
  trivial_vector<int> copy(a);
  copy[0] = -1;
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(copy.size(), 100u);
  EXPECT_EQ(copy[99], 99);

  trivial_vector<int> small;
  small.push_back(1);
  small = a;  // grows to a's size
  EXPECT_EQ(contents(small), contents(a));
  small = trivial_vector<int>();  // copy of an empty vector
  EXPECT_TRUE(small.empty());

  trivial_vector<int> moved(std::move(a));
  EXPECT_EQ(moved.size(), 100u);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the contract
  EXPECT_EQ(a.capacity(), 0u);
  a = std::move(moved);
  EXPECT_EQ(a[42], 42);
  EXPECT_TRUE(moved.empty());  // NOLINT(bugprone-use-after-move)
}

TEST(TrivialVectorTest, ReserveAndShrinkKeepTheElements) {
  trivial_vector<int> v;
  v.reserve(1000);
  EXPECT_GE(v.capacity(), 1000u);
  EXPECT_TRUE(v.empty());
  const int* before = v.data();
  for (int i = 0; i < 1000; ++i) v.push_back(i);
  EXPECT_EQ(v.data(), before);  // no growth within the reserved capacity
  v.resize(10);
  v.shrink_to_fit();
  EXPECT_EQ(v.capacity(), 10u);
  EXPECT_EQ(v.back(), 9);
  v.clear();
  v.shrink_to_fit();
  EXPECT_EQ(v.capacity(), 0u);
  v.push_back(4);  // grows again from nothing
  EXPECT_EQ(v[0], 4);
}

TEST(TrivialVectorTest, HonoursAnExtendedAlignment) {
  trivial_vector<wide> v;
  for (int i = 0; i < 50; ++i) v.push_back({i});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % 64, 0u);
  trivial_vector<wide> copy(v);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(copy.data()) % 64, 0u);
  EXPECT_EQ(copy[49].value, 49);
}

}  // namespace
}  // namespace strata::base_internal
