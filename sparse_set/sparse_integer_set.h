// Sparse integer sets: sets of small unsigned integers with O(1) insert,
// erase, contains and clear, and iteration over a packed (dense) array.
//
//   strata::fixed_sparse_integer_set<T, Capacity>  values 0 .. Capacity-1,
//       both arrays inline (std::array); never allocates.
//   strata::dynamic_sparse_integer_set<T>          any value of T; the arrays
//       live in std::vectors and grow on demand.
//
// Both are `basic_sparse_integer_set<T, Storage>`: one algorithm over a storage
// policy chosen at compile time (ECST's "static dispatching"), so code written
// against one works unchanged with the other.
//
// Representation (Briggs & Torczon): `dense[0, size)` holds the values in
// insertion order modulo erasures; `sparse[v]` holds the position of `v` in
// `dense`. A value is present iff `sparse[v] < size && dense[sparse[v]] == v`.
// Validating through `dense` is what makes clear() O(1): stale sparse slots are
// never trusted, so nothing has to be reset.
//
// Complexity: insert, erase, contains, clear: O(1) (dynamic insert: amortized
// O(1), plus growth of the sparse array to the largest value seen). Iteration:
// O(size). sort: O(n log n).
//
// Memory: O(largest value ever inserted) for the sparse array, O(peak size)
// for the dense array. The fixed variant holds 2 * Capacity * sizeof(T) bytes
// inline; allocate large ones on the heap.
//
// Out-of-range values:
//   * fixed: insert(v) with v >= Capacity is a STRATA_CHECK failure
//     ("value out of range of a fixed_sparse_integer_set"); the set is never
//     modified. contains(v) returns false and erase(v) is a no-op returning
//     false for such values.
//   * dynamic: every value of T is in range; the sparse array grows to v + 1
//     (so inserting T's maximum value may fail to allocate).
//
// Iterators and references: iterators are `const T*` into the dense array.
// insert may invalidate all iterators of the dynamic set (reallocation);
// erase(v) moves the last element into v's slot, so it invalidates iterators
// to v and to the last element and changes the order. To erase while
// iterating, iterate in reverse (rbegin/rend, or by position from size()-1 down
// to 0): erasing the current element only moves an already-visited one. Forward
// iteration plus erase skips the element moved into the current slot.
// clear and sort invalidate the order but not the storage.
//
// Thread-safety: not thread-safe for writes; concurrent const calls
// (contains, iteration, size) on one set are safe.
#ifndef STRATA_SPARSE_SET_SPARSE_INTEGER_SET_H_
#define STRATA_SPARSE_SET_SPARSE_INTEGER_SET_H_

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "base/check.h"

namespace strata {

// Storage with both arrays inline: no allocation, ever.
template <std::unsigned_integral T, std::size_t Capacity>
class fixed_sparse_storage {
  static_assert(Capacity > 0, "fixed_sparse_storage: Capacity must be > 0");
  static_assert(Capacity - 1 <= std::numeric_limits<T>::max(),
                "fixed_sparse_storage: Capacity does not fit the value type");

 public:
  static constexpr bool is_fixed = true;

  static constexpr std::size_t capacity() noexcept { return Capacity; }
  // Values the sparse array can currently address.
  std::size_t sparse_extent() const noexcept { return Capacity; }

  // Makes room for `value` at dense position `position`.
  void prepare_insert(T value, std::size_t /*position*/) {
    STRATA_CHECK(value < Capacity,
                 "value out of range of a fixed_sparse_integer_set");
  }
  void reserve(std::size_t n) {
    STRATA_CHECK(n <= Capacity,
                 "reserve beyond the capacity of a fixed_sparse_integer_set");
  }

  T* sparse() noexcept { return sparse_.data(); }
  const T* sparse() const noexcept { return sparse_.data(); }
  T* dense() noexcept { return dense_.data(); }
  const T* dense() const noexcept { return dense_.data(); }

 private:
  // Value-initialized once so that no slot is ever read uninitialized.
  std::array<T, Capacity> sparse_{};
  std::array<T, Capacity> dense_{};
};

// Storage in vectors that grow geometrically.
template <std::unsigned_integral T>
class dynamic_sparse_storage {
 public:
  static constexpr bool is_fixed = false;

  std::size_t capacity() const noexcept { return dense_.size(); }
  std::size_t sparse_extent() const noexcept { return sparse_.size(); }

