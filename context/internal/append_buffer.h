// A growable array that appends without a function call, for the refresh
// queue's per-change entries, the systems' departure notes and the effect
// channel's outboxes.
//
// Why not std::vector::emplace_back: in the callers' long loops (a system
// adding and removing components one entity at a time) GCC's inliner left
// emplace_back out of line, and the call was a seventh of a remove+add.
// Here the common path is one compare of two pointers and one increment
// (no size computed from a pointer difference); growing is a separate,
// never-inlined function.
//
// append(value) takes the value itself, for callers in a hot loop (the
// effect channel's send): the common path stores it in place, and the rare
// full buffer hands it to a never-inlined function that grows and stores
// it. With append() and the caller's stores after it, every field of the
// value has to be kept across the growing call, in callee-saved registers
// or on the stack, which in a loop that is already short of registers
// costs spills and reloads on every iteration, not just the rare one.
//
// Contract: elements live in [0, size()); append() returns a slot that may
// hold a previous value, which the caller overwrites in full (T must be
// trivially copyable, so a stale value is harmless). clear() and
// shrink_to() keep the memory. Move-only; a moved-from buffer is empty.
// Not thread-safe; references are invalidated by append().
//
// The memory is handled as bytes by the class behind trivial_vector,
// compiled once (base/internal/trivial_vector.cc: growing and freeing), not
// once per element type in every program; append_buffer<T> only views it as
// T, and grows to twice its capacity, at least 64 elements.
#ifndef STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_
#define STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "base/check.h"
#include "base/internal/trivial_vector.h"

namespace strata::context_internal {

template <typename T>
class append_buffer : private base_internal::trivial_bytes {
  static_assert(std::is_trivially_copyable_v<T>,
                "append_buffer hands out slots with stale values");

 public:
  append_buffer() = default;
  append_buffer(append_buffer&& other) noexcept
      : trivial_bytes(std::move(other)) {}
  append_buffer& operator=(append_buffer&& other) noexcept {
    if (this != &other) take(other, alignof(T));
    return *this;
  }
  ~append_buffer() { release(alignof(T)); }

  ABSL_ATTRIBUTE_ALWAYS_INLINE T& append() {
    if (end_ == limit_) grow();
    T* slot = reinterpret_cast<T*>(end_);
    end_ += sizeof(T);
    return *slot;
  }

  // Appends `value`. Where the caller has the value at hand, prefer this
  // to append(): the value is stored before any call, so nothing of it
  // has to survive the growing call in the caller's registers (see the
  // essay).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void append(T value) {
    if (end_ == limit_) [[unlikely]] {
      append_after_growing(value);
      return;
    }
    *reinterpret_cast<T*>(end_) = value;
    end_ += sizeof(T);
  }

  std::size_t size() const noexcept {
    return static_cast<std::size_t>(end() - begin());
  }
  bool empty() const noexcept { return end_ == begin_; }
  T& back() noexcept {
    STRATA_DCHECK(!empty(), "append_buffer: back() of an empty buffer");
    return end()[-1];
  }
  T& operator[](std::size_t i) noexcept { return begin()[i]; }
  const T& operator[](std::size_t i) const noexcept { return begin()[i]; }
  T* begin() noexcept { return reinterpret_cast<T*>(begin_); }
  T* end() noexcept { return reinterpret_cast<T*>(end_); }
  const T* begin() const noexcept { return reinterpret_cast<const T*>(begin_); }
  const T* end() const noexcept { return reinterpret_cast<const T*>(end_); }

  void clear() noexcept { end_ = begin_; }
  // Keeps the first `n` elements.
  void shrink_to(std::size_t n) noexcept {
    STRATA_DCHECK(n <= size(), "append_buffer: shrink_to past the end");
    end_ = begin_ + n * sizeof(T);
  }

 private:
  // Twice the capacity, at least 64 elements, the used bytes copied.
  void grow() { grow_to(64 * sizeof(T), alignof(T)); }
  ABSL_ATTRIBUTE_NOINLINE void append_after_growing(T value) {
    grow();
    *reinterpret_cast<T*>(end_) = value;
    end_ += sizeof(T);
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_
