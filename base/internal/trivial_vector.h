// Internal to Strata: growable arrays of a trivially copyable type whose
// memory code is compiled once, not once per element type. trivial_vector<T>
// is the general one (the subset of std::vector Strata uses);
// append_buffer<T> is for append loops.
//
//   base_internal::trivial_vector<entity_metadata<8>> metas;
//   metas.emplace_back();           // a value-initialized element
//   metas.push_back(value);
//   metas[i].components.set(k);
//
// Why not std::vector: every std::vector<T> a program names is compiled in
// that program, with its growth, reallocation, length checks, copies and
// destruction, some forty functions per element type before the optimizer
// removes most of them. Strata's per-program element types (an entity's
// metadata for the program's component count, the bytes of a component's
// shape, the refresh's batches) made that a large share of what a program
// that includes strata.h compiles (//benchmarks/compile:game_8x12). Here
// the memory is handled as bytes by one class compiled once
// (trivial_vector.cc: growing, copying, shrinking and freeing);
// trivial_vector<T> only views it as T, with inline accessors. A trivially
// copyable T is moved and copied by its bytes, as std::vector itself does.
//
// Contract, the subset of std::vector's Strata uses: elements live in
// [0, size()); iterators are pointers. push_back and emplace_back grow the
// capacity to twice what it was (at least 16 elements); reserve(n) and
// resize(n) to at least n. A growth allocates before it copies and frees, so
// an allocation failure (std::bad_alloc) leaves the vector as it was.
// Copyable and movable; a moved-from vector is empty. Not thread-safe;
// pointers and references are invalidated by any growth.
//
// append_buffer<T> is a second view over the same byte class, for the
// callers' long append loops (the refresh queue's per-change entries, the
// subscriptions' departure notes, the effect channel's outboxes): append()
// is one compare of two pointers and one increment, append(value) the same
// and one store, with the growth in a never-inlined function. GCC's
// inliner leaves std::vector::emplace_back out of line in such a loop, a
// system adding and removing components one entity at a time
// (//benchmarks:entity_benchmark, BM_RemoveAddComponent). append(value)
// takes the value itself, for callers in a hot loop (the effect channel's
// send): the value is stored before any call, so a full buffer's growing
// call does not make the caller keep every field of it in callee-saved
// registers across the call in every iteration (//benchmarks:damage_benchmark,
// BM_Damage/strata_1t). append() returns a slot that may hold a
// previous value, which the caller overwrites in full. It grows to twice
// its capacity, at least 64 elements; clear() and shrink_to() keep the
// memory. Move-only; a moved-from buffer is empty. Not thread-safe;
// references are invalidated by append().
#ifndef STRATA_BASE_INTERNAL_TRIVIAL_VECTOR_H_
#define STRATA_BASE_INTERNAL_TRIVIAL_VECTOR_H_

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "base/check.h"

namespace strata::base_internal {

// The bytes behind a trivial_vector and an append_buffer: [begin, end) in use,
// [end, limit) free, for elements of one size and alignment given to each call.
class trivial_bytes {
 protected:
  trivial_bytes() = default;
  trivial_bytes(trivial_bytes&& other) noexcept
      : begin_(std::exchange(other.begin_, nullptr)),
        end_(std::exchange(other.end_, nullptr)),
        limit_(std::exchange(other.limit_, nullptr)) {}
  trivial_bytes(const trivial_bytes&) = delete;
  trivial_bytes& operator=(const trivial_bytes&) = delete;
  ~trivial_bytes() = default;  // the typed view frees (it knows alignof)

  // Capacity for one more element: twice the capacity, at least 16
  // elements.
  [[gnu::noinline]] void grow_by_one(std::size_t element_size,
                                     std::size_t alignment);
  // Capacity for at least `bytes` bytes (twice the capacity if that is
  // more).
  void grow_to(std::size_t bytes, std::size_t alignment);
  // Exactly `bytes` bytes of capacity (bytes >= the used bytes).
  void reallocate(std::size_t bytes, std::size_t alignment);
  // This storage holds a copy of `other`'s elements.
  void copy_from(const trivial_bytes& other, std::size_t alignment);
  void release(std::size_t alignment) noexcept;
  // Frees this storage and takes `other`'s.
  void take(trivial_bytes& other, std::size_t alignment) noexcept;

