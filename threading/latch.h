// strata::latch: a count-down latch that can be re-armed.
//
// Contract
//   * count_down(n) subtracts n from the count; the call that brings it to
//     zero wakes every waiter. Counting below zero is a bug caught by
//     STRATA_CHECK.
//   * wait() blocks (no spinning) until the count is zero; try_wait() never
//     blocks. execute_and_wait_until_zero(f) runs f on the calling thread,
//     then waits.
//   * reset(n) re-arms a latch whose count is zero, so a latch can be reused
//     every frame without allocating.
//
// Complexity: count_down is one lock-free compare-and-swap unless it is the
//   decrement that reaches zero, which also locks a mutex and notifies.
//   wait/try_wait are O(1) plus the blocking time.
// Thread-safety: count_down, wait and try_wait may be called concurrently
//   from any threads. reset() must not race with any other member call.
// Blocking: wait() and execute_and_wait_until_zero() block the calling thread
//   and do not run pool tasks while they wait. Inside a thread_pool task, wait
//   on a task_group instead (it helps run queued tasks); a task that blocks
//   on a latch whose count is held by tasks still queued behind it waits
//   forever when no other thread is free to run them.
// Lifetime: once wait() returns, or try_wait() returns true, no other thread
//   touches the latch any more (given that every count_down has returned or
//   is the zeroing one), so the latch may be destroyed immediately, e.g. when
//   it lives on the waiter's stack.
//
// Why not std::latch: it cannot be re-armed, and libstdc++'s version notifies
// through the atomic after the final decrement, which leaves no clean rule for
// when the waiter may destroy it. Here the zeroing decrement happens while
// holding the mutex and the notification is sent before unlocking; waiters
// only return after acquiring that mutex, so "wait() returned" implies "the
// last count_down is done with the object". The other decrements stay
// lock-free (a CAS that never reaches zero), so many threads counting down
// one latch (the tasks of a fork-join, say) do not serialize on a mutex.
//
// Lock handling stays inside the type: callers pass a function
// (execute_and_wait_until_zero) and never lock anything themselves.
#ifndef STRATA_THREADING_LATCH_H_
#define STRATA_THREADING_LATCH_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <utility>

namespace strata {

class latch {
 public:
  explicit latch(std::size_t count) noexcept : count_(count) {}

  latch(const latch&) = delete;
  latch& operator=(const latch&) = delete;

  // Precondition: n <= the current count (checked).
  void count_down(std::size_t n = 1) noexcept;

  // True once the count is zero. Never blocks for long: it may briefly take
  // the mutex so that a true answer also means the zeroing thread is done.
  bool try_wait() const noexcept;

  // Blocks until the count is zero.
  void wait() const;

  // Re-arms the latch. Precondition: nobody is waiting or counting down
  // (typically: after wait() returned and before handing it out again).
  void reset(std::size_t count) noexcept;

  // Runs f (which typically hands out the work that counts the latch down),
  // then blocks until the count is zero. f runs WITHOUT the mutex held, unlike
  // the seed's version: work that finishes synchronously inside f would
  // otherwise deadlock on the zeroing count_down. If f throws, the exception
  // propagates without waiting; f must not throw after giving the latch to
  // other threads.
  template <typename F>
  void execute_and_wait_until_zero(F&& f) {
    std::forward<F>(f)();
    wait();
  }

  // For diagnostics and tests only: the value may be stale immediately.
  std::size_t count_approx() const noexcept {
    return count_.load(std::memory_order_relaxed);
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  std::atomic<std::size_t> count_;
};

}  // namespace strata

#endif  // STRATA_THREADING_LATCH_H_
