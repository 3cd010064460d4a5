#include "base/internal/atomic_value.h"

#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace strata::base_internal {
namespace {

TEST(AtomicValueTest, StartsAtZeroOrAtTheGivenValue) {
  atomic_value<std::size_t> zero;
  atomic_value<std::uint64_t> seven{7};
  atomic_value<bool> flag;
  EXPECT_EQ(zero.load(memory_order::relaxed), 0u);
  EXPECT_EQ(seven.load(memory_order::acquire), 7u);
  EXPECT_FALSE(flag.load(memory_order::seq_cst));
}

TEST(AtomicValueTest, ReadModifyWritesReturnThePreviousValue) {
  atomic_value<std::uint64_t> word{0b0101};
  EXPECT_EQ(word.fetch_or(0b0010, memory_order::relaxed), 0b0101u);
  EXPECT_EQ(word.fetch_add(1, memory_order::acq_rel), 0b0111u);
  EXPECT_EQ(word.fetch_sub(3, memory_order::release), 0b1000u);
  EXPECT_EQ(word.exchange(42, memory_order::seq_cst), 0b0101u);
  EXPECT_EQ(word.load(memory_order::relaxed), 42u);
  word.store(9, memory_order::release);
  EXPECT_EQ(word.load(memory_order::acquire), 9u);

  atomic_value<bool> flag;
  EXPECT_FALSE(flag.exchange(true, memory_order::relaxed));
  EXPECT_TRUE(flag.exchange(false, memory_order::relaxed));
}

TEST(AtomicValueTest, SubtractionWrapsAsUnsignedArithmetic) {
  atomic_value<std::size_t> count{0};
  EXPECT_EQ(count.fetch_sub(1, memory_order::relaxed), 0u);
  EXPECT_EQ(count.load(memory_order::relaxed), ~std::size_t{0});
}

TEST(AtomicValueTest, HasTheLayoutOfTheValue) {
  static_assert(sizeof(atomic_value<std::uint64_t>) == sizeof(std::uint64_t));
  static_assert(alignof(atomic_value<std::uint32_t>) == 4);
  static_assert(alignof(atomic_value<std::uint64_t>) == 8);
}

// Concurrent increments are not lost: the count after the threads join is the
// number of increments, whatever the interleaving.
TEST(AtomicValueTest, ConcurrentIncrementsAreNotLost) {
  constexpr int kThreads = 4;
  constexpr int kIncrements = 100000;
  atomic_value<std::size_t> count;
  atomic_value<std::uint64_t> bits;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIncrements; ++i) {
        count.fetch_add(1, memory_order::relaxed);
      }
      bits.fetch_or(std::uint64_t{1} << t, memory_order::relaxed);
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(count.load(memory_order::relaxed),
            std::size_t{kThreads} * kIncrements);
  EXPECT_EQ(bits.load(memory_order::relaxed), 0b1111u);
}

// A release store and an acquire load order the plain data around them: the
// reader sees the writer's data. Under ThreadSanitizer this fails (a data
// race on `data`) if the operations did not synchronize.
TEST(AtomicValueTest, ReleaseAndAcquirePublishPlainData) {
  for (int round = 0; round < 100; ++round) {
    std::vector<int> data;
    atomic_value<bool> published;
    std::thread writer([&] {
      data.assign(64, round);
      published.store(true, memory_order::release);
    });
    while (!published.load(memory_order::acquire)) std::this_thread::yield();
    ASSERT_EQ(data.size(), 64u);
    EXPECT_EQ(data.back(), round);
    writer.join();
  }
}

// The last of several decrements with acq_rel sees every earlier writer's
// data, the pattern of a task group's pending count.
TEST(AtomicValueTest, LastDecrementSeesEveryWriter) {
  constexpr int kThreads = 4;
  std::vector<int> slots(kThreads, 0);
  atomic_value<std::size_t> pending{kThreads};
  atomic_value<int> sum_seen_by_last{-1};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      slots[t] = t + 1;
      if (pending.fetch_sub(1, memory_order::acq_rel) == 1) {
        int sum = 0;
        for (int slot : slots) sum += slot;
        sum_seen_by_last.store(sum, memory_order::relaxed);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(sum_seen_by_last.load(memory_order::relaxed), 1 + 2 + 3 + 4);
}

}  // namespace
}  // namespace strata::base_internal
