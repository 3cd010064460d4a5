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
//
// The design the work-stealing pool replaced (every thread feeding one shared
// moodycamel::BlockingConcurrentQueue) is kept here as `shared_queue_pool`,
// the baseline of the Contention, HandOff and Idle groups, so that both
// designs are measured by one binary in one run.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"
#include "concurrentqueue/blockingconcurrentqueue.h"
#include "testing/allocation_counter.h"
#include "threading/internal/moodycamel_pool.h"
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

// ---- The shared-queue design, as a baseline. ------------------------------
//
// The shared-queue pool, reduced to what the benchmarks use: workers
// block in one moodycamel::BlockingConcurrentQueue (per-producer sub-queues,
// explicit producer and consumer tokens for workers, 10000 semaphore polls
// before sleeping), and waiters help, then sleep on a condition variable
// woken by every post while one sleeps.
class shared_queue_pool {
 public:
  using task = thread_pool::task;

  explicit shared_queue_pool(std::size_t workers) {
    for (std::size_t i = 0; i < workers; ++i) {
      workers_.emplace_back([this] { work(); });
    }
  }
  ~shared_queue_pool() {
    for (std::size_t i = 0; i < workers_.size(); ++i) queue_.enqueue(task());
    for (std::thread& t : workers_) t.join();
    task t;
    while (queue_.try_dequeue(t)) {
      if (t) t();
    }
  }

  void post(task t) {
    if (current_ != nullptr && current_->pool == this) {
      queue_.enqueue(current_->producer, std::move(t));
    } else {
      queue_.enqueue(std::move(t));
    }
    wake_helpers();
  }

  bool try_run_one() {
    task t;
    const bool own = current_ != nullptr && current_->pool == this;
    if (!(own ? queue_.try_dequeue(current_->consumer, t)
              : queue_.try_dequeue(t))) {
      return false;
    }
    t();
    return true;
  }

  void wake_helpers() {
    if (sleeping_.fetch_add(0, std::memory_order_acq_rel) == 0) return;
    { std::lock_guard<std::mutex> lock(mutex_); }
    cv_.notify_all();
  }

  void help_until_zero(const std::atomic<std::size_t>& pending) {
    while (pending.load(std::memory_order_acquire) != 0) {
      if (try_run_one()) continue;
      std::unique_lock<std::mutex> lock(mutex_);
      sleeping_.fetch_add(1, std::memory_order_acq_rel);
      cv_.wait(lock, [&] {
        return pending.load(std::memory_order_acquire) == 0 ||
               queue_.size_approx() != 0;
      });
      sleeping_.fetch_sub(1, std::memory_order_relaxed);
    }
  }

 private:
  struct traits : moodycamel::ConcurrentQueueDefaultTraits {
    static const int MAX_SEMA_SPINS = 10000;
  };
  struct worker {
    shared_queue_pool* pool;
    moodycamel::ProducerToken producer;
    moodycamel::ConsumerToken consumer;
  };
  static thread_local worker* current_;

  void work() {
    worker self{this, moodycamel::ProducerToken(queue_),
                moodycamel::ConsumerToken(queue_)};
    current_ = &self;
    for (;;) {
      task t;
      queue_.wait_dequeue(self.consumer, t);
      if (!t) break;  // One exit token per worker.
      t();
    }
    current_ = nullptr;
  }

  moodycamel::BlockingConcurrentQueue<task, traits> queue_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<std::size_t> sleeping_{0};
  std::vector<std::thread> workers_;
};

thread_local shared_queue_pool::worker* shared_queue_pool::current_ = nullptr;

// ---- Contention: many threads posting and taking at once. -------------------
//
// The many-core question about the pool: with T threads (T - 1 workers and
// the caller), T producer tasks each post kPerProducer tiny tasks into one
// group while every thread also takes tasks, so posts and takes from all
// threads collide. `Pool` is Strata's work-stealing pool (a producer task
// posts into its worker's own queue; the others steal); `SharedQueue` the
// pool before it (one moodycamel queue object for everyone, above);
// `MutexQueue` the naive shared queue (one mutex, one condition variable, a
// std::deque) doing the same work. Measured at 2, 8, 16 and 64 threads on
// whatever cores there are (oversubscribed beyond them: then it also shows
// the cost of the OS switching threads). Compare per_task across thread
// counts.
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

