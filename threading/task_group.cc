#include "threading/task_group.h"

namespace strata {

task_group::~task_group() {
  if (pending_.load(std::memory_order_acquire) != 0) {
    pool_.help_until_zero(pending_);
  }
}

void task_group::wait() {
  if (pending_.load(std::memory_order_acquire) != 0) {
    pool_.help_until_zero(pending_);
  }
  if (failed_.load(std::memory_order_relaxed)) {
    std::exception_ptr error = std::exchange(error_, nullptr);
    failed_.store(false, std::memory_order_relaxed);
    std::rethrow_exception(std::move(error));
  }
}

void task_group::record_current_exception() noexcept {
  if (!failed_.exchange(true, std::memory_order_relaxed)) {
    error_ = std::current_exception();
  }
}

void task_group::finish_one() noexcept {
  // The group may be destroyed as soon as the count reaches zero; only the
  // pool is touched afterwards.
  thread_pool& pool = pool_;
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    pool.wake_helpers();
  }
}

}  // namespace strata
