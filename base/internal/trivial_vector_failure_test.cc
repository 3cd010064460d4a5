// A growth that fails to allocate leaves a trivial_vector as it was
// (base/internal/trivial_vector.h). The failures come from this binary's
// own global operator new (//testing:failing_allocation), which throws
// std::bad_alloc at the allocation a test picks (not at an impossible size,
// which a sanitizer runtime's allocator aborts on instead of throwing).
#include <cstddef>
#include <new>
#include <vector>

#include "base/internal/trivial_vector.h"
#include "gtest/gtest.h"
#include "testing/failing_allocation.h"

namespace strata::base_internal {
namespace {

std::vector<int> contents(const trivial_vector<int>& v) {
  return std::vector<int>(v.begin(), v.end());
}

// Five elements in a full vector (capacity 5: the next push_back grows).
trivial_vector<int> full_of_five() {
  trivial_vector<int> v;
  for (int i = 0; i < 5; ++i) v.push_back(i);
  v.shrink_to_fit();
  return v;
}

TEST(TrivialVectorFailureTest, AFailedGrowthLeavesTheVectorAsItWas) {
  const std::vector<int> five = {0, 1, 2, 3, 4};
  trivial_vector<int> v = full_of_five();
  const int* data = v.data();

  strata::testing::fail_nth_allocation(1);
  EXPECT_THROW(v.push_back(5), std::bad_alloc);
  EXPECT_EQ(contents(v), five);
  EXPECT_EQ(v.data(), data);
  EXPECT_EQ(v.capacity(), 5u);

  strata::testing::fail_nth_allocation(1);
  EXPECT_THROW(v.reserve(100), std::bad_alloc);
  EXPECT_EQ(contents(v), five);

  strata::testing::fail_nth_allocation(1);
  EXPECT_THROW(v.resize(100), std::bad_alloc);
  EXPECT_EQ(contents(v), five);

  strata::testing::fail_nth_allocation(1);
  EXPECT_THROW(v.assign(100, 7), std::bad_alloc);
  EXPECT_EQ(contents(v), five);
  EXPECT_EQ(v.data(), data);

  trivial_vector<int> big;
  big.resize(64);
  trivial_vector<int> target = full_of_five();
  strata::testing::fail_nth_allocation(1);
  EXPECT_THROW(target = big, std::bad_alloc);
  EXPECT_EQ(contents(target), five);

  strata::testing::fail_nth_allocation(0);
  v.push_back(9);  // grows again once allocation works
  EXPECT_EQ(v.back(), 9);
}

}  // namespace
}  // namespace strata::base_internal
