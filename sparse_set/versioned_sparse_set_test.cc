#include "sparse_set/versioned_sparse_set.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "base/versioned_id.h"
#include "gtest/gtest.h"
#include "testing/ids.h"

namespace strata {
namespace {

// Sparse sets take any versioned id; these are //entity's widths.
using testing::entity_id;
using testing::entity_id64;

using set_type = versioned_sparse_set<entity_id>;
using traits = entity_id::traits;

constexpr std::uint32_t kTombstone = traits::tombstone_version;

// Checks that the dense array, the sparse slots and the model agree.
void expect_consistent(const set_type& set,
                       const std::map<std::uint32_t, entity_id>& model) {
  ASSERT_EQ(set.size(), model.size());
  for (std::size_t pos = 0; pos < set.size(); ++pos) {
    const entity_id id = set[pos];
    auto it = model.find(id.index());
    ASSERT_NE(it, model.end()) << id;
    ASSERT_EQ(it->second, id);
    ASSERT_EQ(set.find(id), pos);
    ASSERT_TRUE(set.contains(id));
  }
}

// Random ids: mostly dense small indices, some far apart (many pages), a few
// versions each, so stale ids are common.
class id_source {
 public:
  explicit id_source(std::uint32_t seed) : rng_(seed) {
    std::uniform_int_distribution<std::uint32_t> far(0,
                                                     traits::max_entities - 1);
    for (auto& index : far_) index = far(rng_);
  }
  entity_id next() {
    const std::uint32_t r = rng_() % 100;
    const std::uint32_t index =
        r < 75 ? rng_() % 3000 : far_[rng_() % far_.size()];
    return entity_id::combine(index, rng_() % 3);
  }
  std::mt19937& rng() { return rng_; }

