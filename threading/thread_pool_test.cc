#include "threading/thread_pool.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "testing/allocation_counter.h"
#include "testing/timeout.h"
#include "threading/latch.h"

namespace strata {
namespace {

using namespace std::chrono_literals;
using ::strata::testing::allocation_count;
using ::strata::testing::run_with_timeout;

// Also the full million under TSAN: about 10 s there.
constexpr std::size_t kManyTasks = 1'000'000;

TEST(ThreadPoolTest, WorkerCount) {
  for (std::size_t n : {0u, 1u, 2u, 8u}) {
    thread_pool pool(n);
    EXPECT_EQ(pool.worker_count(), n);
    EXPECT_FALSE(pool.on_worker_thread());
  }
  thread_pool pool;
  EXPECT_EQ(pool.worker_count(), thread_pool::default_worker_count());
}

TEST(ThreadPoolTest, TasksRunOnWorkers) {
  thread_pool pool(2);
  latch done(1);
  bool on_worker = false;
  pool.post([&] {
    on_worker = pool.on_worker_thread();
    done.count_down();
  });
  done.wait();
  EXPECT_TRUE(on_worker);
}

// Several producers post many tiny tasks; each task bumps its own slot, so a
// task run twice or never shows up.
TEST(ThreadPoolTest, EveryTaskRunsExactlyOnce) {
  constexpr std::size_t kProducers = 4;
  std::vector<std::atomic<std::uint8_t>> runs(kManyTasks);
  run_with_timeout(120s, "EveryTaskRunsExactlyOnce", [&] {
    thread_pool pool(2);
    std::vector<std::thread> producers;
    for (std::size_t p = 0; p < kProducers; ++p) {
      producers.emplace_back([&, p] {
        for (std::size_t i = p; i < kManyTasks; i += kProducers) {
          pool.post([slot = &runs[i]] {
            slot->fetch_add(1, std::memory_order_relaxed);
          });
        }
      });
    }
    for (std::thread& t : producers) t.join();
  });  // ~thread_pool runs everything still queued.
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kManyTasks; ++i) {
    if (runs[i].load(std::memory_order_relaxed) != 1) ++wrong;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(ThreadPoolTest, DestructorRunsEverythingQueued) {
  for (std::size_t workers : {0u, 1u, 2u, 8u}) {
    SCOPED_TRACE(workers);
    constexpr int kTasks = 5000;
    std::atomic<int> ran{0};
    run_with_timeout(60s, "DestructorRunsEverythingQueued", [&] {
      latch gate(1);
      thread_pool pool(workers);
      // Keep the workers busy so that the queue is still full when the
      // destructor starts.
      for (std::size_t w = 0; w < workers; ++w) {
        pool.post([&] { gate.wait(); });
      }
      for (int i = 0; i < kTasks; ++i) {
        pool.post([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      }
      gate.count_down();
    });
    EXPECT_EQ(ran.load(), kTasks);
  }
}

// Tasks posted by tasks while the pool is being destroyed run too.
TEST(ThreadPoolTest, TasksPostedDuringShutdownRun) {
  for (std::size_t workers : {0u, 1u, 2u, 8u}) {
    SCOPED_TRACE(workers);
    constexpr int kChains = 16;
    constexpr int kDepth = 200;
    std::atomic<int> ran{0};
    run_with_timeout(60s, "TasksPostedDuringShutdownRun", [&] {
      thread_pool pool(workers);
      struct chain {
        thread_pool* pool;
        std::atomic<int>* ran;
        static void step(thread_pool* pool, std::atomic<int>* ran, int left) {
          ran->fetch_add(1, std::memory_order_relaxed);
          if (left > 1) {
            pool->post([pool, ran, left] { step(pool, ran, left - 1); });
          }
        }
      };
      for (int c = 0; c < kChains; ++c) {
        pool.post([&pool, &ran] { chain::step(&pool, &ran, kDepth); });
      }
    });
    EXPECT_EQ(ran.load(), kChains * kDepth);
  }
}

TEST(ThreadPoolTest, TryRunOneWithoutWorkers) {
  thread_pool pool(0);
  EXPECT_FALSE(pool.try_run_one());
  int ran = 0;
  for (int i = 0; i < 3; ++i) pool.post([&] { ++ran; });
  EXPECT_TRUE(pool.try_run_one());
  EXPECT_TRUE(pool.try_run_one());
  EXPECT_TRUE(pool.try_run_one());
  EXPECT_FALSE(pool.try_run_one());
  EXPECT_EQ(ran, 3);
}

TEST(ThreadPoolTest, MoveOnlyTasks) {
  thread_pool pool(1);
  latch done(1);
  int value = 0;
  auto owned = std::make_unique<int>(42);
  pool.post([&, owned = std::move(owned)] {
    value = *owned;
    done.count_down();
  });
  done.wait();
  EXPECT_EQ(value, 42);
}

TEST(ThreadPoolDeathTest, EmptyTaskIsRejected) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        thread_pool pool(0);
        pool.post(thread_pool::task());
      },
      "post needs a non-empty task");
}

TEST(ThreadPoolDeathTest, ThrowingPostedTaskTerminatesWithMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        thread_pool pool(1);
        pool.post([] { throw std::runtime_error("boom from a task"); });
      },
      "a task passed to post\\(\\) threw: boom from a task");
}

// Posting a task whose captures fit AnyInvocable's inline buffer allocates
// nothing once the queue has warmed up. A large capture is measured too, to
// show that the counter does see allocations.
std::size_t allocations_for_rounds(thread_pool& pool, int rounds, int tasks,
                                   bool large) {
  std::atomic<int> ran{0};
  struct big {
    std::atomic<int>* ran;
    char padding[56];
  };
  latch done(0);
  const std::size_t before = allocation_count();
  for (int r = 0; r < rounds; ++r) {
    done.reset(static_cast<std::size_t>(tasks));
    for (int i = 0; i < tasks; ++i) {
      if (large) {
        pool.post([b = big{&ran, {}}, d = &done] {
          b.ran->fetch_add(1, std::memory_order_relaxed);
          d->count_down();
        });
      } else {
        pool.post([r = &ran, d = &done] {
          r->fetch_add(1, std::memory_order_relaxed);
          d->count_down();
        });
      }
    }
    done.wait();
  }
  return allocation_count() - before;
}

TEST(ThreadPoolTest, SmallTasksDoNotAllocate) {
  constexpr int kRounds = 20;
  constexpr int kTasks = 1000;
  run_with_timeout(60s, "SmallTasksDoNotAllocate", [] {
    thread_pool pool(2);
    allocations_for_rounds(pool, kRounds, kTasks, /*large=*/false);  // Warm.
    EXPECT_EQ(allocations_for_rounds(pool, kRounds, kTasks, false), 0u);
    EXPECT_GE(allocations_for_rounds(pool, kRounds, kTasks, /*large=*/true),
              static_cast<std::size_t>(kRounds * kTasks));
  });
}

}  // namespace
}  // namespace strata
