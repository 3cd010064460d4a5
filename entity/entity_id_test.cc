#include "entity/entity_id.h"

#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_set>

#include "gtest/gtest.h"
#include "testing/ids.h"

namespace strata {
namespace {

static_assert(entity_traits32::index_bits == 22);
static_assert(entity_traits32::version_bits == 10);
static_assert(entity_traits32::tombstone_version == 1023);
static_assert(entity_traits32::max_entities == 4'194'303);
static_assert(entity_traits64::tombstone_version == 0xFFFF'FFFFu);
static_assert(entity_id::combine(5, 7).index() == 5);
static_assert(entity_id::combine(5, 7).version() == 7);
static_assert(entity_id().is_null());
static_assert(null_entity.has_tombstone_version());
static_assert(!entity_id::combine(0, 0).is_null());
// The ids the tests of //sparse_set use are these very types.
static_assert(std::is_same_v<testing::entity_id, entity_id>);
static_assert(std::is_same_v<testing::entity_id64, entity_id64>);

TEST(EntityIdTest, CombineMasksEachPart) {
  const auto id = entity_id::combine(entity_traits32::index_mask + 3, 2);
  EXPECT_EQ(id.index(), 2u);  // overflowing index bits are dropped
  EXPECT_EQ(id.version(), 2u);
}

TEST(EntityIdTest, NextVersionSkipsTombstone) {
  const auto last =
      entity_id::combine(9, entity_traits32::tombstone_version - 1);
  const auto wrapped = last.next_version();
  EXPECT_EQ(wrapped.index(), 9u);
  EXPECT_EQ(wrapped.version(), 0u);
  EXPECT_FALSE(wrapped.has_tombstone_version());
  EXPECT_EQ(entity_id::combine(9, 0).next_version().version(), 1u);
}

TEST(EntityIdTest, NextVersionSkipsTombstoneFor64BitIds) {
  const auto last =
      entity_id64::combine(1, entity_traits64::tombstone_version - 1);
  EXPECT_EQ(last.next_version().version(), 0u);
}

TEST(EntityIdTest, TombstoneIsNotNullButHasTombstoneVersion) {
  const auto id = entity_id::tombstone(4);
  EXPECT_FALSE(id.is_null());
  EXPECT_TRUE(id.has_tombstone_version());
  EXPECT_EQ(id.index(), 4u);
}

TEST(EntityIdTest, ComparesWholeValue) {
  EXPECT_EQ(entity_id::combine(1, 1), entity_id::combine(1, 1));
  EXPECT_NE(entity_id::combine(1, 1), entity_id::combine(1, 2));
  EXPECT_LT(entity_id::combine(1, 1), entity_id::combine(2, 1));
}

TEST(EntityIdTest, PrintsIndexAtVersion) {
  std::ostringstream out;
  out << entity_id::combine(42, 3) << " " << entity_id::null();
  EXPECT_EQ(out.str(), "42@3 null");
}

struct StringSink {
  std::string text;
  void Append(const std::string& s) { text += s; }
};

TEST(EntityIdTest, AbslStringifyAppendsIndexAtVersion) {
  StringSink sink;
  AbslStringify(sink, entity_id::combine(7, 1));
  EXPECT_EQ(sink.text, "7@1");
}

TEST(EntityIdTest, HashesDistinguishVersions) {
  std::unordered_set<entity_id> ids = {entity_id::combine(1, 0),
                                       entity_id::combine(1, 1)};
  EXPECT_EQ(ids.size(), 2u);
}

}  // namespace
}  // namespace strata
