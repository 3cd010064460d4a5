// A create that throws leaves the storage as it was (entity/entity_storage.h,
// "Exhaustion"): the growth of either array failing, or Metadata's
// constructor throwing. The allocation failures come from this binary's own
// global operator new (//testing:failing_allocation), which throws
// std::bad_alloc at the allocation a test picks.
#include <cstddef>
#include <new>
#include <ostream>
#include <vector>

#include "entity/entity_storage.h"
#include "gtest/gtest.h"
#include "testing/failing_allocation.h"

namespace strata {
namespace {

// Metadata that counts its live instances: a storage that holds exactly
// one per index ever handed out has slot_count() of them. Its default
// constructor throws on request.
struct counted {
  static inline int live = 0;
  static inline bool throw_on_construction = false;

  counted() {
    if (throw_on_construction) throw std::bad_alloc();
    ++live;
  }
  counted(const counted&) noexcept { ++live; }
  counted& operator=(const counted&) noexcept = default;
  ~counted() { --live; }
};

using storage_type = dynamic_entity_storage<entity_traits32, counted>;

struct observed {
  std::size_t size, slot_count, end_index, capacity;
  int metadata;
  bool operator==(const observed&) const = default;
};
void PrintTo(const observed& o, std::ostream* out) {
  *out << "{size " << o.size << ", slot_count " << o.slot_count
       << ", end_index " << o.end_index << ", capacity " << o.capacity
       << ", metadata " << o.metadata << "}";
}
observed observe(const storage_type& storage) {
  return {storage.size(), storage.slot_count(), storage.end_index(),
          storage.capacity(), counted::live};
}

// Four live entities, and both arrays full: the next create grows both.
void fill(storage_type& storage, std::vector<entity_id>& ids) {
  storage.reserve(4);
  for (int i = 0; i < 4; ++i) ids.push_back(storage.create());
  ASSERT_EQ(storage.capacity(), 4u);
  ASSERT_EQ(counted::live, 4);
}

// After the failed create: the same storage, whose entities are all alive
// and whose next create hands out the next fresh index.
void expect_unchanged(storage_type& storage, const observed& before,
                      const std::vector<entity_id>& ids) {
  EXPECT_EQ(observe(storage), before);
  for (const entity_id id : ids) EXPECT_TRUE(storage.alive(id));
  const entity_id next = storage.create();
  EXPECT_EQ(next, entity_id::combine(4, 0));
  EXPECT_EQ(counted::live, 5);
  EXPECT_EQ(static_cast<std::size_t>(counted::live), storage.slot_count());
}

// Whichever array's growth fails, the first or the second.
TEST(EntityStorageFailureTest, FailedGrowthLeavesStorageUnchanged) {
  for (int failing = 1; failing <= 2; ++failing) {
    SCOPED_TRACE(failing);
    {
      storage_type storage;
      std::vector<entity_id> ids;
      fill(storage, ids);
      const observed before = observe(storage);
      strata::testing::fail_nth_allocation(failing);
      EXPECT_THROW(storage.create(), std::bad_alloc);
      strata::testing::fail_nth_allocation(0);
      expect_unchanged(storage, before, ids);
    }
    EXPECT_EQ(counted::live, 0);
  }
}

// try_create's std::nullopt is for exhaustion only: an allocation failure
// throws from it too, and changes nothing either.
TEST(EntityStorageFailureTest, FailedTryCreateLeavesStorageUnchanged) {
  storage_type storage;
  std::vector<entity_id> ids;
  fill(storage, ids);
  const observed before = observe(storage);
  strata::testing::fail_nth_allocation(2);
  EXPECT_THROW(static_cast<void>(storage.try_create()), std::bad_alloc);
  strata::testing::fail_nth_allocation(0);
  expect_unchanged(storage, before, ids);
}

TEST(EntityStorageFailureTest, ThrowingMetadataLeavesStorageUnchanged) {
  storage_type storage;
  std::vector<entity_id> ids;
  fill(storage, ids);
  const observed before = observe(storage);
  counted::throw_on_construction = true;
  EXPECT_THROW(storage.create(), std::bad_alloc);
  counted::throw_on_construction = false;
  expect_unchanged(storage, before, ids);
}

}  // namespace
}  // namespace strata
