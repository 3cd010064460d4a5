#include "threading/thread_pool.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
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

// Also the full million under TSAN, which stays within the test's size.
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

// The tasks one thread posts are taken oldest first, by the owner of the
// queue they went to as by a thief: a non-worker's posts (the injection
// queue) and a worker's posts (its own queue) run in posting order on a
// single worker.
TEST(ThreadPoolTest, FifoPerPostingThread) {
  static constexpr int kTasks = 200;
  run_with_timeout(60s, "FifoPerPostingThread", [] {
    for (bool from_worker : {false, true}) {
      SCOPED_TRACE(from_worker ? "posted by a worker" : "posted by a caller");
      std::vector<int> order;
      latch done(kTasks);
      {
        thread_pool pool(1);
        auto post_all = [&] {
          for (int i = 0; i < kTasks; ++i) {
            pool.post([&order, &done, i] {
              order.push_back(i);  // One worker: no concurrent push_back.
              done.count_down();
            });
          }
        };
        if (from_worker) {
          pool.post(post_all);
        } else {
          post_all();
        }
        done.wait();
      }
      ASSERT_EQ(order.size(), static_cast<std::size_t>(kTasks));
      for (int i = 0; i < kTasks; ++i) ASSERT_EQ(order[i], i);
    }
  });
}

// A worker posts tasks to its own queue and then blocks (on a latch, without
// helping) until they have all run: only a thief can run them. With exactly
// one other worker, that thief takes them one at a time, oldest first (the
// order the atomic-counter scheduler relies on for its critical-path rank).
TEST(ThreadPoolTest, ThievesTakeTheOldestTaskFirst) {
  static constexpr int kTasks = 100;
  run_with_timeout(60s, "ThievesTakeTheOldestTaskFirst", [] {
    thread_pool pool(2);
    std::vector<int> order;
    std::atomic<int> on_owner{0};
    latch done(1);
    pool.post([&] {
      latch stolen(kTasks);
      const std::thread::id owner = std::this_thread::get_id();
      for (int i = 0; i < kTasks; ++i) {
        pool.post([&, owner, i] {
          if (std::this_thread::get_id() == owner) on_owner.fetch_add(1);
          order.push_back(i);  // Only the one thief runs these.
          stolen.count_down();
        });
      }
      stolen.wait();
      done.count_down();
    });
    done.wait();
    EXPECT_EQ(on_owner.load(), 0);
    ASSERT_EQ(order.size(), static_cast<std::size_t>(kTasks));
    for (int i = 0; i < kTasks; ++i) ASSERT_EQ(order[i], i);
  });
}

// A thread that is not a worker steals from a worker's queue in
// try_run_one(): here the only worker is blocked until the caller has run
// every task it posted.
TEST(ThreadPoolTest, TryRunOneStealsFromWorkers) {
  static constexpr int kTasks = 50;
  run_with_timeout(60s, "TryRunOneStealsFromWorkers", [] {
    thread_pool pool(1);
    latch posted(1);
    latch ran(kTasks);
    std::atomic<int> on_caller{0};
    const std::thread::id caller = std::this_thread::get_id();
    pool.post([&] {
      for (int i = 0; i < kTasks; ++i) {
        pool.post([&] {
          if (std::this_thread::get_id() == caller) on_caller.fetch_add(1);
          ran.count_down();
        });
      }
      posted.count_down();
      ran.wait();
    });
    posted.wait();
    while (!ran.try_wait()) {
      ASSERT_TRUE(pool.try_run_one());
    }
    EXPECT_EQ(on_caller.load(), kTasks);
  });
}

// After a burst of work the workers spin for a few microseconds and then
// park: a pool left idle burns (almost) no CPU. Process CPU time over 200 ms
// of idleness must stay under 20 ms; workers that kept polling would burn
// ~200 ms each.
double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 +
         static_cast<double>(t.tv_nsec) / 1e6;
}

TEST(ThreadPoolTest, IdlePoolBurnsNoCpu) {
  for (std::size_t workers : {1u, 2u, 8u}) {
    SCOPED_TRACE(workers);
    thread_pool pool(workers);
    latch done(1000);
    for (int i = 0; i < 1000; ++i) pool.post([&] { done.count_down(); });
    done.wait();
    std::this_thread::sleep_for(20ms);  // Well past the spin limit.
    const double before = process_cpu_ms();
    std::this_thread::sleep_for(200ms);
    EXPECT_LT(process_cpu_ms() - before, 20.0);
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

// Posting a task whose captures fit the task's inline buffer allocates
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
