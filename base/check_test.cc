#include "base/check.h"

#include "gtest/gtest.h"

namespace {

TEST(CheckTest, PassingCheckDoesNothing) {
  int evaluations = 0;
  STRATA_CHECK(++evaluations == 1, "evaluated once");
  EXPECT_EQ(evaluations, 1);
}

TEST(CheckDeathTest, FailingCheckPrintsConditionAndMessage) {
  const int capacity = 4;
  EXPECT_DEATH(STRATA_CHECK(capacity > 8, "capacity too small"),
               "strata: check failed: capacity > 8: capacity too small");
}

}  // namespace
