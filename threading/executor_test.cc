// A thread_pool over an external strata::executor (threading/executor.h):
// tasks run on the executor's threads, exactly once each; nested fork-join
// (parallel_for inside parallel_for) completes even with an executor that
// has fewer threads than the nesting needs, or one that runs every job
// inline; destruction waits for the executor's jobs.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "testing/executors.h"
#include "testing/timeout.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata {
namespace {

using namespace std::chrono_literals;
using ::strata::testing::inline_executor;
using ::strata::testing::run_with_timeout;
using ::strata::testing::threads_executor;

TEST(ExecutorTest, WorkerCountIsTheExecutorsConcurrency) {
  threads_executor jobs(3);
  thread_pool pool(jobs);
  EXPECT_EQ(pool.worker_count(), 3u);
  thread_pool chosen(8, &jobs);
  EXPECT_EQ(chosen.worker_count(), 3u);
  thread_pool own(2, nullptr);
  EXPECT_EQ(own.worker_count(), 2u);
}

TEST(ExecutorTest, TasksRunOnTheExecutorsThreadsExactlyOnce) {
  constexpr std::size_t kTasks = 20'000;
  std::vector<std::atomic<std::uint8_t>> runs(kTasks);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  threads_executor jobs(2);
  run_with_timeout(60s, "TasksRunOnTheExecutorsThreadsExactlyOnce", [&] {
    thread_pool pool(jobs);
    for (std::size_t i = 0; i < kTasks; ++i) {
      pool.post([&, i] {
        runs[i].fetch_add(1, std::memory_order_relaxed);
        if (i % 64 == 0) {
          std::lock_guard<std::mutex> lock(mutex);
          threads.insert(std::this_thread::get_id());
        }
      });
    }
  });  // ~thread_pool: runs what is left, then waits for the jobs.
  std::size_t wrong = 0;
  for (auto& r : runs) wrong += r.load(std::memory_order_relaxed) != 1;
  EXPECT_EQ(wrong, 0u);
  EXPECT_GE(jobs.jobs_run(), kTasks) << "one job per posted task";
  EXPECT_FALSE(threads.count(std::this_thread::get_id()) == 1 &&
               threads.size() == 1)
      << "no task ran on the executor's threads";
}

// Outer tasks each wait for inner ones: with one executor thread, every
// waiter must run queued tasks itself or the nest deadlocks.
void nested_sum(thread_pool& pool) {
  std::atomic<std::size_t> sum{0};
  parallel_for(pool, 8, [&](std::size_t i) {
    parallel_for(pool, 8, [&](std::size_t j) {
      sum.fetch_add(i * 8 + j, std::memory_order_relaxed);
    });
  });
  EXPECT_EQ(sum.load(), 64u * 63u / 2u);
}

TEST(ExecutorTest, NestedWaitsCompleteOnOneExecutorThread) {
  threads_executor jobs(1);
  run_with_timeout(60s, "nested waits, one executor thread", [&] {
    thread_pool pool(jobs);
    for (int round = 0; round < 50; ++round) nested_sum(pool);
  });
  EXPECT_GT(jobs.jobs_run(), 0u);
}

TEST(ExecutorTest, NestedWaitsCompleteOnAnInlineExecutor) {
  inline_executor jobs(3);  // claims 3 threads, runs everything in post()
  run_with_timeout(60s, "nested waits, inline executor", [&] {
    thread_pool pool(jobs);
    EXPECT_EQ(pool.worker_count(), 3u);
    for (int round = 0; round < 50; ++round) nested_sum(pool);
  });
  EXPECT_GT(jobs.jobs_run(), 0u);
}

// Destroying the pool while its jobs are still queued in the executor (the
// executor's threads are busy elsewhere) waits for them; the executor then
// calls jobs of a pool that is gone only if the pool did not wait.
TEST(ExecutorTest, DestructionWaitsForQueuedJobs) {
  threads_executor jobs(1);
  std::atomic<bool> release{false};
  // Occupy the executor's only thread.
  jobs.post({[](void* flag) {
               while (!static_cast<std::atomic<bool>*>(flag)->load()) {
                 std::this_thread::sleep_for(1ms);
               }
             },
             &release},
            1);
  std::atomic<int> ran{0};
  std::thread releaser([&] {
    std::this_thread::sleep_for(20ms);
    release.store(true);
  });
  run_with_timeout(60s, "DestructionWaitsForQueuedJobs", [&] {
    auto pool = std::make_unique<thread_pool>(jobs);
    for (int i = 0; i < 100; ++i) pool->post([&] { ran.fetch_add(1); });
    pool.reset();  // runs the tasks here, then waits for the 100 jobs
  });
  releaser.join();
  EXPECT_EQ(ran.load(), 100);
}

}  // namespace
}  // namespace strata
