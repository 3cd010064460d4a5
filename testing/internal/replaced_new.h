// Test-only, internal to //testing: the global operator new and delete, every
// form, replaced once for the helpers that watch or fail allocations
// (//testing:allocation_counter, //testing:failing_allocation).
//
// The replacement forwards every allocation to one of two functions that
// the helper linked with it defines: allocate(size) for the plain forms and
// allocate_aligned(size, alignment) for the aligned ones, each returning
// the memory or nullptr. The throwing forms throw std::bad_alloc on
// nullptr; the nothrow forms return it. Every delete form frees with
// std::free (aligned_block's memory comes from std::aligned_alloc, which
// std::free releases).
//
// Link exactly one helper into a binary: two define allocate twice (the
// link fails). The replacement must live in the executable itself so that
// it takes precedence over a sanitizer runtime's: a test that links a
// helper sets `linkstatic = True`.
#ifndef STRATA_TESTING_INTERNAL_REPLACED_NEW_H_
#define STRATA_TESTING_INTERNAL_REPLACED_NEW_H_

#include <cstddef>
#include <new>

namespace strata::testing_internal {

// Defined by the helper: the memory of one allocation, or nullptr.
void* allocate(std::size_t size) noexcept;
void* allocate_aligned(std::size_t size, std::align_val_t alignment) noexcept;

// std::malloc of `size` bytes (at least one).
void* plain_block(std::size_t size) noexcept;
// std::aligned_alloc of `size` bytes rounded up to the alignment, or
// nullptr when no such size exists.
void* aligned_block(std::size_t size, std::align_val_t alignment) noexcept;

}  // namespace strata::testing_internal

#endif  // STRATA_TESTING_INTERNAL_REPLACED_NEW_H_
