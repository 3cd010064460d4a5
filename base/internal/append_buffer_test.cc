#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/internal/trivial_vector.h"
#include "gtest/gtest.h"

namespace strata::base_internal {
namespace {

struct entry {
  int id;
  char tag;
};

std::vector<int> ids_of(const append_buffer<entry>& buffer) {
  std::vector<int> ids;
  for (const entry& e : buffer) ids.push_back(e.id);
  return ids;
}

TEST(AppendBufferTest, KeepsWhatWasAppendedInOrderAcrossGrowth) {
  append_buffer<entry> buffer;
  EXPECT_TRUE(buffer.empty());
  std::vector<int> expected;
  for (int i = 0; i < 1000; ++i) {  // grows several times from 64
    entry& e = buffer.append();
    e.id = i;
    e.tag = 'x';
    expected.push_back(i);
  }
  EXPECT_EQ(buffer.size(), 1000u);
  EXPECT_EQ(ids_of(buffer), expected);
  EXPECT_EQ(buffer[999].id, 999);
}

TEST(AppendBufferTest, AppendOfAValueKeepsOrderAcrossGrowthAndMixesWithSlots) {
  append_buffer<entry> buffer;
  std::vector<int> expected;
  for (int i = 0; i < 1000; ++i) {  // grows several times from 64
    if (i % 3 == 0) {
      buffer.append().id = i;
    } else {
      buffer.append(entry{i, 'v'});
    }
    expected.push_back(i);
  }
  EXPECT_EQ(buffer.size(), 1000u);
  EXPECT_EQ(ids_of(buffer), expected);
  EXPECT_EQ(buffer[1].tag, 'v');
  buffer.clear();
  buffer.append(entry{7, 'w'});  // into kept memory
  EXPECT_EQ(ids_of(buffer), (std::vector<int>{7}));
}

TEST(AppendBufferTest, ShrinkToKeepsAPrefixAndClearEmpties) {
  append_buffer<entry> buffer;
  for (int i = 0; i < 10; ++i) buffer.append().id = i;
  buffer.shrink_to(3);
  EXPECT_EQ(ids_of(buffer), (std::vector<int>{0, 1, 2}));
  buffer.append().id = 42;  // reuses slot 3
  EXPECT_EQ(ids_of(buffer), (std::vector<int>{0, 1, 2, 42}));
  buffer.clear();
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.begin(), buffer.end());
  buffer.append().id = 7;
  EXPECT_EQ(ids_of(buffer), (std::vector<int>{7}));
}

TEST(AppendBufferTest, AMovedFromBufferIsEmptyAndUsable) {
  append_buffer<entry> buffer;
  for (int i = 0; i < 100; ++i) buffer.append().id = i;  // grown once
  append_buffer<entry> moved(std::move(buffer));
  EXPECT_EQ(moved.size(), 100u);
  EXPECT_EQ(moved[99].id, 99);
  EXPECT_TRUE(buffer.empty());  // NOLINT(bugprone-use-after-move)
  buffer.append().id = 5;       // grows its own storage again
  EXPECT_EQ(ids_of(buffer), (std::vector<int>{5}));
  EXPECT_EQ(moved.size(), 100u);

  append_buffer<entry> assigned;
  assigned.append().id = -1;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.size(), 100u);
  EXPECT_EQ(assigned[0].id, 0);
  EXPECT_TRUE(moved.empty());  // NOLINT(bugprone-use-after-move)
  moved.append().id = 7;
  EXPECT_EQ(ids_of(moved), (std::vector<int>{7}));
  EXPECT_EQ(ids_of(buffer), (std::vector<int>{5}));
}

struct alignas(64) wide_entry {
  int id;
};

TEST(AppendBufferTest, KeepsTheAlignmentOfItsElementsAcrossGrowth) {
  append_buffer<wide_entry> buffer;
  for (int i = 0; i < 200; ++i) {  // grows from 64, then twice more
    wide_entry& e = buffer.append();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&e) % 64, 0u);
    e.id = i;
  }
  ASSERT_EQ(buffer.size(), 200u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(buffer[i].id, i);
}

}  // namespace
}  // namespace strata::base_internal
