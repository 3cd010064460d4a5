// The consumer's tests: Strata's context and sparse set, used through
// @strata//:strata and @strata//sparse_set:versioned_sparse_set.
#include <vector>

#include "gtest/gtest.h"
#include "sparse_set/versioned_sparse_set.h"
#include "strata.h"
#include "world.h"

namespace {

TEST(ConsumerTest, DecayKillsEachEntityWhenItsHealthRunsOut) {
  auto ctx = strata::make_context<consumer::settings>();
  const std::vector<strata::entity_id> ids = consumer::spawn(ctx, {1, 2, 3});
  ASSERT_EQ(ctx.entity_count(), 3u);

  consumer::step(ctx);
  EXPECT_EQ(ctx.entity_count(), 2u);
  EXPECT_FALSE(ctx.alive(ids[0]));
  EXPECT_TRUE(ctx.alive(ids[1]));

  consumer::step(ctx);
  consumer::step(ctx);
  EXPECT_EQ(ctx.entity_count(), 0u);
}

TEST(ConsumerTest, SparseSetTracksExactIds) {
  strata::versioned_sparse_set<strata::entity_id> set;
  const auto id = strata::entity_id::combine(7, 0);
  EXPECT_TRUE(set.insert(id));
  EXPECT_TRUE(set.contains(id));
  EXPECT_FALSE(set.contains(id.next_version()));  // a stale id is rejected
  EXPECT_TRUE(set.erase(id));
  EXPECT_TRUE(set.empty());
}

}  // namespace
