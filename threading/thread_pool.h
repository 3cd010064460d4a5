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
#include <cstddef>
#include <memory>

#include "absl/functional/any_invocable.h"
#include "threading/executor.h"

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
  // The queue, the workers and the helpers' mutex and condition variable,
  // defined in thread_pool.cc: they are the pool's business, and keeping
  // moodycamel's queue, <thread> and <condition_variable> out of this header
  // keeps them out of every translation unit that includes a context.
  struct state;
  struct worker_context;

  static thread_local worker_context* current_worker_;

  void worker_main();
  void stop_and_join_workers() noexcept;
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

  std::unique_ptr<state> state_;
  executor* external_ = nullptr;
  // Jobs posted to external_ that have not returned yet (guarded for the
  // destructor's wait by the state's external mutex).
  std::atomic<std::size_t> external_jobs_{0};
  std::atomic<std::size_t> sleeping_helpers_{0};
  std::size_t worker_count_ = 0;
};

}  // namespace strata

#endif  // STRATA_THREADING_THREAD_POOL_H_
