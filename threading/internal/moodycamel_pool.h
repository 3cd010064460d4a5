// strata::threading_internal::moodycamel_pool: strata::thread_pool's design
// with moodycamel::ConcurrentQueue in place of the mutex ring
// (threading/internal/task_queue.h) behind every queue. It exists so that
// //threading:thread_pool_benchmark measures the two queue choices side by
// side in one binary (the Contention, HandOff and JoinLatency groups, rows
// `Pool` and `MoodycamelPool`); Strata itself runs on strata::thread_pool.
//
// Design (moodycamel_pool.cc has the details and the proof)
//   * Worker w owns a ConcurrentQueue with one explicit producer (a
//     ProducerToken made when the pool is built, used by w alone): a task w
//     posts goes there. Any other thread posts to one shared injection
//     queue, through the implicit producer moodycamel keeps per thread.
//   * A worker takes from its own queue, then the injection queue, then
//     steals from the other workers starting at a random victim. Owner and
//     thieves alike dequeue through the owner's producer token
//     (try_dequeue_from_producer), i.e. the oldest task of that queue.
//   * Each queue has a count of the tasks it holds that nobody has claimed
//     (std::atomic, on a cache line of its own). post() enqueues, then
//     increments it; a taker first claims one (a decrement that never goes
//     below zero), then dequeues, so a claimed task is always there. The
//     count is what spinners poll and what a sleeper re-checks before it
//     sleeps; the lock-free queue offers no exact emptiness test of its own.
//   * Spinning, parking and helping waiters are strata::thread_pool's (the
//     same spin limit, spinner cap and wake-up rules), so that a benchmark
//     difference between the two pools is the queues' and the
//     synchronization they need, not a different sleep policy.
//   * ThreadSanitizer: moodycamel orders the reuse of its blocks with
//     std::atomic_thread_fence, which ThreadSanitizer does not model; the
//     tests suppress the resulting reports (moodycamel_tsan_suppressions.cc),
//     where strata::thread_pool needs no suppressions.
//
// Contract (strata::thread_pool's, except as noted)
//   * post(t) queues a non-empty move-only task; some thread runs it exactly
//     once. Runners are the workers and threads calling try_run_one() or
//     help_until_zero(); with zero workers only those.
//   * Order: FIFO per posting thread: one thread's tasks all go to one
//     moodycamel producer sub-queue (a worker's explicit producer, or the
//     poster's implicit producer in the injection queue), which every taker
//     dequeues oldest first. No order between posting threads. Unlike
//     strata::thread_pool, the injection queue does not take tasks of
//     different outside threads in posting order even when one thread posts
//     after another has finished posting: moodycamel picks among producer
//     sub-queues by their size.
//   * A task that throws terminates the program (the message names the
//     exception). Fork-join with exception propagation is not provided:
//     moodycamel_group below is the counting part only.
//   * Destruction runs every task posted before or during destruction
//     (including tasks that running tasks post), then joins the workers.
//   * Allocation: moodycamel allocates blocks of 32 slots and recycles them,
//     so posting a task whose captures fit AnyInvocable's inline buffer
//     allocates nothing once each queue has held as many tasks before.
//
// Complexity: post is one lock-free enqueue plus one read-modify-write of
//   the queue's own count, and reads two pool-wide words; a take is one
//   claim plus one lock-free dequeue. A steal scans up to worker_count()
//   counts.
// Thread-safety: every member may be called from any thread, including from
//   inside tasks, except that the destructor must not race with any call.
// Blocking: post() never blocks except for a wake-up system call; idle
//   workers spin for a bounded time, then park.
// Lifetime: the pool must outlive every task and group referring to it.
#ifndef STRATA_THREADING_INTERNAL_MOODYCAMEL_POOL_H_
#define STRATA_THREADING_INTERNAL_MOODYCAMEL_POOL_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "absl/functional/any_invocable.h"

namespace strata::threading_internal {

class moodycamel_pool {
 public:
  using task = absl::AnyInvocable<void()>;

  // Starts `workers` threads; 0 is allowed (tasks then run only on threads
  // calling try_run_one() or help_until_zero(), and in the destructor).
  explicit moodycamel_pool(std::size_t workers);
  ~moodycamel_pool();

  moodycamel_pool(const moodycamel_pool&) = delete;
  moodycamel_pool& operator=(const moodycamel_pool&) = delete;

  std::size_t worker_count() const noexcept { return worker_count_; }

  // True when called on one of this pool's worker threads.
  bool on_worker_thread() const noexcept;

  // Queues t. Precondition: t is not empty (checked).
  void post(task t);

  // Runs one queued task on the calling thread if there is one; returns
  // whether it ran a task. Never waits for work.
  bool try_run_one();

  // Runs queued tasks until `pending` is zero; when every queue is empty,
  // polls for a bounded time, then sleeps until wake_helpers() or a post.
  void help_until_zero(const std::atomic<std::size_t>& pending);
  // Wakes threads sleeping in help_until_zero(); called after a count they
  // wait on reached zero.
  void wake_helpers();

 private:
  struct state;
  struct worker_context;

  static thread_local worker_context* current_worker_;

  void worker_main(std::size_t index);
  void stop_and_join_workers() noexcept;
  worker_context* own_worker() const noexcept;

  std::unique_ptr<state> state_;
  std::size_t worker_count_ = 0;
};

// Fork-join on a moodycamel_pool, the counting half of strata::task_group:
// run(f) posts f as part of the group, wait() helps until every task run()
// so far (including those the group's tasks add) has finished. f must not
// throw. The destructor waits too.
class moodycamel_group {
 public:
  explicit moodycamel_group(moodycamel_pool& pool) noexcept : pool_(pool) {}
  ~moodycamel_group() { wait(); }

  moodycamel_group(const moodycamel_group&) = delete;
  moodycamel_group& operator=(const moodycamel_group&) = delete;

  template <typename F>
  void run(F&& f) {
    moodycamel_pool::task t(
        [group = this, fn = std::decay_t<F>(std::forward<F>(f))]() mutable {
          {
            // Destroyed before the count drops: a waiter that returns at
            // zero never races with the destruction of f's captures.
            std::decay_t<F> local(std::move(fn));
            local();
          }
          group->finish_one();
        });
    pending_.fetch_add(1, std::memory_order_relaxed);
    pool_.post(std::move(t));
  }

  void wait() {
    if (pending_.load(std::memory_order_acquire) != 0) {
      pool_.help_until_zero(pending_);
    }
  }

 private:
  void finish_one() noexcept {
    // The group may be destroyed as soon as the count reaches zero.
    moodycamel_pool& pool = pool_;
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      pool.wake_helpers();
    }
  }

  moodycamel_pool& pool_;
  std::atomic<std::size_t> pending_{0};
};

}  // namespace strata::threading_internal

#endif  // STRATA_THREADING_INTERNAL_MOODYCAMEL_POOL_H_