// The same work on the shared-queue design. Leaf tasks capture one pointer
// (inline, as task_group's leaf tasks are in BM_Contention_Pool).
void BM_Contention_SharedQueue(benchmark::State& state) {
  const auto threads = static_cast<std::size_t>(state.range(0));
  shared_queue_pool pool(threads - 1);
  struct shared {
    shared_queue_pool* pool;
    std::atomic<std::size_t> pending{0};
    std::atomic<std::size_t> sink{0};
    void finish_one() {
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        pool->wake_helpers();
      }
    }
  } run{&pool};
  for (auto _ : state) {
    run.pending.store(threads * (kPerProducer + 1), std::memory_order_relaxed);
    for (std::size_t p = 0; p < threads; ++p) {
      pool.post([r = &run] {
        for (std::size_t i = 0; i < kPerProducer; ++i) {
          r->pool->post([r] {
            r->sink.fetch_add(1, std::memory_order_relaxed);
            r->finish_one();
          });
        }
        r->finish_one();
      });
    }
    pool.help_until_zero(run.pending);
  }
  report(state, threads * (kPerProducer + 1), 0);
}
BENCHMARK(BM_Contention_SharedQueue)->Apply(contention_args);

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

// The same work on Strata's pool design with moodycamel::ConcurrentQueue in
// place of the mutex ring (threading/internal/moodycamel_pool.h): the
// question whether lock-free queues pay off in the per-worker design. The
// producers and the leaves are BM_Contention_Pool's; moodycamel_group counts
// them as task_group does (without task_group's exception capture, which a
// task that does not throw never pays for).
void BM_Contention_MoodycamelPool(benchmark::State& state) {
  using threading_internal::moodycamel_group;
  const auto threads = static_cast<std::size_t>(state.range(0));
  threading_internal::moodycamel_pool pool(threads - 1);
  std::atomic<std::size_t> sink{0};
  for (auto _ : state) {
    moodycamel_group group(pool);
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
BENCHMARK(BM_Contention_MoodycamelPool)->Apply(contention_args);

// ---- Hand-off latency: one task to an idle pool. ----------------------------
//
// A pool of one worker runs a task, so its worker has just run dry; the
// caller then posts one task and spins until it starts. `spinning`: the post
// follows at once, while the worker is still polling for work; `parked`: the
// caller first sleeps 5 ms, long past either design's spin, so the post has
// to wake a sleeping thread (a futex wake-up). The reported time is from just
// before post() to the task's first instruction (manual time).

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <typename Pool>
void hand_off(benchmark::State& state, bool parked) {
  Pool pool(1);
  for (auto _ : state) {
    std::atomic<bool> finished{false};
    pool.post([f = &finished] { f->store(true, std::memory_order_release); });
    while (!finished.load(std::memory_order_acquire)) {
    }
    if (parked) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::atomic<std::int64_t> started{0};
    const std::int64_t posted = now_ns();
    pool.post(
        [s = &started] { s->store(now_ns(), std::memory_order_release); });
    std::int64_t at = 0;
    while ((at = started.load(std::memory_order_acquire)) == 0) {
    }
    state.SetIterationTime(static_cast<double>(at - posted) * 1e-9);
  }
}

void BM_HandOff_Pool_Spinning(benchmark::State& state) {
  hand_off<thread_pool>(state, false);
}
void BM_HandOff_Pool_Parked(benchmark::State& state) {
  hand_off<thread_pool>(state, true);
}
void BM_HandOff_SharedQueue_Spinning(benchmark::State& state) {
  hand_off<shared_queue_pool>(state, false);
}
void BM_HandOff_SharedQueue_Parked(benchmark::State& state) {
  hand_off<shared_queue_pool>(state, true);
}
BENCHMARK(BM_HandOff_Pool_Spinning)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HandOff_Pool_Parked)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HandOff_SharedQueue_Spinning)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HandOff_SharedQueue_Parked)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// The pool's design on moodycamel queues: the same spin and park rules, so
// a difference from BM_HandOff_Pool_* is the queues' and the sleep
// protocol's (a seq_cst count per queue instead of the queue's mutex).
void BM_HandOff_MoodycamelPool_Spinning(benchmark::State& state) {
  hand_off<threading_internal::moodycamel_pool>(state, false);
}
void BM_HandOff_MoodycamelPool_Parked(benchmark::State& state) {
  hand_off<threading_internal::moodycamel_pool>(state, true);
}
BENCHMARK(BM_HandOff_MoodycamelPool_Spinning)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HandOff_MoodycamelPool_Parked)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// ---- Join latency: a waiter woken by the last task of its group. -----------
//
// A pool of one worker runs one task of a group; the caller waits for the
// group only once the task has started (so it cannot run it itself), and
// the task busy-runs for `task_us` microseconds. Reported (manual time):
// from the task's last instruction to the caller's return from the wait,
// the latency a split system's caller pays after its last subtask ends.
// The work-stealing pool's waiter polls for kSpinTime before it
// sleeps; the shared-queue baseline sleeps at once, so a short task ends
// with a condition-variable wake-up. Past the spin (50 us), both sleep.