  void prepare_insert(T value, std::size_t position) {
    const std::size_t v = value;
    if (v >= sparse_.size()) {
      sparse_.resize(std::max<std::size_t>(v + 1, sparse_.size() * 2));
    }
    if (position >= dense_.size()) {
      dense_.resize(std::max<std::size_t>(position + 1, dense_.size() * 2));
    }
  }
  void reserve(std::size_t n) {
    if (n > dense_.size()) dense_.resize(n);
  }
  // Reserves the sparse array for values below `extent`.
  void reserve_values(std::size_t extent) {
    if (extent > sparse_.size()) sparse_.resize(extent);
  }

  T* sparse() noexcept { return sparse_.data(); }
  const T* sparse() const noexcept { return sparse_.data(); }
  T* dense() noexcept { return dense_.data(); }
  const T* dense() const noexcept { return dense_.data(); }

 private:
  std::vector<T> sparse_;
  std::vector<T> dense_;
};

template <std::unsigned_integral T, typename Storage>
class basic_sparse_integer_set {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using storage_type = Storage;
  using const_iterator = const T*;
  using iterator = const_iterator;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  basic_sparse_integer_set() = default;

  // Adds `value`; returns false (and changes nothing) if it was present.
  // Fixed storage: value >= capacity() is a STRATA_CHECK failure.
  bool insert(T value) {
    if (contains(value)) return false;
    storage_.prepare_insert(value, size_);
    storage_.dense()[size_] = value;
    storage_.sparse()[value] = static_cast<T>(size_);
    ++size_;
    return true;
  }

  // Removes `value` by moving the last element into its slot; returns false
  // (no-op) if absent, including out-of-range values.
  bool erase(T value) noexcept {
    if (!contains(value)) return false;
    T* const dense = storage_.dense();
    T* const sparse = storage_.sparse();
    const T position = sparse[value];
    const T last = dense[size_ - 1];
    dense[position] = last;
    sparse[last] = position;
    --size_;
    return true;
  }

  bool contains(T value) const noexcept {
    if (value >= storage_.sparse_extent()) return false;
    const T position = storage_.sparse()[value];
    return position < size_ && storage_.dense()[position] == value;
  }

  // Position of `value` in the dense array; `value` must be present.
  size_type index_of(T value) const {
    STRATA_DCHECK(contains(value), "index_of: value not in the set");
    return storage_.sparse()[value];
  }

  // O(1): stale sparse slots are rejected by contains().
  void clear() noexcept { size_ = 0; }

  void reserve(size_type n) { storage_.reserve(n); }

  // Sorts the dense array by `compare` (a strict weak order on values) and
  // repoints the sparse slots. Iterating afterwards yields the sorted order.
  template <typename Compare = std::less<T>>
  void sort(Compare compare = Compare{}) {
    T* const dense = storage_.dense();
    std::sort(dense, dense + size_, std::move(compare));
    T* const sparse = storage_.sparse();
    for (size_type pos = 0; pos < size_; ++pos) {
      sparse[dense[pos]] = static_cast<T>(pos);
    }
  }

  size_type size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  // Largest number of elements the set can hold without growing.
  size_type capacity() const noexcept { return storage_.capacity(); }

  const T* data() const noexcept { return storage_.dense(); }
  std::span<const T> values() const noexcept { return {data(), size_}; }
  const_iterator begin() const noexcept { return data(); }
  const_iterator end() const noexcept { return data() + size_; }
  const_reverse_iterator rbegin() const noexcept {
    return const_reverse_iterator(end());
  }
  const_reverse_iterator rend() const noexcept {
    return const_reverse_iterator(begin());
  }
  T operator[](size_type position) const noexcept {
    return storage_.dense()[position];
  }

  const Storage& storage() const noexcept { return storage_; }

 private:
  Storage storage_;
  size_type size_ = 0;
};

template <std::unsigned_integral T, std::size_t Capacity>
using fixed_sparse_integer_set =
    basic_sparse_integer_set<T, fixed_sparse_storage<T, Capacity>>;

template <std::unsigned_integral T>
using dynamic_sparse_integer_set =
    basic_sparse_integer_set<T, dynamic_sparse_storage<T>>;

}  // namespace strata

#endif  // STRATA_SPARSE_SET_SPARSE_INTEGER_SET_H_
