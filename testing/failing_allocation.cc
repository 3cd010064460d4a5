#include "testing/failing_allocation.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace strata::testing {
namespace {

// Allocations left up to the one that fails; 0: none fails. Atomic, so
// that an allocation of another thread (GoogleTest's, a pool's) is counted,
// not a data race.
std::atomic<int> allocations_before_failure{0};

// Whether this allocation is the one that fails: counts it down, once.
bool fails_now() noexcept {
  int left = allocations_before_failure.load(std::memory_order_relaxed);
  while (left > 0 && !allocations_before_failure.compare_exchange_weak(
                         left, left - 1, std::memory_order_relaxed)) {
  }
  return left == 1;
}

// The memory, or nullptr when it fails (the picked allocation or malloc's).
void* allocate(std::size_t size) noexcept {
  if (fails_now()) return nullptr;
  return std::malloc(size == 0 ? 1 : size);
}

void* allocate_aligned(std::size_t size, std::align_val_t align) noexcept {
  if (fails_now()) return nullptr;
  const auto alignment = static_cast<std::size_t>(align);
  if (size > SIZE_MAX - alignment) return nullptr;  // no such block
  // aligned_alloc wants a size that is a multiple of the alignment.
  size = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, size == 0 ? alignment : size);
}

}  // namespace

void fail_nth_allocation(int n) noexcept {
  allocations_before_failure.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

}  // namespace strata::testing

using strata::testing::allocate;
using strata::testing::allocate_aligned;

void* operator new(std::size_t size) {
  if (void* p = allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size);
}
void* operator new(std::size_t size, std::align_val_t align) {
  if (void* p = allocate_aligned(size, align)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) {
  if (void* p = allocate_aligned(size, align)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align,
                   const std::nothrow_t&) noexcept {
  return allocate_aligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align,
                     const std::nothrow_t&) noexcept {
  return allocate_aligned(size, align);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t,
                     const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t,
                       const std::nothrow_t&) noexcept {
  std::free(p);
}