void busy_for(std::int64_t ns) {
  const std::int64_t until = now_ns() + ns;
  while (now_ns() < until) {
  }
}

struct join_probe {
  std::atomic<bool> started{false};
  std::atomic<std::int64_t> finished_ns{0};
  std::int64_t task_ns = 0;
  void run() {
    started.store(true, std::memory_order_release);
    busy_for(task_ns);
    finished_ns.store(now_ns(), std::memory_order_release);
  }
  void wait_started() const {
    while (!started.load(std::memory_order_acquire)) {
    }
  }
};

void join_latency(benchmark::State& state, thread_pool& pool) {
  for (auto _ : state) {
    join_probe probe;
    probe.task_ns = state.range(0) * 1000;
    task_group group(pool);
    group.run([p = &probe] { p->run(); });
    probe.wait_started();
    group.wait();
    const std::int64_t returned = now_ns();
    state.SetIterationTime(
        static_cast<double>(returned - probe.finished_ns.load()) * 1e-9);
  }
}

void join_latency(benchmark::State& state, shared_queue_pool& pool) {
  for (auto _ : state) {
    join_probe probe;
    probe.task_ns = state.range(0) * 1000;
    struct shared {
      shared_queue_pool* pool;
      join_probe* probe;
      std::atomic<std::size_t> pending{1};
    } run{&pool, &probe};
    pool.post([r = &run] {
      r->probe->run();
      if (r->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        r->pool->wake_helpers();
      }
    });
    probe.wait_started();
    pool.help_until_zero(run.pending);
    const std::int64_t returned = now_ns();
    state.SetIterationTime(
        static_cast<double>(returned - probe.finished_ns.load()) * 1e-9);
  }
}

void BM_JoinLatency_Pool(benchmark::State& state) {
  thread_pool pool(1);
  join_latency(state, pool);
}
void BM_JoinLatency_SharedQueue(benchmark::State& state) {
  shared_queue_pool pool(1);
  join_latency(state, pool);
}
void join_args(benchmark::internal::Benchmark* b) {
  b->ArgName("task_us")->Arg(2)->Arg(10)->Arg(50)->UseManualTime()->Unit(
      benchmark::kMicrosecond);
}
BENCHMARK(BM_JoinLatency_Pool)->Apply(join_args);
BENCHMARK(BM_JoinLatency_SharedQueue)->Apply(join_args);

