#include "entity/entity_handle.h"

#include <string>

#include "entity/entity_metadata.h"
#include "entity/entity_storage.h"
#include "gtest/gtest.h"

namespace strata {
namespace {

static_assert(sizeof(entity_handle) == sizeof(entity_id));
static_assert(entity_handle().is_null());

TEST(EntityHandleTest, CarriesIndexAndCounter) {
  const entity_handle h(entity_id::combine(7, 3));
  EXPECT_EQ(h.index(), 7u);
  EXPECT_EQ(h.counter(), 3u);
  EXPECT_EQ(h.unchecked_id(), entity_id::combine(7, 3));
  EXPECT_EQ(to_string(h), "handle(7@3)");
}

TEST(EntityHandleTest, ValidWhileAlive) {
  dynamic_entity_storage<> storage;
  const entity_id e = storage.create();
  const entity_handle h = storage.make_handle(e);
  EXPECT_TRUE(storage.valid(h));
  const auto accessed = storage.access(h);
  ASSERT_TRUE(accessed.has_value());
  EXPECT_EQ(*accessed, e);
  EXPECT_EQ(storage.id_of(h), e);
}

TEST(EntityHandleTest, NullHandleIsNeverValid) {
  dynamic_entity_storage<> storage;
  storage.create();
  const entity_handle h;
  EXPECT_FALSE(storage.valid(h));
  EXPECT_FALSE(storage.access(h).has_value());
}

// Regression test for the ECST bug: ECST's handle stores (id, counter) but
// its alive check ignores the counter, so a handle to a killed entity whose
// index was reused reports "alive" and reaches the new entity's data.
TEST(EntityHandleTest, EcstBugStaleHandleAfterKillAndReuseIsInvalid) {
  // One slot: the new entity is forced onto the old one's index.
  fixed_entity_storage<1, entity_traits32, entity_metadata<2>> storage;
  const entity_id victim = storage.create();
  storage.bits(victim).set(0);
  const entity_handle handle = storage.make_handle(victim);

  ASSERT_TRUE(storage.reclaim(victim));
  const entity_id reuser = storage.create();
  storage.bits(reuser).set(1);
  ASSERT_EQ(reuser.index(), victim.index()) << "index must be reused";
  ASSERT_NE(reuser, victim);

  EXPECT_FALSE(storage.valid(handle));
  EXPECT_FALSE(storage.alive(handle.unchecked_id()));
  const auto accessed = storage.access(handle);
  ASSERT_FALSE(accessed.has_value())
      << "stale handle reached " << to_string(*accessed);
  // The new entity's handle works and sees only its own data.
  const entity_handle fresh = storage.make_handle(reuser);
  EXPECT_TRUE(storage.valid(fresh));
  EXPECT_TRUE(storage.bits(storage.id_of(fresh)).test(1));
  EXPECT_FALSE(storage.bits(storage.id_of(fresh)).test(0));
}

TEST(EntityHandleTest, StaleHandleToFreeSlot) {
  dynamic_entity_storage<> storage;
  const entity_id e = storage.create();
  const entity_handle h = storage.make_handle(e);
  storage.reclaim(e);
  EXPECT_FALSE(storage.valid(h));
  EXPECT_FALSE(storage.access(h).has_value());
}

TEST(EntityHandleTest, StaleAfterClear) {
  fixed_entity_storage<8> storage;
  const entity_handle h = storage.make_handle(storage.create());
  storage.clear();
  storage.create();
  EXPECT_FALSE(storage.valid(h));
}

TEST(EntityHandleDeathTest, IdOfStaleHandleDies) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  fixed_entity_storage<1> storage;
  const entity_id e = storage.create();
  const entity_handle h = storage.make_handle(e);
  storage.reclaim(e);
  storage.create();
  EXPECT_DEATH(storage.id_of(h),
               "strata: check failed: .*entity storage: stale handle 0@0: "
               "its entity was reclaimed \\(index 0 now holds 0@1\\)");
}

TEST(EntityHandleDeathTest, IdOfHandleToAFreeSlotDiesNamingIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  dynamic_entity_storage<> storage;
  const entity_id e = storage.create();
  const entity_handle h = storage.make_handle(e);
  storage.reclaim(e);
  EXPECT_DEATH(storage.id_of(h),
               "stale handle 0@0: its entity was reclaimed \\(index 0 is "
               "free\\)");
}

TEST(EntityHandleDeathTest, MakeHandleOfDeadIdDies) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  dynamic_entity_storage<> storage;
  const entity_id e = storage.create();
  storage.reclaim(e);
  EXPECT_DEATH(storage.make_handle(e),
               "make_handle\\(0@0\\) on an entity "
               "that is not alive");
}

}  // namespace
}  // namespace strata