  std::byte* begin_ = nullptr;
  std::byte* end_ = nullptr;    // one past the last element
  std::byte* limit_ = nullptr;  // one past the last slot
};

template <typename T>
class trivial_vector : private trivial_bytes {
  static_assert(std::is_trivially_copyable_v<T>,
                "trivial_vector copies its elements as bytes");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  trivial_vector() = default;
  trivial_vector(const trivial_vector& other) : trivial_bytes() {
    copy_from(other, alignof(T));
  }
  trivial_vector(trivial_vector&& other) noexcept
      : trivial_bytes(std::move(other)) {}
  trivial_vector& operator=(const trivial_vector& other) {
    if (this != &other) copy_from(other, alignof(T));
    return *this;
  }
  trivial_vector& operator=(trivial_vector&& other) noexcept {
    if (this != &other) take(other, alignof(T));
    return *this;
  }
  ~trivial_vector() { release(alignof(T)); }

  std::size_t size() const noexcept {
    return static_cast<std::size_t>(end() - begin());
  }
  std::size_t capacity() const noexcept {
    return static_cast<std::size_t>(limit_ - begin_) / sizeof(T);
  }
  bool empty() const noexcept { return end_ == begin_; }

  T* data() noexcept { return begin(); }
  const T* data() const noexcept { return begin(); }
  T* begin() noexcept { return reinterpret_cast<T*>(begin_); }
  T* end() noexcept { return reinterpret_cast<T*>(end_); }
  const T* begin() const noexcept { return reinterpret_cast<const T*>(begin_); }
  const T* end() const noexcept { return reinterpret_cast<const T*>(end_); }
  T& operator[](std::size_t i) noexcept { return begin()[i]; }
  const T& operator[](std::size_t i) const noexcept { return begin()[i]; }
  T& back() noexcept { return end()[-1]; }
  const T& back() const noexcept { return end()[-1]; }

  // Appends `value` (taken by value: it may be an element of this vector,
  // which a growth moves).
  void push_back(T value) {
    if (end_ == limit_) [[unlikely]] {
      grow_by_one(sizeof(T), alignof(T));
    }
    ::new (static_cast<void*>(end_)) T(value);
    end_ += sizeof(T);
  }
  // Appends T(args...) (a value-initialized T without arguments).
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    T value(std::forward<Args>(args)...);
    push_back(value);
    return back();
  }
  void pop_back() noexcept { end_ -= sizeof(T); }
  void clear() noexcept { end_ = begin_; }

  void reserve(std::size_t n) {
    if (n > capacity()) reallocate(n * sizeof(T), alignof(T));
  }
  void shrink_to_fit() {
    if (end_ != limit_) reallocate(size() * sizeof(T), alignof(T));
  }
  // Keeps the first n elements, or appends value-initialized ones up to n.
  void resize(std::size_t n) {
    const std::size_t old_size = size();
    if (n <= old_size) {
      end_ = begin_ + n * sizeof(T);
      return;
    }
    if (n > capacity()) grow_to(n * sizeof(T), alignof(T));
    for (std::size_t i = old_size; i < n; ++i) {
      ::new (static_cast<void*>(begin_ + i * sizeof(T))) T();
    }
    end_ = begin_ + n * sizeof(T);
  }
  // n copies of `value` (taken by value, as push_back's).
  void assign(std::size_t n, T value) {
    if (n > capacity()) grow_to(n * sizeof(T), alignof(T));
    for (std::size_t i = 0; i < n; ++i) {
      ::new (static_cast<void*>(begin_ + i * sizeof(T))) T(value);
    }
    end_ = begin_ + n * sizeof(T);
  }
};

template <typename T>
class append_buffer : private trivial_bytes {
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

  [[gnu::always_inline]] T& append() {
    if (end_ == limit_) grow();
    T* slot = reinterpret_cast<T*>(end_);
    end_ += sizeof(T);
    return *slot;
  }

  // Appends `value`. Where the caller has the value at hand, prefer this
  // to append(): the value is stored before any call, so nothing of it
  // has to survive the growing call in the caller's registers (see the
  // essay).
  [[gnu::always_inline]] void append(T value) {
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
  [[gnu::noinline]] void append_after_growing(T value) {
    grow();
    *reinterpret_cast<T*>(end_) = value;
    end_ += sizeof(T);
  }
};

}  // namespace strata::base_internal

#endif  // STRATA_BASE_INTERNAL_TRIVIAL_VECTOR_H_
