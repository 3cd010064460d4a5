#include "user_workspace/user_code.h"

#include "gtest/gtest.h"

namespace {

// The package built although user_code.cc warns; and it works.
TEST(UserWorkspaceTest, BuildsWithWarningsAndRuns) {
  EXPECT_EQ(user_workspace::survivors(10, 2), 5u);
}

}  // namespace