 private:
  std::mt19937 rng_;
  std::array<std::uint32_t, 64> far_;
};

TEST(VersionedSparseSetTest, MatchesModel) {
  set_type set;
  std::map<std::uint32_t, entity_id> model;
  id_source source(1);
  auto& rng = source.rng();
  for (int step = 0; step < 150'000; ++step) {
    const entity_id id = source.next();
    const auto it = model.find(id.index());
    const bool present = it != model.end() && it->second == id;
    const int op = static_cast<int>(rng() % 1000);
    if (op < 450) {
      const bool expected = it == model.end();
      ASSERT_EQ(set.insert(id), expected) << step << " " << id;
      if (expected) model.emplace(id.index(), id);
    } else if (op < 800) {
      ASSERT_EQ(set.erase(id), present) << step << " " << id;
      if (present) model.erase(it);
    } else if (op < 997) {
      ASSERT_EQ(set.contains(id), present) << step << " " << id;
      ASSERT_EQ(set.contains_index(id.index()), it != model.end());
      ASSERT_EQ(set.current(id.index()),
                it == model.end() ? entity_id::null() : it->second);
    } else if (op < 998) {
      set.clear();
      model.clear();
    } else if (op < 999) {
      set.sort(std::greater<>());
      std::vector<entity_id> expected;
      for (const auto& [index, stored] : model) expected.push_back(stored);
      std::sort(expected.begin(), expected.end(), std::greater<>());
      ASSERT_EQ(std::vector<entity_id>(set.begin(), set.end()), expected);
    } else {
      // Order as a random subset of the model plus foreign ids.
      std::vector<entity_id> order;
      for (const auto& [index, stored] : model) {
        if (rng() % 2) order.push_back(stored);
        if (rng() % 4 == 0) order.push_back(stored.next_version());
      }
      std::shuffle(order.begin(), order.end(), rng);
      set.sort_as(order);
      std::size_t pos = 0;
      for (const entity_id o : order) {
        if (set.contains(o)) {
          ASSERT_EQ(set[pos++], o);
        }
      }
    }
    ASSERT_EQ(set.size(), model.size()) << step;
    const auto now = model.find(id.index());
    ASSERT_EQ(set.contains(id), now != model.end() && now->second == id);
    if (step % 1000 == 0) expect_consistent(set, model);
  }
  expect_consistent(set, model);
}

TEST(VersionedSparseSetTest, StaleVersionIsNotContained) {
  set_type set;
  const auto v1 = entity_id::combine(10, 1);
  ASSERT_TRUE(set.insert(v1));
  EXPECT_TRUE(set.contains(v1));
  EXPECT_FALSE(set.contains(entity_id::combine(10, 0)));
  EXPECT_FALSE(set.contains(entity_id::combine(10, 2)));
  EXPECT_FALSE(set.erase(entity_id::combine(10, 2)));
  EXPECT_EQ(set.find(entity_id::combine(10, 0)), set_type::npos);
  // One id per index: a newer version is refused until the old one leaves.
  EXPECT_FALSE(set.insert(entity_id::combine(10, 2)));
  EXPECT_EQ(set.current(10), v1);
  EXPECT_TRUE(set.erase(v1));
  EXPECT_TRUE(set.insert(entity_id::combine(10, 2)));
  EXPECT_FALSE(set.contains(v1));
}

TEST(VersionedSparseSetTest, NullAndTombstoneAreNeverContained) {
  set_type set;
  EXPECT_FALSE(set.contains(entity_id::null()));
  EXPECT_FALSE(set.contains(entity_id::tombstone(0)));
  set.insert(entity_id::combine(0, 0));
  set.insert(entity_id::combine(5, 3));
  // The tombstone of a present index must not match it.
  EXPECT_FALSE(set.contains(entity_id::tombstone(0)));
  EXPECT_FALSE(set.contains(entity_id::tombstone(5)));
  EXPECT_FALSE(set.contains(entity_id::tombstone(6)));  // empty slot, same page
  EXPECT_FALSE(set.erase(entity_id::tombstone(5)));
  // With the null index's page allocated, null still misses.
  const auto top = entity_id::combine(traits::null_index - 1, 0);
  ASSERT_TRUE(set.insert(top));
  EXPECT_TRUE(set.contains(top));
  EXPECT_FALSE(set.contains(entity_id::null()));
  EXPECT_FALSE(set.contains(entity_id::combine(traits::null_index, 0)));
  EXPECT_FALSE(set.contains_index(traits::null_index));
  EXPECT_EQ(set.size(), 3u);
}

TEST(VersionedSparseSetDeathTest, InsertNullOrTombstoneFailsCheck) {
  set_type set;
  EXPECT_DEATH(set.insert(entity_id::null()), "strata: check failed.*null");
  EXPECT_DEATH(set.insert(entity_id::combine(traits::null_index, 2)),
               "strata: check failed.*null");
  EXPECT_DEATH(set.insert(entity_id::tombstone(7)),
               "strata: check failed.*tombstone");
  EXPECT_TRUE(set.empty());
}

TEST(VersionedSparseSetDeathTest, IndexOfMissingFailsCheck) {
  set_type set;
  set.insert(entity_id::combine(1, 1));
  EXPECT_EQ(set.index_of(entity_id::combine(1, 1)), 0u);
  EXPECT_DEATH(set.index_of(entity_id::combine(1, 0)), "strata: check failed");
}

TEST(VersionedSparseSetTest, VersionWrapAroundSkipsTombstone) {
  set_type set;
  const auto old_id = entity_id::combine(77, kTombstone - 1);
  ASSERT_TRUE(set.insert(old_id));
  EXPECT_TRUE(set.contains(old_id));
  ASSERT_TRUE(set.erase(old_id));
  const auto recycled = old_id.next_version();
  ASSERT_EQ(recycled.version(), 0u);
  ASSERT_TRUE(set.insert(recycled));
  EXPECT_TRUE(set.contains(recycled));
  EXPECT_FALSE(set.contains(old_id));
  EXPECT_FALSE(set.contains(entity_id::tombstone(77)));
}

TEST(VersionedSparseSetTest, PagesAreAllocatedOnlyWhereUsed) {
  set_type set;
  EXPECT_EQ(set.allocated_pages(), 0u);
  EXPECT_FALSE(set.contains(entity_id::combine(4'000'000, 0)));
  EXPECT_EQ(set.allocated_pages(), 0u);  // lookups never allocate
  set.insert(entity_id::combine(3, 0));
  set.insert(entity_id::combine(4'000'000, 0));
  set.insert(entity_id::combine(4'000'001, 0));
  EXPECT_EQ(set.allocated_pages(), 2u);
  EXPECT_TRUE(set.page_allocated(0));
  EXPECT_TRUE(set.page_allocated(4'000'000 / set_type::page_size));
  EXPECT_FALSE(set.page_allocated(1));
  set.erase(entity_id::combine(4'000'000, 0));
  set.erase(entity_id::combine(4'000'001, 0));
  set.release_pages();
  EXPECT_EQ(set.allocated_pages(), 1u);
  EXPECT_TRUE(set.contains(entity_id::combine(3, 0)));
  EXPECT_FALSE(set.contains(entity_id::combine(4'000'000, 0)));
  EXPECT_TRUE(set.insert(entity_id::combine(4'000'000, 1)));
  EXPECT_EQ(set.allocated_pages(), 2u);
}

TEST(VersionedSparseSetTest, WorksWith64BitIdsAndSmallPages) {
  versioned_sparse_set<entity_id64, 64> set;
  const auto far = entity_id64::combine(1'000'000, 123456);
  EXPECT_TRUE(set.insert(far));
  EXPECT_TRUE(set.insert(entity_id64::combine(1, 0)));
  EXPECT_TRUE(set.contains(far));
  EXPECT_FALSE(set.contains(entity_id64::combine(1'000'000, 123457)));
  EXPECT_FALSE(set.contains(entity_id64::null()));
  EXPECT_FALSE(set.contains(entity_id64::tombstone(1)));
  EXPECT_EQ(set.allocated_pages(), 2u);
  EXPECT_TRUE(set.erase(far));
  EXPECT_EQ(set.size(), 1u);
}

TEST(VersionedSparseSetTest, SortEmptySingleAndLarge) {
  set_type set;
  set.sort();
  EXPECT_TRUE(set.empty());
  set.insert(entity_id::combine(9, 2));
  set.sort(std::greater<>());
  EXPECT_EQ(set[0], entity_id::combine(9, 2));
  EXPECT_EQ(set.index_of(entity_id::combine(9, 2)), 0u);
  set.clear();

  std::vector<entity_id> ids;
  for (std::uint32_t i = 0; i < 100'000; ++i) {
    ids.push_back(entity_id::combine(i * 13 + 1, i % 5));
  }
  std::shuffle(ids.begin(), ids.end(), std::mt19937(5));
  for (auto id : ids) set.insert(id);
  // Sort by index only, descending.
  set.sort([](entity_id a, entity_id b) { return a.index() > b.index(); });
  for (std::size_t pos = 0; pos < set.size(); ++pos) {
    const std::uint32_t i = static_cast<std::uint32_t>(set.size() - 1 - pos);
    ASSERT_EQ(set[pos], entity_id::combine(i * 13 + 1, i % 5));
    ASSERT_EQ(set.find(set[pos]), pos);
  }
}

TEST(VersionedSparseSetTest, SortAsDisjointKeepsContents) {
  set_type a;
  set_type b;
  for (std::uint32_t i = 0; i < 50; ++i) a.insert(entity_id::combine(i, 0));
  for (std::uint32_t i = 100; i < 150; ++i) b.insert(entity_id::combine(i, 0));
  b.insert(entity_id::combine(7, 1));  // same index as a's, other version
  const std::vector<entity_id> before(a.begin(), a.end());
  a.sort_as(b);
  EXPECT_EQ(std::vector<entity_id>(a.begin(), a.end()), before);
  set_type empty;
  a.sort_as(empty);
  empty.sort_as(a);
  EXPECT_EQ(a.size(), 50u);
  EXPECT_TRUE(empty.empty());
}

TEST(VersionedSparseSetTest, SortAsPutsSharedIdsFirstInOtherOrder) {
  set_type a;
  set_type b;
  for (std::uint32_t i = 0; i < 20; ++i) a.insert(entity_id::combine(i, 0));
  for (std::uint32_t i = 30; i-- > 10;) b.insert(entity_id::combine(i, 0));
  a.sort_as(b);
  // b holds 29..10; the shared 19..10 come first, in b's order.
  for (std::uint32_t pos = 0; pos < 10; ++pos) {
    EXPECT_EQ(a[pos], entity_id::combine(19 - pos, 0)) << pos;
  }
  std::vector<std::uint32_t> rest;
  for (std::size_t pos = 10; pos < a.size(); ++pos)
    rest.push_back(a[pos].index());
  std::sort(rest.begin(), rest.end());
  EXPECT_EQ(rest, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  for (std::size_t pos = 0; pos < a.size(); ++pos)
    EXPECT_EQ(a.find(a[pos]), pos);
}

TEST(VersionedSparseSetTest, ReverseIterationAllowsErase) {
  set_type set;
  for (std::uint32_t i = 0; i < 5000; ++i) set.insert(entity_id::combine(i, 1));
  for (std::size_t pos = set.size(); pos-- > 0;) {
    if (set[pos].index() % 2 == 0) set.erase(set[pos]);
  }
  EXPECT_EQ(set.size(), 2500u);
  for (const entity_id id : set) EXPECT_EQ(id.index() % 2, 1u);
}

TEST(VersionedSparseSetTest, CopyIsDeepAndClearKeepsWorking) {
  set_type a;
  for (std::uint32_t i = 0; i < 10'000; i += 3)
    a.insert(entity_id::combine(i, 2));
  set_type b = a;
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_FALSE(a.contains(entity_id::combine(3, 2)));
  EXPECT_EQ(b.size(), 3334u);
  EXPECT_TRUE(b.contains(entity_id::combine(3, 2)));
  a = b;
  EXPECT_TRUE(a.erase(entity_id::combine(3, 2)));
  EXPECT_TRUE(b.contains(entity_id::combine(3, 2)));
  set_type c = std::move(a);
  EXPECT_EQ(c.size(), 3333u);
  c.shrink_to_fit();
  EXPECT_EQ(c.allocated_pages(), 3u);
}

}  // namespace
}  // namespace strata
