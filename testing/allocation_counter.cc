#include "testing/allocation_counter.h"

#include <atomic>
#include <cstddef>
#include <new>

#include "testing/internal/replaced_new.h"

namespace strata::testing {
namespace {

std::atomic<std::size_t> allocations{0};

}  // namespace

std::size_t allocation_count() noexcept {
  return allocations.load(std::memory_order_relaxed);
}

}  // namespace strata::testing

namespace strata::testing_internal {

void* allocate(std::size_t size) noexcept {
  testing::allocations.fetch_add(1, std::memory_order_relaxed);
  return plain_block(size);
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment) noexcept {
  testing::allocations.fetch_add(1, std::memory_order_relaxed);
  return aligned_block(size, alignment);
}

}  // namespace strata::testing_internal
