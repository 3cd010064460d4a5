// A growable array that appends without a function call, for the refresh
// queue's per-change entries and the systems' departure notes.
//
// Why not std::vector::emplace_back: in the callers' long loops (a system
// adding and removing components one entity at a time) GCC's inliner left
// emplace_back out of line, and the call was a seventh of a remove+add.
// Here the common path is one compare of two pointers and one increment
// (no size computed from a pointer difference); growing is a separate,
// never-inlined function.
//
// Contract: elements live in [0, size()); append() returns a slot that may
// hold a previous value, which the caller overwrites in full (T must be
// trivially copyable, so a stale value is harmless). clear() and
// shrink_to() keep the memory. Move-only; a moved-from buffer is empty.
// Not thread-safe; references are invalidated by append().
#ifndef STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_
#define STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "base/check.h"

namespace strata::context_internal {

template <typename T>
class append_buffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "append_buffer hands out slots with stale values");

 public:
  append_buffer() = default;
  append_buffer(append_buffer&& other) noexcept
      : storage_(std::move(other.storage_)),
        end_(std::exchange(other.end_, nullptr)),
        limit_(std::exchange(other.limit_, nullptr)) {}
  append_buffer& operator=(append_buffer&& other) noexcept {
    storage_ = std::move(other.storage_);
    end_ = std::exchange(other.end_, nullptr);
    limit_ = std::exchange(other.limit_, nullptr);
    return *this;
  }

  ABSL_ATTRIBUTE_ALWAYS_INLINE T& append() {
    if (end_ == limit_) grow();
    return *end_++;
  }

  std::size_t size() const noexcept {
    return static_cast<std::size_t>(end_ - storage_.get());
  }
  bool empty() const noexcept { return end_ == storage_.get(); }
  T& operator[](std::size_t i) noexcept { return storage_[i]; }
  const T& operator[](std::size_t i) const noexcept { return storage_[i]; }
  T* begin() noexcept { return storage_.get(); }
  T* end() noexcept { return end_; }
  const T* begin() const noexcept { return storage_.get(); }
  const T* end() const noexcept { return end_; }

  void clear() noexcept { end_ = storage_.get(); }
  // Keeps the first `n` elements.
  void shrink_to(std::size_t n) noexcept {
    STRATA_DCHECK(n <= size(), "append_buffer: shrink_to past the end");
    end_ = storage_.get() + n;
  }

 private:
  ABSL_ATTRIBUTE_NOINLINE void grow() {
    const std::size_t size = this->size();
    const std::size_t capacity = std::max<std::size_t>(
        64, 2 * static_cast<std::size_t>(limit_ - storage_.get()));
    std::unique_ptr<T[]> bigger(new T[capacity]);
    if (size > 0) std::memcpy(bigger.get(), storage_.get(), size * sizeof(T));
    storage_ = std::move(bigger);
    end_ = storage_.get() + size;
    limit_ = storage_.get() + capacity;
  }

  std::unique_ptr<T[]> storage_;
  T* end_ = nullptr;    // one past the last element
  T* limit_ = nullptr;  // one past the last slot
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_
