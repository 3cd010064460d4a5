#include "threading/thread_pool.h"

#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "base/check.h"
#include "concurrentqueue/blockingconcurrentqueue.h"

#if defined(__SANITIZE_THREAD__)
#define STRATA_THREADING_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STRATA_THREADING_TSAN 1
#endif
#endif
#ifdef STRATA_THREADING_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace strata {

namespace {

// An idle worker polls the semaphore this many times (a few microseconds)
// before blocking in the kernel. Measured with thread_pool_benchmark on 2
// cores: 10000 (moodycamel's default) gives ~0.35 us per fork-join of 2,
// 0 or 1000 spins ~3.5 us (a futex wake-up per task). Helpers waiting in a
// task_group do not spin: a 2000-poll spin there measured slower.
struct queue_traits : moodycamel::ConcurrentQueueDefaultTraits {
  static const int MAX_SEMA_SPINS = 10000;
};

// moodycamel reuses a queue slot after seeing, through relaxed loads and
// std::atomic_thread_fence, that its consumer is done with it.
// ThreadSanitizer does not model fences, so it would report the consumer's
// last access to the old task and the producer's construction of the next
// one as a race. Under TSAN this empty base declares that ordering: the
// slot's destructor (run by the consumer before it marks the slot empty)
// releases the slot's address and the constructor of the next occupant
// acquires it. Elsewhere it compiles to nothing. (Another TSAN false
// positive, in moodycamel's block free list, has no hook of ours to annotate
// and is suppressed instead: see tsan_suppressions.cc.)
struct slot_sync {
#ifdef STRATA_THREADING_TSAN
  slot_sync() noexcept { __tsan_acquire(this); }
  slot_sync(const slot_sync&) noexcept : slot_sync() {}
  slot_sync& operator=(const slot_sync&) noexcept { return *this; }
  ~slot_sync() { __tsan_release(this); }
#endif
};

// The queue's element type.
struct queued_task : slot_sync {
  queued_task() noexcept = default;
  explicit queued_task(thread_pool::task&& t) noexcept : fn(std::move(t)) {}
  queued_task(queued_task&& other) noexcept = default;
  queued_task& operator=(queued_task&& other) noexcept = default;
  thread_pool::task fn;
};

using queue_type =
    moodycamel::BlockingConcurrentQueue<queued_task, queue_traits>;

}  // namespace

struct thread_pool::state {
  queue_type queue;
  std::mutex external_mutex;
  std::condition_variable external_cv;
  // Helpers (threads in help_until_zero) sleep on this condition variable.
  std::mutex helper_mutex;
  std::condition_variable helper_cv;
  std::vector<std::thread> workers;
};

// Per-worker state. The tokens make the worker's own enqueues and dequeues
// use moodycamel's faster explicit-producer / consumer-token paths.
//
// Shutdown uses empty tasks as exit tokens, one per worker. A worker leaves
// its loop after consuming one. A worker that is helping inside a nested
// task_group::wait() may consume a token there; it then finishes its current
// task first, and hands back any extra tokens when it leaves, so each worker
// ends up consuming exactly one and no token is left in the queue.
struct thread_pool::worker_context {
  thread_pool* pool;
  moodycamel::ProducerToken producer;
  moodycamel::ConsumerToken consumer;
  std::size_t exit_tokens = 0;
};

thread_local thread_pool::worker_context* thread_pool::current_worker_ =
    nullptr;

namespace {

// Runs t and releases its captures right away (they may own resources the
// poster waits for, and a worker may otherwise sit on them until its next
// task).
void run_task(thread_pool::task& t) noexcept {
  try {
    t();
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "strata::thread_pool: a task passed to post() threw: %s "
                 "(use task_group to propagate exceptions); terminating\n",
                 e.what());
    std::terminate();
  } catch (...) {
    std::fprintf(stderr,
                 "strata::thread_pool: a task passed to post() threw a "
                 "non-std::exception (use task_group to propagate "
                 "exceptions); terminating\n");
    std::terminate();
  }
  t = nullptr;
}

}  // namespace

std::size_t thread_pool::default_worker_count() noexcept {
  return std::thread::hardware_concurrency();
}

thread_pool::thread_pool(std::size_t workers)
    : state_(std::make_unique<state>()), worker_count_(workers) {
  state_->workers.reserve(workers);
  try {
    for (std::size_t i = 0; i < workers; ++i) {
      state_->workers.emplace_back([this] { worker_main(); });
    }
  } catch (...) {
    // The destructor will not run; stop the workers that did start.
    stop_and_join_workers();
    throw;
  }
}

thread_pool::thread_pool(executor& external) : thread_pool(0, &external) {}

thread_pool::thread_pool(std::size_t workers, executor* external)
    : thread_pool(external != nullptr ? 0 : workers) {
  if (external != nullptr) {
    external_ = external;
    worker_count_ = external->concurrency();
  }
}