// The pool's design on moodycamel queues, joined through moodycamel_group
// (the same helping wait, spin and sleep as task_group on thread_pool).
void BM_JoinLatency_MoodycamelPool(benchmark::State& state) {
  threading_internal::moodycamel_pool pool(1);
  for (auto _ : state) {
    join_probe probe;
    probe.task_ns = state.range(0) * 1000;
    threading_internal::moodycamel_group group(pool);
    group.run([p = &probe] { p->run(); });
    probe.wait_started();
    group.wait();
    const std::int64_t returned = now_ns();
    state.SetIterationTime(
        static_cast<double>(returned - probe.finished_ns.load()) * 1e-9);
  }
}
BENCHMARK(BM_JoinLatency_MoodycamelPool)->Apply(join_args);

// ---- Idle CPU: what a pool burns between bursts of work. --------------------
//
// After a burst (T - 1 workers and the caller run 1000 tiny tasks; for the
// `SpinOnly` variants, a single task on one worker), the caller sleeps
// 100 ms; the process CPU time burnt meanwhile is `idle_cpu_us` per sleep.
// Workers that spin and then park burn about (spinning workers) x (spin
// duration): SpinOnly measures one worker's spin, i.e. the spin duration in
// CPU time.

double process_cpu_us() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 +
         static_cast<double>(t.tv_nsec) / 1e3;
}

void burst(thread_pool& pool, std::size_t tasks) {
  std::atomic<std::size_t> sink{0};
  task_group group(pool);
  for (std::size_t i = 0; i < tasks; ++i) {
    group.run([s = &sink] { s->fetch_add(1, std::memory_order_relaxed); });
  }
  group.wait();
}

void burst(shared_queue_pool& pool, std::size_t tasks) {
  struct shared {
    shared_queue_pool* pool;
    std::atomic<std::size_t> pending;
  } run{&pool, {tasks}};
  for (std::size_t i = 0; i < tasks; ++i) {
    pool.post([r = &run] {
      if (r->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        r->pool->wake_helpers();
      }
    });
  }
  pool.help_until_zero(run.pending);
}

template <typename Pool>
void idle_after_burst(benchmark::State& state, std::size_t workers,
                      std::size_t tasks) {
  Pool pool(workers);
  double idle_us = 0;
  for (auto _ : state) {
    burst(pool, tasks);
    const double before = process_cpu_us();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    idle_us += process_cpu_us() - before;
  }
  state.counters["idle_cpu_us"] =
      idle_us / static_cast<double>(state.iterations());
}

void BM_Idle_Pool(benchmark::State& state) {
  idle_after_burst<thread_pool>(state, state.range(0) - 1, 1000);
}
void BM_Idle_SharedQueue(benchmark::State& state) {
  idle_after_burst<shared_queue_pool>(state, state.range(0) - 1, 1000);
}
// The floor of the method: a pool without workers (the burst runs on the
// caller), so whatever this burns is the sleeping caller and the clock.
void BM_Idle_NoWorkers(benchmark::State& state) {
  idle_after_burst<thread_pool>(state, 0, 1000);
}
void BM_Idle_Pool_SpinOnly(benchmark::State& state) {
  idle_after_burst<thread_pool>(state, 1, 1);
}
void BM_Idle_SharedQueue_SpinOnly(benchmark::State& state) {
  idle_after_burst<shared_queue_pool>(state, 1, 1);
}
void idle_args(benchmark::internal::Benchmark* b) {
  b->Arg(2)->Arg(8)->Arg(64)->Iterations(5)->UseRealTime()->Unit(
      benchmark::kMillisecond);
}
BENCHMARK(BM_Idle_Pool)->Apply(idle_args);
BENCHMARK(BM_Idle_SharedQueue)->Apply(idle_args);
BENCHMARK(BM_Idle_NoWorkers)
    ->Iterations(5)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Idle_Pool_SpinOnly)
    ->Iterations(5)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Idle_SharedQueue_SpinOnly)
    ->Iterations(5)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata
