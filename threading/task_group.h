// strata::task_group and strata::parallel_for: fork-join on a thread_pool
// that cannot deadlock on tasks queued behind the waiter.
//
// Contract
//   * run(f) posts f to the pool as part of the group; wait() returns once
//     every task run() so far has finished, including tasks that group tasks
//     added with run() while the group was running (so a task may spawn its
//     successors into the group, as the atomic-counter scheduler does).
//   * wait() helps: while the group is unfinished it runs queued tasks of the
//     pool (any group's, or plain posted ones) on the calling thread; when
//     the queues are empty it polls for a bounded time (thread_pool.h: at
//     most kSpinTime, 20 us), then sleeps on a condition variable. It is
//     woken when the group finishes or when new work is posted. So nested
//     fork-join (a task that runs a group and waits) completes with any
//     number of workers, including one and zero. Each poll over empty
//     queues is bounded by kSpinTime; no unbounded busy-waiting.
//   * Exceptions: the first exception thrown by a task of the group is kept
//     (later ones are dropped) and rethrown by wait() after every task of the
//     group has finished. The other tasks still run (no cancellation). The
//     group and the pool stay usable.
//   * The destructor waits (helping) for tasks still running, so an exception
//     unwinding past a group never leaves tasks referring to a dead frame; an
//     exception nobody retrieved with wait() is then discarded.
//   * parallel_for(pool, n, f) calls f(i) for every i in [0, n), each index
//     once: indices are claimed from a shared counter. It posts up to
//     min(n - 1, workers) helper tasks, runs f(0) on the caller, then claims
//     and runs indices itself until none is left, and only then waits for
//     the ones helpers are running. So the caller never helps with
//     unrelated queued work while indices of its own wait in the queue (a
//     busy pool leaves them all to the caller), and a helper that finds
//     nothing to claim returns at once. f is called concurrently through
//     one shared reference (it must be safe to call from several threads).
//     With n <= 1 or a pool without workers it runs the calls in order on
//     the caller. Same exception rule as task_group: every index runs, and
//     the first exception is rethrown.
//
// Complexity: run() is one pool post plus one relaxed atomic increment; each
//   task adds one atomic decrement. No heap allocation per task when f's
//   captures fit in 8 bytes (the task's two-pointer inline buffer holds the
//   group pointer plus f); parallel_for never allocates per task (each task
//   captures a pointer to a stack frame). The group itself is a
//   small object meant to live on the caller's stack.
// Thread-safety: run() may be called from any thread, including from the
//   group's own tasks. wait() must be called by one thread at a time, and no
//   thread outside the group's tasks may call run() concurrently with a
//   wait() that could already have seen the group finished.
// Blocking: wait() blocks until the group is done, running other tasks in the
//   meantime. A wait may therefore return later than the group finished, by
//   the length of an unrelated task it picked up. Tasks must not block on
//   anything other than task_group::wait (e.g. a latch or mutex held by a
//   task further down the same thread's stack) or they can still deadlock.
// Lifetime: the pool must outlive the group. The group must outlive its
//   tasks: wait() before the group goes out of scope (the destructor waits
//   too).
#ifndef STRATA_THREADING_TASK_GROUP_H_
#define STRATA_THREADING_TASK_GROUP_H_

#include <cstddef>
#include <exception>
#include <type_traits>
#include <utility>

#include "base/internal/atomic_value.h"
#include "base/internal/standard_parts.h"
#include "threading/thread_pool.h"

namespace strata {

namespace task_group_internal {
// parallel_for's fork-join, compiled once (task_group.cc) instead of once per
// body: the body is reached through `call`, one indirect call per index,
// where an index is a whole piece of work (a subtask, a system), never an
// element of an inner loop.
using index_call = void (*)(void* body, std::size_t index);
void parallel_for_indices(thread_pool& pool, std::size_t n, void* body,
                          index_call call);
}  // namespace task_group_internal

class task_group {
 public:
  explicit task_group(thread_pool& pool) noexcept : pool_(pool) {}
  ~task_group();

  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;

  // Posts f() to the pool as part of this group. F must be move-constructible
  // and callable as f().
  template <typename F>
  void run(F&& f);

  // Waits for every task of the group, running queued pool tasks meanwhile;
  // then rethrows the first exception a task of the group threw, if any.
  void wait();

  thread_pool& pool() const noexcept { return pool_; }

 private:
  friend void task_group_internal::parallel_for_indices(
      thread_pool& pool, std::size_t n, void* body,
      task_group_internal::index_call call);

  // Runs fn and then marks one task finished. fn is moved into a local and
  // destroyed before the count drops, so a waiter that returns at zero never
  // races with the destruction of f's captures.
  template <typename Fn>
  void invoke_and_finish(Fn& fn) noexcept {
    try {
      Fn local(std::move(fn));
      local();
    } catch (...) {
      record_current_exception();
    }
    finish_one();
  }

  void record_current_exception() noexcept;
  void finish_one() noexcept;

  thread_pool& pool_;
  base_internal::atomic_value<std::size_t> pending_{0};
  base_internal::atomic_value<bool> failed_{false};
  // Written once by the first task that fails (the one that sets failed_),
  // read by wait() after pending_ reached zero, which orders the two.
  std::exception_ptr error_;
};

template <typename F>
void task_group::run(F&& f) {
  using fn_type = std::decay_t<F>;
  static_assert(std::is_invocable_v<fn_type&>,
                "task_group::run needs a callable taking no arguments");
  static_assert(std::is_move_constructible_v<fn_type>,
                "task_group::run needs a move-constructible callable");
  // Build the task before counting it, so a throwing allocation or copy
  // leaves the count unchanged.
  thread_pool::task t(
      [group = this, fn = fn_type(std::forward<F>(f))]() mutable {
        group->invoke_and_finish(fn);
      });
  pending_.fetch_add(1, base_internal::memory_order::relaxed);
  pool_.post(std::move(t));
}

template <typename F>
void parallel_for(thread_pool& pool, std::size_t n, F&& f) {
  static_assert(std::is_invocable_v<F&, std::size_t>,
                "parallel_for needs a callable taking a std::size_t index");
  using body_type = std::remove_reference_t<F>;
  task_group_internal::parallel_for_indices(
      pool, n,
      const_cast<void*>(static_cast<const void*>(__builtin_addressof(f))),
      [](void* body, std::size_t index) {
        (*static_cast<body_type*>(body))(index);
      });
}

}  // namespace strata

#endif  // STRATA_THREADING_TASK_GROUP_H_
