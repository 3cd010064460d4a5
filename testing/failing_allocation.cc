#include "testing/failing_allocation.h"

#include <atomic>
#include <cstddef>
#include <new>

#include "testing/internal/replaced_new.h"

namespace strata::testing {
namespace {

// Allocations left up to the one that fails; 0: none fails. Atomic, so
// that an allocation of another thread (GoogleTest's, a pool's) is counted,
// not a data race.
std::atomic<int> allocations_before_failure{0};

// Whether this allocation is the one that fails: counts it down, once.
bool allocation_fails_now() noexcept {
  int left = allocations_before_failure.load(std::memory_order_relaxed);
  while (left > 0 && !allocations_before_failure.compare_exchange_weak(
                         left, left - 1, std::memory_order_relaxed)) {
  }
  return left == 1;
}

}  // namespace

void fail_nth_allocation(int n) noexcept {
  allocations_before_failure.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

}  // namespace strata::testing

namespace strata::testing_internal {

void* allocate(std::size_t size) noexcept {
  return testing::allocation_fails_now() ? nullptr : plain_block(size);
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment) noexcept {
  return testing::allocation_fails_now() ? nullptr
                                         : aligned_block(size, alignment);
}

}  // namespace strata::testing_internal
