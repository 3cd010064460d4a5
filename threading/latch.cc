#include "threading/latch.h"

#include "base/check.h"

namespace strata {

void latch::count_down(std::size_t n) noexcept {
  std::size_t current = count_.load(std::memory_order_relaxed);
  // Decrements that leave the count positive need no lock: nobody can be
  // woken by them.
  while (current > n) {
    if (count_.compare_exchange_weak(current, current - n,
                                     std::memory_order_acq_rel,
                                     std::memory_order_relaxed)) {
      return;
    }
  }
  STRATA_CHECK(current == n, "latch::count_down would go below zero");
  // The decrement to zero happens under the mutex so that a waiter, which
  // only returns after acquiring the mutex, cannot destroy the latch while
  // this thread still uses it. Any concurrent lock-free decrement would push
  // the count below zero, which the check below turns into a failure.
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t previous = count_.fetch_sub(n, std::memory_order_acq_rel);
  STRATA_CHECK(previous == n, "latch::count_down would go below zero");
  cv_.notify_all();
}

bool latch::try_wait() const noexcept {
  if (count_.load(std::memory_order_acquire) != 0) return false;
  // The zeroing thread may still hold the mutex; wait for it to let go so
  // that the caller may destroy the latch right away.
  std::lock_guard<std::mutex> lock(mutex_);
  return true;
}

void latch::wait() const {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock,
           [this] { return count_.load(std::memory_order_acquire) == 0; });
}

void latch::reset(std::size_t count) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  count_.store(count, std::memory_order_release);
}

}  // namespace strata
