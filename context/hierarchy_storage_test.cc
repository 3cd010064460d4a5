// The hierarchy's storage (context/internal/hierarchy_storage.h) under
// random attach, detach and clear sequences (fixed seeds): after every
// operation each depth level holds exactly the indices at that depth with
// their parents, each node's position points at its entry, and after
// tidy_levels no level has more than one in sorted_share of its
// neighbouring pairs out of index order (a level that had is sorted).
#include "context/internal/hierarchy_storage.h"

#include <algorithm>
#include <cstddef>
#include <random>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace {

using strata::context_internal::hierarchy_storage;

constexpr std::size_t kIndices = 3000;

std::size_t descents(std::span<const hierarchy_storage::level_entry> level) {
  std::size_t count = 0;
  for (std::size_t k = 1; k < level.size(); ++k) {
    count += level[k].index < level[k - 1].index;
  }
  return count;
}

// Every level against the nodes' depths and parents.
void expect_consistent(const hierarchy_storage& storage) {
  std::set<std::pair<std::size_t, std::size_t>> listed;  // (depth, index)
  for (std::size_t d = 1; d < storage.level_count(); ++d) {
    for (const auto& entry : storage.level(d)) {
      EXPECT_TRUE(listed.emplace(d, entry.index).second) << entry.index;
      EXPECT_EQ(storage.depth(entry.index), d);
      EXPECT_EQ(storage.parent(entry.index), entry.parent);
    }
  }
  std::set<std::pair<std::size_t, std::size_t>> expected;
  for (std::size_t i = 0; i < kIndices; ++i) {
    EXPECT_EQ(storage.has_parent(i),
              storage.parent(i) != hierarchy_storage::none);
    if (storage.depth(i) > 0) expected.emplace(storage.depth(i), i);
  }
  EXPECT_EQ(listed, expected);
}

void run(unsigned seed) {
  hierarchy_storage storage;
  std::mt19937 rng(seed);
  const auto below = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  for (int round = 0; round < 60; ++round) {
    const std::size_t ops = 1 + below(round % 5 == 0 ? 3000 : 40);
    for (std::size_t op = 0; op < ops; ++op) {
      const std::size_t child = below(kIndices);
      const std::size_t roll = below(10);
      if (roll < 7) {
        const std::size_t parent = below(kIndices);
        if (!storage.is_ancestor_or_self(child, parent)) {
          storage.attach(child, parent);
        }
      } else if (roll < 9) {
        storage.detach(child);
      } else if (storage.first_child(child) == hierarchy_storage::none) {
        storage.clear(child, true);  // a leaf dies
      }
    }
    expect_consistent(storage);
    std::vector<std::size_t> strayed;
    for (std::size_t d = 1; d < storage.level_count(); ++d) {
      const auto level = storage.level(d);
      if (descents(level) * hierarchy_storage::sorted_share > level.size()) {
        strayed.push_back(d);
      }
    }
    storage.tidy_levels();
    expect_consistent(storage);
    for (std::size_t d = 1; d < storage.level_count(); ++d) {
      const auto level = storage.level(d);
      EXPECT_LE(descents(level) * hierarchy_storage::sorted_share,
                level.size());
    }
    for (std::size_t d : strayed) EXPECT_EQ(descents(storage.level(d)), 0u);
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "seed " << seed << " round " << round;
      return;
    }
  }
}

TEST(HierarchyStorageTest, LevelsMatchTheNodesAndStayNearIndexOrder) {
  for (unsigned seed = 1; seed <= 6; ++seed) run(seed);
}

}  // namespace
