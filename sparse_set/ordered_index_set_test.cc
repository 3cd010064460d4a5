#include "sparse_set/ordered_index_set.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <random>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

using runs = std::vector<std::pair<std::size_t, std::size_t>>;

runs runs_of(const ordered_index_set& set, std::size_t begin, std::size_t end) {
  runs out;
  set.for_each_run(begin, end, [&](std::size_t first, std::size_t count) {
    out.emplace_back(first, count);
  });
  return out;
}

// What for_each_member hands out for ranks [begin, end): its runs, then
// its single indices, each in call order.
std::pair<runs, std::vector<std::size_t>> member_walk(
    const ordered_index_set& set, std::size_t begin, std::size_t end) {
  std::pair<runs, std::vector<std::size_t>> out;
  set.for_each_member(
      begin, end,
      [&](std::size_t first, std::size_t count) {
        out.first.emplace_back(first, count);
      },
      [&](std::size_t i) { out.second.push_back(i); });
  return out;
}

// The maximal runs of the members of ranks [begin, end) of a sorted set.
runs model_runs(const std::set<std::size_t>& model, std::size_t begin,
                std::size_t end) {
  runs out;
  auto it = model.begin();
  std::advance(it, std::min(begin, model.size()));
  for (std::size_t r = begin; r < end && it != model.end(); ++r, ++it) {
    if (!out.empty() && out.back().first + out.back().second == *it) {
      ++out.back().second;
    } else {
      out.emplace_back(*it, 1);
    }
  }
  return out;
}

TEST(OrderedIndexSetTest, RunsCoverConsecutiveIndicesAcrossWords) {
  ordered_index_set set;
  for (std::size_t i = 60; i < 200; ++i) EXPECT_TRUE(set.insert(i));
  EXPECT_FALSE(set.insert(100));
  EXPECT_TRUE(set.insert(5000));
  EXPECT_EQ(set.size(), 141u);
  EXPECT_EQ(runs_of(set, 0, set.size()), (runs{{60, 140}, {5000, 1}}));
  EXPECT_EQ(runs_of(set, 10, 20), (runs{{70, 10}}));
  EXPECT_EQ(runs_of(set, 139, 141), (runs{{199, 1}, {5000, 1}}));
  EXPECT_TRUE(set.erase(128));
  EXPECT_FALSE(set.erase(128));
  EXPECT_FALSE(set.erase(1'000'000));  // beyond the bitmap
  EXPECT_EQ(runs_of(set, 0, set.size()),
            (runs{{60, 68}, {129, 71}, {5000, 1}}));
}

TEST(OrderedIndexSetTest, EmptyAndFullWords) {
  ordered_index_set set;
  EXPECT_TRUE(runs_of(set, 0, 10).empty());
  for (std::size_t i = 0; i < 64 * 5; ++i) set.insert(i);
  EXPECT_EQ(runs_of(set, 0, set.size()), (runs{{0, 320}}));
  EXPECT_EQ(runs_of(set, 64, 128), (runs{{64, 64}}));
  EXPECT_EQ(runs_of(set, 63, 65), (runs{{63, 2}}));
  set.clear();
  EXPECT_TRUE(set.empty());
  EXPECT_FALSE(set.contains(3));
  EXPECT_TRUE(runs_of(set, 0, 1).empty());
}

TEST(OrderedIndexSetTest, PositionOfRankSkipsBlocks) {
  ordered_index_set set;
  for (std::size_t i : {3u, 4096u * 3 + 7, 4096u * 3 + 63, 4096u * 9}) {
    set.insert(i);
  }
  EXPECT_EQ(set.position_of_rank(0).word, 0u);
  EXPECT_EQ(set.position_of_rank(0).bit, 3u);
  EXPECT_EQ(set.position_of_rank(2).word, 64u * 3);
  EXPECT_EQ(set.position_of_rank(2).bit, 63u);
  EXPECT_EQ(set.position_of_rank(3).word, 64u * 9);
  EXPECT_EQ(set.position_of_rank(4).word, set.capacity() / 64);  // the end
}

// for_each_member hands out full words as runs and stops at its last
// member: one that ends a word (bit 63) still closes the run, and a large
// empty tail (the bitmap grew for members since erased) is not visited.
TEST(OrderedIndexSetTest, ForEachMemberEndsAtTheLastMember) {
  ordered_index_set set;
  for (std::size_t i = 0; i < 64 * 4096; ++i) set.insert(i);
  for (std::size_t i = 128; i < 64 * 4096; ++i) set.erase(i);
  set.insert(130);
  runs run_calls;
  std::vector<std::size_t> singles;
  const auto visit = [&](std::size_t begin, std::size_t end) {
    std::tie(run_calls, singles) = member_walk(set, begin, end);
  };
  visit(0, set.size());
  EXPECT_EQ(run_calls, (runs{{0, 128}}));
  EXPECT_EQ(singles, (std::vector<std::size_t>{130}));
  visit(0, 128);  // ends on bit 63 of word 1
  EXPECT_EQ(run_calls, (runs{{0, 128}}));
  EXPECT_TRUE(singles.empty());
  visit(64, 129);
  EXPECT_EQ(run_calls, (runs{{64, 64}}));
  EXPECT_EQ(singles, (std::vector<std::size_t>{130}));
  visit(5, 7);
  EXPECT_TRUE(run_calls.empty());
  EXPECT_EQ(singles, (std::vector<std::size_t>{5, 6}));
}

