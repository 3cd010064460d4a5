#include "threading/task_group.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <utility>

namespace strata {

task_group::~task_group() {
  if (pending_.load(base_internal::memory_order::acquire) != 0) {
    pool_.help_until_zero(pending_);
  }
}

void task_group::wait() {
  if (pending_.load(base_internal::memory_order::acquire) != 0) {
    pool_.help_until_zero(pending_);
  }
  if (failed_.load(base_internal::memory_order::relaxed)) {
    std::exception_ptr error = std::exchange(error_, nullptr);
    failed_.store(false, base_internal::memory_order::relaxed);
    std::rethrow_exception(std::move(error));
  }
}

void task_group::record_current_exception() noexcept {
  if (!failed_.exchange(true, base_internal::memory_order::relaxed)) {
    error_ = std::current_exception();
  }
}

void task_group::finish_one() noexcept {
  // The group may be destroyed as soon as the count reaches zero; only the
  // pool is touched afterwards.
  thread_pool& pool = pool_;
  if (pending_.fetch_sub(1, base_internal::memory_order::acq_rel) == 1) {
    pool.wake_helpers();
  }
}

namespace task_group_internal {

void parallel_for_indices(thread_pool& pool, std::size_t n, void* body,
                          index_call call) {
  if (n <= 1 || pool.worker_count() == 0) {
    // Nobody could run posted tasks sooner than this thread: skip the queue.
    std::exception_ptr first_error;
    for (std::size_t i = 0; i < n; ++i) {
      try {
        call(body, i);
      } catch (...) {
        if (!first_error) first_error = std::current_exception();
      }
    }
    if (first_error) std::rethrow_exception(first_error);
    return;
  }
  task_group group(pool);
  // Each task captures only a pointer to this frame: the task stores it
  // inline, so no task allocates.
  struct frame {
    task_group* group;
    void* body;
    index_call call;
    std::size_t n;
    std::atomic<std::size_t> next{1};  // index 0 is the caller's
    // Runs unclaimed indices until none is left.
    void claim_and_run() {
      for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < n;
           i = next.fetch_add(1, std::memory_order_relaxed)) {
        try {
          call(body, i);
        } catch (...) {
          group->record_current_exception();
        }
      }
    }
  } shared{&group, body, call, n};
  const std::size_t helpers = std::min(n - 1, pool.worker_count());
  group.pending_.fetch_add(helpers, base_internal::memory_order::relaxed);
  for (std::size_t h = 0; h < helpers; ++h) {
    pool.post([frame = &shared] {
      auto run = [frame] { frame->claim_and_run(); };
      frame->group->invoke_and_finish(run);
    });
  }
  try {
    call(body, 0);
  } catch (...) {
    group.record_current_exception();
  }
  shared.claim_and_run();
  group.wait();
}

}  // namespace task_group_internal

}  // namespace strata
