#include "threading/latch.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(LatchTest, ZeroCountIsOpen) {
  latch l(0);
  EXPECT_TRUE(l.try_wait());
  l.wait();  // Must not block.
}

TEST(LatchTest, OpensOnlyWhenCountReachesZero) {
  latch l(3);
  EXPECT_FALSE(l.try_wait());
  l.count_down();
  EXPECT_FALSE(l.try_wait());
  l.count_down(2);
  EXPECT_TRUE(l.try_wait());
  EXPECT_EQ(l.count_approx(), 0u);
}

TEST(LatchTest, WaiterDoesNotWakeBeforeZero) {
  latch l(2);
  std::atomic<bool> woke{false};
  std::thread waiter([&] {
    l.wait();
    woke.store(true);
  });
  l.count_down();
  // Give a wrongly-woken waiter time to show itself.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(woke.load());
  l.count_down();
  waiter.join();
  EXPECT_TRUE(woke.load());
}

// Many threads count down concurrently; several waiters must see every
// decrementer's prior work when they wake, i.e. they wake exactly at zero.
TEST(LatchTest, ConcurrentCountDownWakesWaitersAtZero) {
  constexpr int kDecrementers = 8;
  constexpr int kPerThread = 2000;
  constexpr int kWaiters = 4;
  constexpr int kTotal = kDecrementers * kPerThread;
  latch l(kTotal);
  std::atomic<int> work_done{0};
  std::atomic<int> waiters_ok{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWaiters; ++w) {
    threads.emplace_back([&] {
      l.wait();
      if (work_done.load(std::memory_order_relaxed) == kTotal) ++waiters_ok;
    });
  }
  for (int d = 0; d < kDecrementers; ++d) {
    threads.emplace_back([&] {
      for (int i = 0; i < kPerThread; ++i) {
        work_done.fetch_add(1, std::memory_order_relaxed);
        l.count_down();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(waiters_ok.load(), kWaiters);
  EXPECT_TRUE(l.try_wait());
}

TEST(LatchTest, ResetReusesTheLatch) {
  latch l(0);
  for (int round = 0; round < 100; ++round) {
    l.reset(4);
    std::atomic<int> done{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) {
      threads.emplace_back([&] {
        done.fetch_add(1, std::memory_order_relaxed);
        l.count_down();
      });
    }
    l.wait();
    EXPECT_EQ(done.load(std::memory_order_relaxed), 4);
    for (std::thread& t : threads) t.join();
  }
}

TEST(LatchTest, ExecuteAndWaitRunsThenWaits) {
  latch l(5);
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  l.execute_and_wait_until_zero([&] {
    for (int i = 0; i < 5; ++i) {
      threads.emplace_back([&] {
        done.fetch_add(1, std::memory_order_relaxed);
        l.count_down();
      });
    }
  });
  EXPECT_EQ(done.load(std::memory_order_relaxed), 5);
  for (std::thread& t : threads) t.join();
}

// Work that completes synchronously inside f must not deadlock (f runs without
// the latch's mutex held).
TEST(LatchTest, ExecuteAndWaitAllowsCountDownInsideF) {
  latch l(2);
  l.execute_and_wait_until_zero([&] {
    l.count_down();
    l.count_down();
  });
  EXPECT_TRUE(l.try_wait());
}

// The waiter destroys the latch as soon as wait() returns, while the zeroing
// thread may still be inside count_down(); ASAN/TSAN catch a use after free.
TEST(LatchTest, DestroyRightAfterWaitIsSafe) {
  for (int i = 0; i < 2000; ++i) {
    auto l = std::make_unique<latch>(1);
    std::thread t([p = l.get()] { p->count_down(); });
    l->wait();
    l.reset();
    t.join();
  }
}

TEST(LatchDeathTest, CountingBelowZeroFails) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        latch l(1);
        l.count_down(2);
      },
      "latch::count_down would go below zero");
}

}  // namespace
}  // namespace strata
