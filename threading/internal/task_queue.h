// strata::threading_internal::task_queue: the FIFO of tasks behind one
// worker of strata::thread_pool (and the pool's injection queue). Machinery
// of threading/thread_pool.cc; users never name it.
//
// Contract
//   * push(t) appends t; pop(out) / try_pop(out) move the oldest task into
//     `out` (oldest-first for every taker, owner and thieves alike: the
//     pool's "FIFO per posting thread" and the scheduler's rank order rest
//     on it).
//   * try_pop() never waits for the lock: a thief that finds the queue busy
//     reports `contended` and moves on to another victim instead of queueing
//     behind the owner.
//   * looks_empty() is a hint read without the lock (one relaxed load of a
//     counter written under it): a stale answer only costs a wasted lock or a
//     later look. empty_now() takes the lock and is exact at that moment; the
//     pool's sleepers use it for the re-check that rules out lost wake-ups
//     (the mutex orders their check against a concurrent push, see
//     thread_pool.cc).
//
// Why a mutex-guarded ring and not a lock-free (Chase-Lev) deque: the lock
// is almost never contended (the owner pushes and pops its own queue; a
// thief comes only when it has nothing else, and backs off with try_lock),
// an uncontended std::mutex is two atomic read-modify-writes, and the
// structure is short enough to check by reading. ThreadSanitizer models
// every synchronization in it, where a Chase-Lev deque needs fences that it
// cannot model.
//
// Complexity: push and pop are O(1), amortized over growth: the ring doubles
//   when full and keeps its capacity, so a queue that has held n tasks never
//   allocates again for n or fewer (pushing a task whose captures fit
//   the task's inline buffer then allocates nothing).
// Thread-safety: every member may be called from any thread concurrently.
// Blocking: push, pop and empty_now block only on the mutex, held for a few
//   moves; try_pop and looks_empty never block.
// Lifetime: destroying the queue destroys any task still in it.
#ifndef STRATA_THREADING_INTERNAL_TASK_QUEUE_H_
#define STRATA_THREADING_INTERNAL_TASK_QUEUE_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>

#include "threading/internal/pool_task.h"

namespace strata::threading_internal {

// Aligned to a cache line so that two queues (two workers') never share one:
// the owner's pushes would otherwise invalidate a neighbour's lock word.
class alignas(64) task_queue {
 public:
  using task = pool_task;

  enum class pop_result { taken, empty, contended };

  explicit task_queue(std::size_t initial_capacity = 64)
      : slots_(std::make_unique<task[]>(round_up(initial_capacity))),
        mask_(round_up(initial_capacity) - 1) {}

  task_queue(const task_queue&) = delete;
  task_queue& operator=(const task_queue&) = delete;

  void push(task&& t) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (count_ == mask_ + 1) grow();
    slots_[(head_ + count_) & mask_] = std::move(t);
    publish_count(count_ + 1);
  }

  // Takes the oldest task; false if the queue is empty.
  bool pop(task& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    return take_oldest(out);
  }

  // As pop(), but gives up at once if another thread holds the lock.
  pop_result try_pop(task& out) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return pop_result::contended;
    return take_oldest(out) ? pop_result::taken : pop_result::empty;
  }

  bool looks_empty() const noexcept {
    return size_hint_.load(std::memory_order_relaxed) == 0;
  }

  bool empty_now() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_ == 0;
  }

  // For tests: the ring's current capacity.
  std::size_t capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return mask_ + 1;
  }

 private:
  static std::size_t round_up(std::size_t n) noexcept {
    std::size_t capacity = 1;
    while (capacity < n) capacity *= 2;
    return capacity;
  }

  // Called with mutex_ held.
  bool take_oldest(task& out) {
    if (count_ == 0) return false;
    task& slot = slots_[head_];
    out = std::move(slot);  // leaves the slot empty
    head_ = (head_ + 1) & mask_;
    publish_count(count_ - 1);
    return true;
  }

  // Called with mutex_ held. The hint is only ever written here, under the
  // lock, so it equals count_ whenever the lock is free.
  void publish_count(std::size_t count) noexcept {
    count_ = count;
    size_hint_.store(count, std::memory_order_relaxed);
  }

  // Called with mutex_ held and the ring full: doubles it, oldest first.
  void grow() {
    const std::size_t capacity = mask_ + 1;
    auto bigger = std::make_unique<task[]>(capacity * 2);
    for (std::size_t i = 0; i < count_; ++i) {
      bigger[i] = std::move(slots_[(head_ + i) & mask_]);
    }
    slots_ = std::move(bigger);
    mask_ = capacity * 2 - 1;
    head_ = 0;
  }

  mutable std::mutex mutex_;
  std::atomic<std::size_t> size_hint_{0};
  std::unique_ptr<task[]> slots_;  // guarded by mutex_, as are the three below
  std::size_t mask_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace strata::threading_internal

#endif  // STRATA_THREADING_INTERNAL_TASK_QUEUE_H_
