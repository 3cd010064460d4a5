#include "threading/task_group.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "testing/allocation_counter.h"
#include "testing/timeout.h"
#include "threading/latch.h"
#include "threading/thread_pool.h"

namespace strata {
namespace {

using namespace std::chrono_literals;
using ::strata::testing::allocation_count;
using ::strata::testing::run_with_timeout;

class TaskGroupTest : public ::testing::TestWithParam<std::size_t> {};

INSTANTIATE_TEST_SUITE_P(Workers, TaskGroupTest,
                         ::testing::Values(0u, 1u, 2u, 8u),
                         [](const auto& info) {
                           return std::to_string(info.param) + "_workers";
                         });

TEST_P(TaskGroupTest, RunAndWait) {
  run_with_timeout(30s, "RunAndWait", [&] {
    thread_pool pool(GetParam());
    std::atomic<int> sum{0};
    task_group group(pool);
    for (int i = 1; i <= 100; ++i) {
      group.run([&sum, i] { sum.fetch_add(i, std::memory_order_relaxed); });
    }
    group.wait();
    EXPECT_EQ(sum.load(), 5050);
    group.wait();  // Waiting again on a finished group returns at once.
  });
}

// Nested waits, three levels deep: every task forks subtasks that are
// queued behind it and waits for them. With one worker (or none) the waiting
// thread is the only one that can run them, so it must help.
std::uint64_t nested_sum(thread_pool& pool, int depth, std::uint64_t base) {
  constexpr int kFanOut = 4;
  if (depth == 0) return base;
  std::atomic<std::uint64_t> sum{0};
  task_group group(pool);
  for (int i = 0; i < kFanOut; ++i) {
    group.run([&pool, &sum, depth, base, i] {
      sum.fetch_add(nested_sum(pool, depth - 1, base * kFanOut + i),
                    std::memory_order_relaxed);
    });
  }
  group.wait();
  return sum.load();
}

TEST_P(TaskGroupTest, NestedForkJoinThreeLevelsDoesNotDeadlock) {
  run_with_timeout(30s, "NestedForkJoinThreeLevels", [&] {
    thread_pool pool(GetParam());
    // Leaves are base values 0..63 at depth 3 (4^3 leaves).
    for (int repeat = 0; repeat < 20; ++repeat) {
      EXPECT_EQ(nested_sum(pool, 3, 0), 63u * 64u / 2u);
    }
  });
}

TEST_P(TaskGroupTest, NestedParallelForThreeLevelsDoesNotDeadlock) {
  run_with_timeout(30s, "NestedParallelForThreeLevels", [&] {
    thread_pool pool(GetParam());
    for (int repeat = 0; repeat < 20; ++repeat) {
      std::atomic<int> leaves{0};
      parallel_for(pool, 8, [&](std::size_t) {
        parallel_for(pool, 8, [&](std::size_t) {
          parallel_for(pool, 8, [&](std::size_t) {
            leaves.fetch_add(1, std::memory_order_relaxed);
          });
        });
      });
      EXPECT_EQ(leaves.load(), 512);
    }
  });
}

// A plain posted task (not part of the group) that waits on a group: the
// queue holds its subtasks behind it: with one worker, a waiter that did not
// help would wait forever.
TEST_P(TaskGroupTest, PostedTaskWaitingOnGroup) {
  run_with_timeout(30s, "PostedTaskWaitingOnGroup", [&] {
    thread_pool pool(GetParam());
    latch done(1);
    std::atomic<int> ran{0};
    pool.post([&] {
      task_group group(pool);
      for (int i = 0; i < 16; ++i) {
        group.run([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      }
      group.wait();
      done.count_down();
    });
    // With zero workers nobody but this thread can run the posted task.
    while (!done.try_wait()) {
      if (!pool.try_run_one()) done.wait();
    }
    EXPECT_EQ(ran.load(), 16);
  });
}

// Group tasks add their successors to the same group while it runs, as the
// atomic-counter scheduler does; wait() must cover the late additions.
TEST_P(TaskGroupTest, TasksSpawnIntoTheirOwnGroup) {
  run_with_timeout(30s, "TasksSpawnIntoTheirOwnGroup", [&] {
    thread_pool pool(GetParam());
    std::atomic<int> ran{0};
    task_group group(pool);
    struct spawner {
      task_group* group;
      std::atomic<int>* ran;
      int left;
      void operator()() const {
        ran->fetch_add(1, std::memory_order_relaxed);
        if (left > 1) {
          group->run(spawner{group, ran, left - 1});
          group->run(spawner{group, ran, 1});
        }
      }
    };
    group.run(spawner{&group, &ran, 500});
    group.wait();
    EXPECT_EQ(ran.load(), 500 + 499);
  });
}

// Several external threads fork and join on one pool at once; catches lost
// wake-ups between helpers, workers and finishing groups.
TEST_P(TaskGroupTest, ManyConcurrentWaitersMakeProgress) {
  run_with_timeout(60s, "ManyConcurrentWaiters", [&] {
    thread_pool pool(GetParam());
    constexpr int kThreads = 4;
    constexpr int kRounds = 300;
    std::atomic<int> total{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        for (int r = 0; r < kRounds; ++r) {
          parallel_for(pool, 4, [&](std::size_t) {
            task_group inner(pool);
            inner.run([&] { total.fetch_add(1, std::memory_order_relaxed); });
            inner.wait();
          });
        }
      });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(total.load(), kThreads * kRounds * 4);
  });
}

TEST_P(TaskGroupTest, ExceptionReachesWaitAfterAllTasksFinish) {
  run_with_timeout(30s, "ExceptionReachesWait", [&] {
    thread_pool pool(GetParam());
    std::atomic<int> finished{0};
    task_group group(pool);
    for (int i = 0; i < 100; ++i) {
      group.run([&finished, i] {
        if (i == 37) {
          finished.fetch_add(1, std::memory_order_relaxed);
          throw std::runtime_error("task 37 failed");
        }
        std::this_thread::yield();
        finished.fetch_add(1, std::memory_order_relaxed);
      });
    }
    try {
      group.wait();
      ADD_FAILURE() << "wait() did not rethrow";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "task 37 failed");
    }
    EXPECT_EQ(finished.load(), 100);

    // The group and the pool remain usable.
    std::atomic<int> after{0};
    for (int i = 0; i < 50; ++i) group.run([&] { ++after; });
    group.wait();  // No stale exception.
    EXPECT_EQ(after.load(), 50);
  });
}

TEST_P(TaskGroupTest, FirstOfSeveralExceptionsWins) {
  run_with_timeout(30s, "FirstOfSeveralExceptionsWins", [&] {
    thread_pool pool(GetParam());
    task_group group(pool);
    for (int i = 0; i < 20; ++i) {
      group.run([i] { throw i; });
    }
    try {
      group.wait();
      ADD_FAILURE() << "wait() did not rethrow";
    } catch (int i) {
      EXPECT_GE(i, 0);
      EXPECT_LT(i, 20);
    }
  });
}

TEST_P(TaskGroupTest, NestedGroupExceptionsPropagateOutward) {
  run_with_timeout(30s, "NestedGroupExceptions", [&] {
    thread_pool pool(GetParam());
    std::atomic<int> leaves{0};
    task_group outer(pool);
    for (int i = 0; i < 4; ++i) {
      outer.run([&pool, &leaves, i] {
        task_group inner(pool);
        for (int j = 0; j < 4; ++j) {
          inner.run([&leaves, i, j] {
            leaves.fetch_add(1, std::memory_order_relaxed);
            if (i == 2 && j == 3) throw std::logic_error("leaf 2.3");
          });
        }
        inner.wait();  // Rethrows inside the outer task for i == 2.
      });
    }
    EXPECT_THROW(
        {
          try {
            outer.wait();
          } catch (const std::logic_error& e) {
            EXPECT_STREQ(e.what(), "leaf 2.3");
            throw;
          }
        },
        std::logic_error);
    EXPECT_EQ(leaves.load(), 16);
    // Still usable.
    std::atomic<int> sum{0};
    parallel_for(pool, 10, [&](std::size_t i) {
      sum.fetch_add(static_cast<int>(i), std::memory_order_relaxed);
    });
    EXPECT_EQ(sum.load(), 45);
  });
}

TEST_P(TaskGroupTest, ParallelForRunsEveryIndexOnce) {
  run_with_timeout(30s, "ParallelForRunsEveryIndexOnce", [&] {
    thread_pool pool(GetParam());
    for (std::size_t n : {0u, 1u, 2u, 3u, 64u, 1000u}) {
      std::vector<std::atomic<int>> hits(n);
      parallel_for(pool, n, [&](std::size_t i) {
        hits[i].fetch_add(1, std::memory_order_relaxed);
      });
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << i;
    }
  });
}

TEST_P(TaskGroupTest, ParallelForExceptionFromAnyIndex) {
  run_with_timeout(30s, "ParallelForException", [&] {
    thread_pool pool(GetParam());
    for (std::size_t thrower : {0u, 5u, 63u}) {
      std::atomic<int> ran{0};
      try {
        parallel_for(pool, 64, [&](std::size_t i) {
          ran.fetch_add(1, std::memory_order_relaxed);
          if (i == thrower) throw std::runtime_error(std::to_string(i));
        });
        ADD_FAILURE() << "parallel_for did not rethrow";
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(e.what(), std::to_string(thrower));
      }
      EXPECT_EQ(ran.load(), 64);
    }
  });
}

// parallel_for claims its indices: with the only worker busy, the caller
// runs every index itself before it helps with work queued ahead of its own
// (here an unrelated task posted first), which it then does while waiting
// for the helper task it posted.
TEST(TaskGroupOrderTest, ParallelForRunsItsOwnIndicesBeforeUnrelatedWork) {
  run_with_timeout(30s, "ParallelForRunsItsOwnIndicesFirst", [&] {
    thread_pool pool(1);
    latch started(1);
    latch release(1);
    pool.post([&] {
      started.count_down();
      release.wait();
    });
    started.wait();  // the worker is busy until released
    std::mutex mutex;
    std::vector<std::string> order;
    const auto note = [&](std::string what) {
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(std::move(what));
    };
    pool.post([&] { note("unrelated"); });
    parallel_for(pool, 4, [&](std::size_t i) { note(std::to_string(i)); });
    release.count_down();
    EXPECT_EQ(order,
              (std::vector<std::string>{"0", "1", "2", "3", "unrelated"}));
  });
}

// Unwinding past a group whose tasks still run must wait for them (they
// refer to the frame being left); ASAN would flag the use after return.
TEST_P(TaskGroupTest, DestructorWaitsDuringUnwinding) {
  run_with_timeout(30s, "DestructorWaitsDuringUnwinding", [&] {
    thread_pool pool(GetParam());
    std::atomic<int> finished{0};
    try {
      int on_frame = 7;
      task_group group(pool);
      for (int i = 0; i < 8; ++i) {
        group.run([&finished, &on_frame] {
          std::this_thread::sleep_for(1ms);
          finished.fetch_add(on_frame, std::memory_order_relaxed);
        });
      }
      throw std::runtime_error("leaving early");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(finished.load(), 8 * 7);
  });
}

// Per-task allocations in the steady state: none for task_group::run with a
// one-pointer capture and none for parallel_for.
TEST(TaskGroupAllocationTest, SteadyStateForkJoinDoesNotAllocate) {
  run_with_timeout(60s, "SteadyStateForkJoinDoesNotAllocate", [] {
    thread_pool pool(2);
    std::atomic<int> counter{0};
    auto round = [&] {
      task_group group(pool);
      for (int i = 0; i < 64; ++i) {
        group.run(
            [c = &counter] { c->fetch_add(1, std::memory_order_relaxed); });
      }
      group.wait();
      parallel_for(pool, 64, [&](std::size_t) {
        counter.fetch_add(1, std::memory_order_relaxed);
      });
    };
    for (int i = 0; i < 200; ++i) round();  // Warm up the queue's blocks.
    const std::size_t before = allocation_count();
    for (int i = 0; i < 200; ++i) round();
    EXPECT_EQ(allocation_count() - before, 0u);
    EXPECT_EQ(counter.load(), 400 * 128);
  });
}

}  // namespace
}  // namespace strata