// A walk whose last member is the bitmap's last bit: it stops at the end
// of the bitmap (nothing past it is read), through a whole block or word
// by word.
TEST(OrderedIndexSetTest, ForEachMemberEndsAtTheBitmapsEnd) {
  ordered_index_set set;
  for (std::size_t i = 0; i < 4096; ++i) set.insert(i);
  ASSERT_EQ(set.capacity(), 4096u);  // exactly one block
  runs run_calls;
  std::vector<std::size_t> singles;
  const auto visit = [&](std::size_t begin, std::size_t end) {
    std::tie(run_calls, singles) = member_walk(set, begin, end);
  };
  visit(0, set.size());
  EXPECT_EQ(run_calls, (runs{{0, 4096}}));
  EXPECT_TRUE(singles.empty());
  visit(100, set.size());  // starts inside word 1
  EXPECT_EQ(run_calls, (runs{{128, 4096 - 128}}));
  ASSERT_EQ(singles.size(), 28u);
  EXPECT_EQ(singles.front(), 100u);
  EXPECT_EQ(singles.back(), 127u);
  for (std::size_t i = 0; i < 4095; ++i) set.erase(i);
  visit(0, set.size());  // only bit 63 of the last word
  EXPECT_TRUE(run_calls.empty());
  EXPECT_EQ(singles, (std::vector<std::size_t>{4095}));
}

// Random inserts and erases against std::set; after each batch, every
// query and every slicing into up to 7 rank ranges agrees with the model.
TEST(OrderedIndexSetTest, ModelTest) {
  std::mt19937 rng(42);
  for (std::size_t universe : {50u, 700u, 20'000u}) {
    ordered_index_set set;
    std::set<std::size_t> model;
    for (int op = 0; op < 20'000; ++op) {
      const std::size_t index = rng() % universe;
      if (rng() % 3 == 0) {
        EXPECT_EQ(set.erase(index), model.erase(index) == 1);
      } else if (rng() % 50 == 0) {
        // A batch (sorted, as the refresh's kills are, with absent and
        // out-of-range indices), against one erase each.
        std::vector<std::size_t> batch;
        for (int k = 0; k < 40; ++k) batch.push_back(rng() % (universe + 200));
        std::sort(batch.begin(), batch.end());
        batch.erase(std::unique(batch.begin(), batch.end()), batch.end());
        std::size_t expected = 0;
        for (std::size_t i : batch) expected += model.erase(i);
        EXPECT_EQ(set.erase_all(batch.begin(), batch.end(),
                                [](std::size_t i) { return i; }),
                  expected);
      } else if (rng() % 50 == 0) {
        // A batch of inserts (a batch of created entities: usually
        // increasing, here also unsorted, with present indices and indices
        // past the end, which grow the set), against one insert each.
        std::vector<std::size_t> batch;
        for (int k = 0; k < 40; ++k) batch.push_back(rng() % (universe + 200));
        if (rng() % 2 == 0) std::sort(batch.begin(), batch.end());
        std::size_t expected = 0;
        for (std::size_t i : batch) expected += model.insert(i).second;
        EXPECT_EQ(set.insert_all(batch.begin(), batch.end(),
                                 [](std::size_t i) { return i; }),
                  expected);
      } else {
        EXPECT_EQ(set.insert(index), model.insert(index).second);
      }
      ASSERT_EQ(set.size(), model.size());
      if (op % 500 != 0) continue;
      for (std::size_t probe = 0; probe < universe; probe += 7) {
        ASSERT_EQ(set.contains(probe), model.count(probe) == 1);
      }
      const std::size_t slices = 1 + rng() % 7;
      std::vector<std::size_t> seen;
      for (std::size_t s = 0; s < slices; ++s) {
        const std::size_t begin = s * model.size() / slices;
        const std::size_t end = (s + 1) * model.size() / slices;
        ASSERT_EQ(runs_of(set, begin, end), model_runs(model, begin, end));
        set.for_each(begin, end, [&](std::size_t i) { seen.push_back(i); });
        // for_each_member: whole full words as runs, the rest one by one.
        std::vector<std::size_t> members;
        set.for_each_member(
            begin, end,
            [&](std::size_t first, std::size_t count) {
              ASSERT_EQ(first % 64, 0u);
              ASSERT_EQ(count % 64, 0u);
              for (std::size_t i = first; i < first + count; ++i) {
                members.push_back(i);
              }
            },
            [&](std::size_t i) { members.push_back(i); });
        ASSERT_EQ(members,
                  std::vector<std::size_t>(
                      seen.end() - static_cast<std::ptrdiff_t>(end - begin),
                      seen.end()));
      }
      ASSERT_EQ(seen, std::vector<std::size_t>(model.begin(), model.end()));
      ASSERT_EQ(std::vector<std::size_t>(set.begin(), set.end()), seen);
    }
  }
}

}  // namespace
}  // namespace strata
