// strata::thread_pool: a fixed set of worker threads fed by one lock-free
// queue (moodycamel::BlockingConcurrentQueue), or, built over an external
// strata::executor (threading/executor.h), no threads of its own: every
// posted task then also posts one executor job that runs one queued task.
//
// Contract
//   * post(t) queues a move-only task; some thread runs it exactly once.
//     Tasks are absl::AnyInvocable<void()>: a callable whose captures fit in
//     16 bytes (two pointers, nothrow-movable) is stored inline, so posting it
//     performs no heap allocation once the queue's blocks are warm (measured
//     by thread_pool_test and thread_pool_benchmark).
//   * Runners are the workers and any thread that calls try_run_one(),
//     directly or through task_group::wait(). With zero workers, tasks run
//     only on such threads (caller-only execution).
//   * Order: FIFO per posting thread, no order between posting threads.
//   * A task posted with post() must not throw. If one does, the pool prints
//     the exception's what() to stderr and calls std::terminate(), whichever
//     thread ran it: an exception has nowhere sensible to go and must not kill
//     a worker silently. Use task_group to propagate exceptions to a waiter.
//   * Destruction runs every task posted before or during destruction
//     (including tasks that running tasks post), then joins the workers.
//     Tasks that the workers have not taken when they stop run on the
//     destroying thread.
//
// Complexity: post and try_run_one are amortized O(1) and lock-free (moodycamel
//   enqueue/dequeue) plus one atomic read-modify-write on a pool-wide counter
//   of sleeping helpers; the mutex is taken only when a helper is asleep.
// Thread-safety: post(), try_run_one() and worker_count() may be called from
//   any thread, including from inside tasks. The destructor must not race
//   with any other call, i.e. no thread may post, wait on a task_group of
//   this pool, or call try_run_one() once destruction has begun (running
//   tasks themselves may keep posting).
// Blocking: post() never blocks. Idle workers block in the queue's semaphore
//   after moodycamel's bounded spin (queue_traits::MAX_SEMA_SPINS). The
//   destructor blocks until all tasks have run.
// Lifetime: the pool must outlive every task_group using it and every task
//   that refers to it.
#ifndef STRATA_THREADING_THREAD_POOL_H_
#define STRATA_THREADING_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "concurrentqueue/blockingconcurrentqueue.h"
#include "threading/executor.h"

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

class task_group;

class thread_pool {
 public:
  using task = absl::AnyInvocable<void()>;

  // std::thread::hardware_concurrency(); 0 if it is unknown.
  static std::size_t default_worker_count() noexcept;

  // Starts `workers` threads; 0 is allowed (tasks then run only on threads
  // calling try_run_one() or waiting on a task_group, and in the destructor).
  explicit thread_pool(std::size_t workers = default_worker_count());
  // Starts no threads: tasks run on `external`'s threads (one job per posted
  // task) and on threads that wait or call try_run_one(). worker_count() is
  // external.concurrency(). `external` must outlive the pool; the destructor
  // waits until every job posted to it has returned.
  explicit thread_pool(executor& external);
  // Either of the two above: `external` if it is not null, else `workers`.
  thread_pool(std::size_t workers, executor* external);
  ~thread_pool();

  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  std::size_t worker_count() const noexcept { return worker_count_; }

  // True when called on one of this pool's worker threads.
  bool on_worker_thread() const noexcept;

  // Queues t. Precondition: t is not empty (checked).
  void post(task t);

  // Runs one queued task on the calling thread if there is one; returns
  // whether it ran a task. Never blocks.
  bool try_run_one();

 private:
  friend class task_group;
  struct worker_context;

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
    explicit queued_task(task&& t) noexcept : fn(std::move(t)) {}
    queued_task(queued_task&& other) noexcept = default;
    queued_task& operator=(queued_task&& other) noexcept = default;
    task fn;
  };
  using queue_type =
      moodycamel::BlockingConcurrentQueue<queued_task, queue_traits>;

  static thread_local worker_context* current_worker_;

  void worker_main();
  void stop_and_join_workers() noexcept;
  bool dequeue(queued_task& t);
  void enqueue(task t);
  // Wakes threads sleeping in help_until_zero() after something they wait
  // for was published (a task queued or a group's count reaching zero).
  void wake_helpers();
  // Runs queued tasks until `pending` is zero; sleeps when the queue is empty.
  void help_until_zero(const std::atomic<std::size_t>& pending);

  // An executor job: runs one queued task, if any is left.
  static void run_external_job(void* pool);
  // Waits until every job posted to external_ has returned.
  void wait_for_external_jobs();

  queue_type queue_;
  executor* external_ = nullptr;
  // Jobs posted to external_ that have not returned yet (guarded for the
  // destructor's wait by external_mutex_).
  std::atomic<std::size_t> external_jobs_{0};
  std::mutex external_mutex_;
  std::condition_variable external_cv_;
  // Helpers (threads in help_until_zero) sleep on this condition variable.
  std::mutex helper_mutex_;
  std::condition_variable helper_cv_;
  std::atomic<std::size_t> sleeping_helpers_{0};
  std::size_t worker_count_ = 0;
  std::vector<std::thread> workers_;
};

}  // namespace strata

#endif  // STRATA_THREADING_THREAD_POOL_H_
