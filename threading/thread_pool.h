// strata::thread_pool: a fixed set of worker threads, each with its own task
// queue, that steal from one another when they run dry; or, built over an
// external strata::executor (threading/executor.h), no threads of its own:
// every posted task then also posts one executor job that runs one queued
// task.
//
// Design (threading/thread_pool.cc has the details and the proofs)
//   * Every worker owns a FIFO (threading/internal/task_queue.h, a small
//     mutex-guarded ring on cache lines of its own). A task posted by a
//     worker goes to that worker's queue; a task posted by any other thread
//     (the thread calling step(), a thread helping in task_group::wait, an
//     executor's thread) goes to one shared injection queue.
//   * A worker looks in its own queue, then the injection queue, then steals
//     from the other workers, starting at a random victim. Owner and thieves
//     alike take the OLDEST task of a queue, so the scheduler's
//     highest-ranked posted system is the first taken, wherever it is taken.
//   * A worker that finds nothing spins: it polls for work (2 pause
//     instructions between polls, and a sched_yield only when the pool has
//     more threads than the machine has cores) for at most kSpinTime
//     (thread_pool.cc: 20 us on the steady clock), then parks on a condition
//     variable of its own. At most max(1, min(workers, cores) / 2) workers
//     spin at once; the others park at once, so spinners hold at most half
//     the cores (one at least). post() wakes one parked worker only when no
//     worker is spinning. Measured in thread_pool_benchmark (HandOff/*,
//     Idle/*).
//   * A thread waiting for a task_group (help_until_zero) runs queued tasks;
//     when none is left it polls the same way for at most kSpinTime, until
//     the group finishes or a task is queued, then sleeps on the helpers'
//     condition variable. The last subtask of a split system usually ends
//     within microseconds of the caller's own, so the caller does not pay
//     a wake-up on the step's critical path (JoinLatency/*).
//   * Why a mutex ring and not moodycamel::ConcurrentQueue, the queue the
//     design card names: the same per-worker design on moodycamel's
//     lock-free queues (threading/internal/moodycamel_pool.h, kept as a
//     baseline) is measured beside this pool in thread_pool_benchmark, the
//     `MoodycamelPool` rows of Contention/*, HandOff/* and JoinLatency/*
//     (BENCHMARKS.md, "The pool's design on moodycamel queues"). It is no
//     faster per task at 2 and 64 threads and slower at 8 and 16, and
//     hand-off and join cost the same within the runs' spread: a worker's
//     own queue is uncontended, so the lock-free queue saves nothing on the
//     common path, while per-producer sub-queues make thieves and dry
//     workers scan more. And it costs what this pool does not: a sleep
//     protocol on sequentially consistent counts instead of the queues'
//     mutexes, and ThreadSanitizer suppressions for the fences inside
//     moodycamel's queue, which ThreadSanitizer does not model.
//
// Contract
//   * post(t) queues a move-only task; some thread runs it exactly once.
//     Tasks are move-only void() callables (threading/internal/pool_task.h):
//     one whose captures fit in two pointers and whose move cannot throw is
//     stored inline, so posting it
//     performs no heap allocation once the queue it goes to has held as many
//     tasks before (rings grow by doubling and keep their capacity; measured
//     by thread_pool_test and thread_pool_benchmark).
//   * Runners are the workers and any thread that calls try_run_one(),
//     directly or through task_group::wait(). With zero workers, tasks run
//     only on such threads (caller-only execution).
//   * Order: FIFO per posting thread: the tasks one thread posts are taken
//     (started, not necessarily finished) in the order it posted them, since
//     they all go to one queue from which every taker takes the oldest. No
//     order between posting threads. The owner of a queue takes oldest
//     first too, not newest as classic work-stealing deques do: the
//     atomic-counter scheduler posts ready systems longest-path first and
//     keeps the next system of a chain on the posting thread without a
//     queue, so a newest-first owner would run the least urgent system
//     first, while the cache locality it buys is already had.
//   * A task posted with post() must not throw. If one does, the pool prints
//     the exception's what() to stderr and calls std::terminate(), whichever
//     thread ran it: an exception has nowhere sensible to go and must not kill
//     a worker silently. Use task_group to propagate exceptions to a waiter.
//   * Destruction runs every task posted before or during destruction
//     (including tasks that running tasks post), then joins the workers.
//     Workers run what they can find before they stop; anything left then
//     runs on the destroying thread.
//
// Complexity: post and try_run_one are O(1) (amortized over ring growth);
//   posting locks one queue (the poster's own, uncontended unless a thief is
//   in it) and reads two pool-wide words that are written only when a thread
//   goes to sleep or wakes; the only other shared writes happen when a
//   worker runs dry (steals, search bookkeeping). A steal scans up to
//   worker_count() queues, reading a per-queue hint and locking only a
//   non-empty one.
// Thread-safety: post(), try_run_one() and worker_count() may be called from
//   any thread, including from inside tasks. The destructor must not race
//   with any other call, i.e. no thread may post, wait on a task_group of
//   this pool, or call try_run_one() once destruction has begun (running
//   tasks themselves may keep posting).
// Blocking: post() never waits for work; it may take a mutex for the length
//   of a few moves, and a wake-up system call when it wakes a parked worker
//   or a sleeping helper. Idle workers spin for at most kSpinTime, then
//   block; idle pools burn no CPU. The destructor blocks until all tasks
//   have run.
// Lifetime: the pool must outlive every task_group using it and every task
//   that refers to it.
#ifndef STRATA_THREADING_THREAD_POOL_H_
#define STRATA_THREADING_THREAD_POOL_H_

#include <cstddef>

#include "base/internal/atomic_value.h"
#include "base/internal/owned_ptr.h"
#include "threading/executor.h"
#include "threading/internal/pool_task.h"

namespace strata {

class task_group;

class thread_pool {
 public:
  using task = threading_internal::pool_task;

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
  // whether it ran a task. Never waits for work (it looks in every queue
  // once, waiting only for a queue's lock).
  bool try_run_one();

 private:
  friend class task_group;
  // The queues, the workers, the sleep bookkeeping and the helpers' mutex
  // and condition variable, defined in thread_pool.cc: they are the pool's
  // business, and keeping <thread>, <mutex> and <condition_variable> out of
  // this header keeps them out of every translation unit that includes a
  // context.
  struct state;
  struct worker_context;

  static thread_local worker_context* current_worker_;

  void worker_main(std::size_t index);
  void stop_and_join_workers() noexcept;
  // The calling thread's worker context if it is one of this pool's workers.
  worker_context* own_worker() const noexcept;
  // Wakes threads sleeping in help_until_zero() after a group's count
  // reached zero. Orders that publication against a helper's registration
  // with a read-modify-write (thread_pool.cc says why).
  void wake_helpers();
  // Runs queued tasks until `pending` is zero; when every queue is empty,
  // polls for at most kSpinTime, then sleeps.
  void help_until_zero(const base_internal::atomic_value<std::size_t>& pending);

  // An executor job: runs one queued task, if any is left.
  static void run_external_job(void* pool);
  // Waits until every job posted to external_ has returned.
  void wait_for_external_jobs();

  base_internal::owned_ptr<state> state_;
  executor* external_ = nullptr;
  // Jobs posted to external_ that have not returned yet (guarded for the
  // destructor's wait by the state's external mutex).
  base_internal::atomic_value<std::size_t> external_jobs_{0};
  std::size_t worker_count_ = 0;
};

}  // namespace strata

#endif  // STRATA_THREADING_THREAD_POOL_H_