thread_pool::~thread_pool() {
  STRATA_CHECK(!on_worker_thread(),
               "a thread_pool must not be destroyed by one of its own tasks");
  stop_and_join_workers();
  // What the workers did not take before their exit tokens (FIFO holds per
  // posting thread only) and whatever running tasks posted afterwards. Tasks
  // run here may post or wait on groups; both end up in this same loop. With
  // an executor, its jobs may still be running tasks (which may post more):
  // repeat until no job is left and the queue is empty.
  for (;;) {
    queued_task t;
    while (state_->queue.try_dequeue(t)) {
      if (t.fn) run_task(t.fn);
    }
    if (external_ == nullptr) break;
    wait_for_external_jobs();
    if (state_->queue.size_approx() == 0) break;
  }
}

void thread_pool::run_external_job(void* pool) {
  auto* self = static_cast<thread_pool*>(pool);
  self->try_run_one();
  // The decrement happens under the mutex so that the destructor, which
  // waits under it, cannot free the pool between the decrement and the
  // notification.
  std::lock_guard<std::mutex> lock(self->state_->external_mutex);
  if (self->external_jobs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    self->state_->external_cv.notify_all();
  }
}

void thread_pool::wait_for_external_jobs() {
  std::unique_lock<std::mutex> lock(state_->external_mutex);
  state_->external_cv.wait(lock, [&] {
    return external_jobs_.load(std::memory_order_acquire) == 0;
  });
}

void thread_pool::stop_and_join_workers() noexcept {
  for (std::size_t i = 0; i < state_->workers.size(); ++i) enqueue(task());
  for (std::thread& worker : state_->workers) worker.join();
  state_->workers.clear();
}

bool thread_pool::on_worker_thread() const noexcept {
  return current_worker_ != nullptr && current_worker_->pool == this;
}

void thread_pool::worker_main() {
  worker_context self{this, moodycamel::ProducerToken(state_->queue),
                      moodycamel::ConsumerToken(state_->queue)};
  current_worker_ = &self;
  queued_task t;
  while (self.exit_tokens == 0) {
    state_->queue.wait_dequeue(self.consumer, t);
    if (t.fn) {
      run_task(t.fn);
    } else {
      ++self.exit_tokens;
    }
  }
  for (; self.exit_tokens > 1; --self.exit_tokens) enqueue(task());
  current_worker_ = nullptr;
}

void thread_pool::enqueue(task t) {
  worker_context* self = current_worker_;
  const bool queued =
      self != nullptr && self->pool == this
          ? state_->queue.enqueue(self->producer, queued_task(std::move(t)))
          : state_->queue.enqueue(queued_task(std::move(t)));
  STRATA_CHECK(queued, "thread_pool: out of memory while queueing a task");
}

void thread_pool::post(task t) {
  STRATA_CHECK(t != nullptr, "thread_pool::post needs a non-empty task");
  enqueue(std::move(t));
  wake_helpers();
  if (external_ != nullptr) {
    external_jobs_.fetch_add(1, std::memory_order_relaxed);
    external_->post({&thread_pool::run_external_job, this}, 1);
  }
}

bool thread_pool::try_run_one() {
  queued_task t;
  worker_context* const self = current_worker_;
  const bool own_worker = self != nullptr && self->pool == this;
  while (own_worker ? state_->queue.try_dequeue(self->consumer, t)
                    : state_->queue.try_dequeue(t)) {
    if (t.fn) {
      run_task(t.fn);
      return true;
    }
    if (own_worker) {
      // An exit token met while helping: keep it, leave after the current
      // task returns to the worker loop.
      ++self->exit_tokens;
      continue;
    }
    // Only workers may consume exit tokens. Reaching here means another
    // thread is using the pool while it is being destroyed (a contract
    // violation); put the token back so a worker still gets it.
    enqueue(task());
    return false;
  }
  return false;
}

void thread_pool::wake_helpers() {
  // A read-modify-write rather than a load: together with the one by which a
  // helper registers, it totally orders "publish, then look for sleepers"
  // against "register, then look for work", so one of the two sides sees the
  // other. (A seq_cst fence would do the same, but ThreadSanitizer cannot
  // model fences and GCC rejects them under -fsanitize=thread.)
  if (sleeping_helpers_.fetch_add(0, std::memory_order_acq_rel) == 0) return;
  // A registered helper holds the mutex from registering until it sleeps, so
  // taking it here guarantees the helper is asleep (or already gone) before
  // the notification.
  { std::lock_guard<std::mutex> lock(state_->helper_mutex); }
  state_->helper_cv.notify_all();
}

void thread_pool::help_until_zero(const std::atomic<std::size_t>& pending) {
  while (pending.load(std::memory_order_acquire) != 0) {
    if (try_run_one()) continue;
    std::unique_lock<std::mutex> lock(state_->helper_mutex);
    sleeping_helpers_.fetch_add(1, std::memory_order_acq_rel);
    // Woken by wake_helpers() when a task is posted or a group finishes. A
    // task handed straight to a blocked worker does not count as queued
    // (size_approx() stays 0), so helpers keep sleeping while workers take
    // the work; they never spin on an empty queue.
    state_->helper_cv.wait(lock, [&] {
      return pending.load(std::memory_order_acquire) == 0 ||
             state_->queue.size_approx() != 0;
    });
    sleeping_helpers_.fetch_sub(1, std::memory_order_relaxed);
  }
}

}  // namespace strata
