// Internal to //entity: the per-index arrays of basic_entity_storage
// (entity_storage.h) and the containers that hold them.
//
// storage_columns<Limit, Value, Metadata> holds the two arrays indexed
// alike, the ids (Value, one id-sized word per index) and the metadata,
// each contiguous, so a by-id liveness check reads only the ids:
//   * fixed_limit<N>: two std::arrays of N inside the object;
//   * dynamic_limit without metadata: a std::vector of ids;
//   * dynamic_limit with metadata: one allocation holding both arrays (the
//     ids, then the metadata at the capacity's offset), grown together by
//     doubling: one capacity check per new index and one allocation per
//     growth, where two vectors paid two of each.
// The same members for all three: id(i), meta(i), size() (indices handed
// out: N when fixed), capacity(), reserve(n), append(value) (a new index:
// its id and a default Metadata), reset(n) (n indices, ids zero or null,
// metadata default).
#ifndef STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_
#define STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/limit.h"

namespace strata {

namespace entity_internal {

// One allocation holding `capacity` ids and, after them, `capacity`
// Metadata, of which the first size() are in use (constructed).
template <typename Value, typename Metadata>
class paired_columns {
  static_assert(std::is_trivially_copyable_v<Value>);

 public:
  paired_columns() = default;
  paired_columns(const paired_columns& other) {
    reserve(other.size_);
    std::copy_n(other.ids_, other.size_, ids_);
    std::uninitialized_copy_n(other.metas_, other.size_, metas_);
    size_ = other.size_;
  }
  paired_columns(paired_columns&& other) noexcept
      : ids_(std::exchange(other.ids_, nullptr)),
        metas_(std::exchange(other.metas_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  paired_columns& operator=(paired_columns other) noexcept {
    std::swap(ids_, other.ids_);
    std::swap(metas_, other.metas_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~paired_columns() {
    std::destroy_n(metas_, size_);
    deallocate(ids_);
  }

  Value& id(std::size_t i) noexcept { return ids_[i]; }
  const Value& id(std::size_t i) const noexcept { return ids_[i]; }
  const Value* ids() const noexcept { return ids_; }
  Metadata& meta(std::size_t i) noexcept { return metas_[i]; }
  const Metadata& meta(std::size_t i) const noexcept { return metas_[i]; }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }

  void reserve(std::size_t n) {
    if (n > capacity_) grow_to(n);
  }
  void append(Value value) {
    if (size_ == capacity_) [[unlikely]] {
      grow_to(std::max<std::size_t>(2 * capacity_, 8));
    }
    ::new (static_cast<void*>(metas_ + size_)) Metadata();
    ids_[size_] = value;
    ++size_;
  }
  // n indices, ids zero, metadata default.
  void reset(std::size_t n) {
    std::destroy_n(metas_, size_);
    size_ = 0;
    reserve(n);
    std::fill_n(ids_, n, Value{});
    std::uninitialized_value_construct_n(metas_, n);
    size_ = n;
  }

 private:
  static constexpr std::size_t kAlignment =
      std::max(alignof(Value), alignof(Metadata));
  static std::size_t metas_offset(std::size_t capacity) noexcept {
    const std::size_t bytes = capacity * sizeof(Value);
    return (bytes + alignof(Metadata) - 1) / alignof(Metadata) *
           alignof(Metadata);
  }
  static void* allocate(std::size_t bytes) {
    if constexpr (kAlignment > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      return ::operator new (bytes, std::align_val_t{kAlignment});
    } else {
      return ::operator new(bytes);
    }
  }
  static void deallocate(void* block) noexcept {
    if (block == nullptr) return;
    if constexpr (kAlignment > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      ::operator delete (block, std::align_val_t{kAlignment});
    } else {
      ::operator delete(block);
    }
  }

  // Moves both arrays into a block for `capacity` indices. Out of line, so
  // that append() inlines small, as std::vector's push_back does.
  [[gnu::noinline]] void grow_to(std::size_t capacity) {
    const std::size_t offset = metas_offset(capacity);
    auto* block =
        static_cast<std::byte*>(allocate(offset + capacity * sizeof(Metadata)));
    auto* ids = reinterpret_cast<Value*>(block);
    auto* metas = reinterpret_cast<Metadata*>(block + offset);
    if constexpr (std::is_trivially_copyable_v<Metadata>) {
      if (size_ != 0) std::memcpy(metas, metas_, size_ * sizeof(Metadata));
    } else {
      try {
        std::uninitialized_move_n(metas_, size_, metas);
      } catch (...) {
        deallocate(block);
        throw;
      }
      std::destroy_n(metas_, size_);
    }
    if (size_ != 0) std::memcpy(ids, ids_, size_ * sizeof(Value));
    deallocate(ids_);
    ids_ = ids;
    metas_ = metas;
    capacity_ = capacity;
  }

  Value* ids_ = nullptr;  // the block's start
  Metadata* metas_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// The columns of a storage: see the top of this file.
template <typename Limit, typename Value, typename Metadata>
class storage_columns;

template <std::size_t N, typename Value, typename Metadata>
class storage_columns<fixed_limit<N>, Value, Metadata> {
  static constexpr bool has_metadata = !std::is_void_v<Metadata>;
  struct no_metadata {};
  using metadata_array = std::conditional_t<
      has_metadata,
      std::array<std::conditional_t<has_metadata, Metadata, char>, N>,
      no_metadata>;

 public:
  explicit storage_columns(Value null) noexcept { ids_.fill(null); }

  Value& id(std::size_t i) noexcept { return ids_[i]; }
  const Value& id(std::size_t i) const noexcept { return ids_[i]; }
  const Value* ids() const noexcept { return ids_.data(); }
  auto& meta(std::size_t i) noexcept requires has_metadata { return metas_[i]; }
  const auto& meta(std::size_t i) const noexcept requires has_metadata {
    return metas_[i];
  }
  static constexpr std::size_t size() noexcept { return N; }
  static constexpr std::size_t capacity() noexcept { return N; }
  // Every index: the null id (never alive), metadata default.
  void reset(std::size_t, Value null) {
    ids_.fill(null);
    if constexpr (has_metadata) metas_.fill(Metadata{});
  }

 private:
  std::array<Value, N> ids_;
  [[no_unique_address]] metadata_array metas_;
};

template <typename Value>
class storage_columns<dynamic_limit, Value, void> {
 public:
  explicit storage_columns(Value) noexcept {}

  Value& id(std::size_t i) noexcept { return ids_[i]; }
  const Value& id(std::size_t i) const noexcept { return ids_[i]; }
  const Value* ids() const noexcept { return ids_.data(); }
  std::size_t size() const noexcept { return ids_.size(); }
  std::size_t capacity() const noexcept { return ids_.capacity(); }
  void reserve(std::size_t n) { ids_.reserve(n); }
  void append(Value value) { ids_.push_back(value); }
  void reset(std::size_t n, Value) { ids_.assign(n, Value{}); }

 private:
  // Raw values rather than ids: a trivial element type lets std::vector
  // relocate with memmove when it grows.
  std::vector<Value> ids_;
};

template <typename Value, typename Metadata>
class storage_columns<dynamic_limit, Value, Metadata> {
 public:
  explicit storage_columns(Value) noexcept {}

  Value& id(std::size_t i) noexcept { return columns_.id(i); }
  const Value& id(std::size_t i) const noexcept { return columns_.id(i); }
  const Value* ids() const noexcept { return columns_.ids(); }
  Metadata& meta(std::size_t i) noexcept { return columns_.meta(i); }
  const Metadata& meta(std::size_t i) const noexcept {
    return columns_.meta(i);
  }
  std::size_t size() const noexcept { return columns_.size(); }
  std::size_t capacity() const noexcept { return columns_.capacity(); }
  void reserve(std::size_t n) { columns_.reserve(n); }
  void append(Value value) { columns_.append(value); }
  void reset(std::size_t n, Value) { columns_.reset(n); }

 private:
  paired_columns<Value, Metadata> columns_;
};

template <typename M>
concept has_component_bits = requires(M& m) {
  m.components;
};

}  // namespace entity_internal

}  // namespace strata

#endif  // STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_
