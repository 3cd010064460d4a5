// Benchmarks for //threading, each beside the baselines a user would reach
// for without a pool: std::async (std::launch::async) and one std::thread per
// task.
//
// Fork-join baselines mirror parallel_for: n - 1 tasks are spawned and one
// runs on the caller. Spawning a thread per task is far too slow for a
// million tasks, so the throughput baselines run 10'000 tasks per iteration;
// compare the per-task time (the "per_task" counter, in seconds) rather than
// the time per iteration.
//
// allocs_per_task counts global operator new calls inside the timed loop,
// divided by the number of tasks posted there.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"
#include "testing/allocation_counter.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata {
namespace {

using ::strata::testing::allocation_count;

constexpr std::size_t kManyTasks = 1'000'000;
constexpr std::size_t kManyTasksBaseline = 10'000;

void report(benchmark::State& state, std::size_t tasks_per_iteration,
            std::size_t allocations) {
  const double tasks =
      static_cast<double>(state.iterations()) * tasks_per_iteration;
  state.SetItemsProcessed(static_cast<std::int64_t>(tasks));
  state.counters["per_task"] =
      benchmark::Counter(static_cast<double>(tasks_per_iteration),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
  state.counters["allocs_per_task"] =
      tasks == 0 ? 0.0 : static_cast<double>(allocations) / tasks;
}

// --- Post one empty task and wait for it. ----------------------------------

void BM_PostAndWait_Pool(benchmark::State& state) {
  thread_pool pool;
  for (int i = 0; i < 1000; ++i) {  // Warm up the queue's blocks.
    task_group group(pool);
    group.run([] {});
    group.wait();
  }
  const std::size_t before = allocation_count();
  for (auto _ : state) {
    task_group group(pool);
    group.run([] {});
    group.wait();
  }
  report(state, 1, allocation_count() - before);
}
BENCHMARK(BM_PostAndWait_Pool)->UseRealTime();

// Shared arguments, so that the pool and each baseline run the same sizes.
void fork_join_args(benchmark::internal::Benchmark* b) {
  b->Arg(2)->Arg(8)->Arg(64)->UseRealTime();
}
void contention_args(benchmark::internal::Benchmark* b) {
  b->Arg(2)->Arg(8)->Arg(16)->Arg(64)->UseRealTime()->Unit(
      benchmark::kMillisecond);
}

void BM_PostAndWait_StdAsync(benchmark::State& state) {
  const std::size_t before = allocation_count();
  for (auto _ : state) {
    std::async(std::launch::async, [] {}).get();
  }
  report(state, 1, allocation_count() - before);
}
BENCHMARK(BM_PostAndWait_StdAsync)->UseRealTime();

void BM_PostAndWait_StdThread(benchmark::State& state) {
  const std::size_t before = allocation_count();
  for (auto _ : state) {
    std::thread([] {}).join();
  }
  report(state, 1, allocation_count() - before);
}
BENCHMARK(BM_PostAndWait_StdThread)->UseRealTime();

// --- Fork-join of n empty subtasks. -----------------------------------------

void BM_ForkJoin_Pool(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  thread_pool pool;
  auto body = [](std::size_t i) { benchmark::DoNotOptimize(i); };
  for (int i = 0; i < 1000; ++i) parallel_for(pool, n, body);
  const std::size_t before = allocation_count();
  for (auto _ : state) parallel_for(pool, n, body);
  report(state, n, allocation_count() - before);
}
BENCHMARK(BM_ForkJoin_Pool)->Apply(fork_join_args);

// The same with task_group::run per subtask instead of parallel_for.
void BM_ForkJoin_TaskGroup(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  thread_pool pool;
  std::atomic<int> sink{0};
  auto fork_join = [&] {
    task_group group(pool);
    for (std::size_t i = 0; i < n; ++i) {
      group.run([s = &sink] { s->fetch_add(1, std::memory_order_relaxed); });
    }
    group.wait();
  };
  for (int i = 0; i < 1000; ++i) fork_join();
  const std::size_t before = allocation_count();
  for (auto _ : state) fork_join();
  report(state, n, allocation_count() - before);
}
BENCHMARK(BM_ForkJoin_TaskGroup)->Apply(fork_join_args);

void BM_ForkJoin_StdAsync(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::future<void>> futures;
  futures.reserve(n);
  const std::size_t before = allocation_count();
  for (auto _ : state) {
    for (std::size_t i = 1; i < n; ++i) {
      futures.push_back(
          std::async(std::launch::async, [i] { benchmark::DoNotOptimize(i); }));
    }
    std::size_t zero = 0;
    benchmark::DoNotOptimize(zero);
    for (std::future<void>& f : futures) f.get();
    futures.clear();
  }
  report(state, n, allocation_count() - before);
}
BENCHMARK(BM_ForkJoin_StdAsync)->Apply(fork_join_args);

void BM_ForkJoin_StdThread(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::thread> threads;
  threads.reserve(n);
  const std::size_t before = allocation_count();
  for (auto _ : state) {
    for (std::size_t i = 1; i < n; ++i) {
      threads.emplace_back([i] { benchmark::DoNotOptimize(i); });
    }
    std::size_t zero = 0;
    benchmark::DoNotOptimize(zero);
    for (std::thread& t : threads) t.join();
    threads.clear();
  }
  report(state, n, allocation_count() - before);
}
BENCHMARK(BM_ForkJoin_StdThread)->Apply(fork_join_args);

// --- Throughput of many tiny tasks (one relaxed increment each). -------------

void BM_ManyTinyTasks_Pool(benchmark::State& state) {
  thread_pool pool;
  std::atomic<std::size_t> counter{0};
  auto post_all = [&] {
    task_group group(pool);
    for (std::size_t i = 0; i < kManyTasks; ++i) {
      group.run([c = &counter] { c->fetch_add(1, std::memory_order_relaxed); });
    }
    group.wait();
  };
  post_all();  // Warm up: the queue keeps its blocks afterwards.
  const std::size_t before = allocation_count();
  for (auto _ : state) post_all();
  report(state, kManyTasks, allocation_count() - before);
  if (counter.load() != kManyTasks * (state.iterations() + 1)) {
    state.SkipWithError("lost tasks");
  }
}
BENCHMARK(BM_ManyTinyTasks_Pool)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same through parallel_for (one task per index).
void BM_ManyTinyTasks_ParallelFor(benchmark::State& state) {
  thread_pool pool;
  std::atomic<std::size_t> counter{0};
  auto body = [&](std::size_t) {
    counter.fetch_add(1, std::memory_order_relaxed);
  };
  parallel_for(pool, kManyTasks, body);
  const std::size_t before = allocation_count();
  for (auto _ : state) parallel_for(pool, kManyTasks, body);
  report(state, kManyTasks, allocation_count() - before);
}
BENCHMARK(BM_ManyTinyTasks_ParallelFor)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_ManyTinyTasks_StdAsync(benchmark::State& state) {
  std::atomic<std::size_t> counter{0};
  std::vector<std::future<void>> futures;
  futures.reserve(kManyTasksBaseline);
  const std::size_t before = allocation_count();
  for (auto _ : state) {
    for (std::size_t i = 0; i < kManyTasksBaseline; ++i) {
      futures.push_back(std::async(std::launch::async, [c = &counter] {
        c->fetch_add(1, std::memory_order_relaxed);
      }));
    }
    for (std::future<void>& f : futures) f.get();
    futures.clear();
  }
  report(state, kManyTasksBaseline, allocation_count() - before);
}
BENCHMARK(BM_ManyTinyTasks_StdAsync)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_ManyTinyTasks_StdThread(benchmark::State& state) {
  std::atomic<std::size_t> counter{0};
  std::vector<std::thread> threads;
  threads.reserve(kManyTasksBaseline);
  const std::size_t before = allocation_count();
  for (auto _ : state) {
    // Join as we go: 10'000 live threads would hit process limits.
    for (std::size_t i = 0; i < kManyTasksBaseline; ++i) {
      std::thread([c = &counter] {
        c->fetch_add(1, std::memory_order_relaxed);
      }).join();
    }
  }
  report(state, kManyTasksBaseline, allocation_count() - before);
}
BENCHMARK(BM_ManyTinyTasks_StdThread)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---- Contention: many threads posting and taking at once. -------------------
//
// The many-core question about the pool's one queue object: with T threads
// (T - 1 workers and the caller), T producer tasks each post kPerProducer tiny
// tasks into one group while every thread also takes tasks, so posts and
// takes from all threads collide. moodycamel's queue keeps one sub-queue per
// producer and lets consumers rotate over them, so a shared queue object is
// not a shared head; the baseline in the same binary is the naive shared
// queue (one mutex, one condition variable, a std::deque) doing the same
// work. Measured at 2, 8, 16 and 64 threads on whatever cores there are
// (oversubscribed beyond them: then it also shows the cost of the OS
// switching threads). Compare per_task across thread counts.
constexpr std::size_t kPerProducer = 2'000;

void BM_Contention_Pool(benchmark::State& state) {
  const auto threads = static_cast<std::size_t>(state.range(0));
  thread_pool pool(threads - 1);
  std::atomic<std::size_t> sink{0};
  for (auto _ : state) {
    task_group group(pool);
    for (std::size_t p = 0; p < threads; ++p) {
      group.run([&group, &sink] {
        for (std::size_t i = 0; i < kPerProducer; ++i) {
          group.run([&sink] { sink.fetch_add(1, std::memory_order_relaxed); });
        }
      });
    }
    group.wait();
  }
  report(state, threads * (kPerProducer + 1), 0);
}
BENCHMARK(BM_Contention_Pool)->Apply(contention_args);

// The naive shared queue: what "replace the single shared queue" would
// replace. Same tasks, same waiting (the caller helps until the count is 0).
class mutex_queue_pool {
 public:
  explicit mutex_queue_pool(std::size_t workers) {
    for (std::size_t i = 0; i < workers; ++i) {
      threads_.emplace_back([this] {
        for (;;) {
          std::function<void()> task;
          {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [&] { return stop_ || !tasks_.empty(); });
            if (tasks_.empty()) return;
            task = std::move(tasks_.front());
            tasks_.pop_front();
          }
          task();
        }
      });
    }
  }
  ~mutex_queue_pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  void post(std::function<void()> task) {
    pending_.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tasks_.push_back([this, task = std::move(task)] {
        task();
        pending_.fetch_sub(1, std::memory_order_acq_rel);
      });
    }
    cv_.notify_one();
  }
  void help_until_done() {
    while (pending_.load(std::memory_order_acquire) != 0) {
      std::function<void()> task;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!tasks_.empty()) {
          task = std::move(tasks_.front());
          tasks_.pop_front();
        }
      }
      if (task) {
        task();
      } else {
        std::this_thread::yield();
      }
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  std::atomic<std::size_t> pending_{0};
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

void BM_Contention_MutexQueue(benchmark::State& state) {
  const auto threads = static_cast<std::size_t>(state.range(0));
  mutex_queue_pool pool(threads - 1);
  std::atomic<std::size_t> sink{0};
  for (auto _ : state) {
    for (std::size_t p = 0; p < threads; ++p) {
      pool.post([&pool, &sink] {
        for (std::size_t i = 0; i < kPerProducer; ++i) {
          pool.post([&sink] { sink.fetch_add(1, std::memory_order_relaxed); });
        }
      });
    }
    pool.help_until_done();
  }
  report(state, threads * (kPerProducer + 1), 0);
}
BENCHMARK(BM_Contention_MutexQueue)->Apply(contention_args);

}  // namespace
}  // namespace strata
