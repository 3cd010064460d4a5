// A growable array that appends without a function call, for the refresh
// queue's per-change entries.
//
// Why not std::vector::emplace_back: in the callers' long loops (a system
// adding and removing components one entity at a time) GCC's inliner left
// emplace_back out of line, and the call was a seventh of a remove+add.
// Here the common path is one compare and one increment; growing is a
// separate, never-inlined function.
//
// Contract: elements live in [0, size()); append() returns a slot that may
// hold a previous value, which the caller overwrites in full (T must be
// trivially copyable, so a stale value is harmless). clear() and
// shrink_to() keep the memory. Not thread-safe; references are invalidated
// by append().
#ifndef STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_
#define STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "absl/base/attributes.h"
#include "base/check.h"

namespace strata::context_internal {

template <typename T>
class append_buffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "append_buffer hands out slots with stale values");

 public:
  ABSL_ATTRIBUTE_ALWAYS_INLINE T& append() {
    if (size_ == storage_.size()) grow();
    return storage_[size_++];
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return storage_[i]; }
  const T& operator[](std::size_t i) const noexcept { return storage_[i]; }
  T* begin() noexcept { return storage_.data(); }
  T* end() noexcept { return storage_.data() + size_; }
  const T* begin() const noexcept { return storage_.data(); }
  const T* end() const noexcept { return storage_.data() + size_; }

  void clear() noexcept { size_ = 0; }
  // Keeps the first `n` elements.
  void shrink_to(std::size_t n) noexcept {
    STRATA_DCHECK(n <= size_, "append_buffer: shrink_to past the end");
    size_ = n;
  }

 private:
  ABSL_ATTRIBUTE_NOINLINE void grow() {
    storage_.resize(std::max<std::size_t>(64, 2 * storage_.size()));
  }

  std::vector<T> storage_;
  std::size_t size_ = 0;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_APPEND_BUFFER_H_
