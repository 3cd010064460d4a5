// The contiguous buffer chunk: a component lives at the slot of its entity's
// index.
//
//   strata::contiguous_buffer_chunk<Limit, Ts...>      SoA: one array per T
//   strata::aos_contiguous_buffer_chunk<Limit, Ts...>  AoS: one array of
//                                                         rows holding every T
//
// The fastest storage to iterate and to look up: `get` is one indexed load,
// no hashing, no indirection. It pays with memory: every slot up to the
// largest index used (dynamic) or up to N (fixed_limit<N>) is reserved for
// every component type, owned or not.
//
// Raw, uninitialized storage: a component is constructed in place only when
// created (placement new), so components need not be default-constructible,
// and move-only types work. A live byte per slot and component records which
// objects exist; it lets `contains` answer, lets `clear()` and the destructor
// destroy exactly the live objects, and lets growth relocate only live ones.
//
// Complexity: create/get/remove/contains O(1) (create amortized O(1) when
// dynamic). clear() and the destructor O(capacity). Memory: capacity *
// (sizeof(Ts) + ... + sizeof...(Ts) live bytes), plus row padding for AoS.
//
// Limit:
//   * fixed_limit<N>: one allocation at construction, never grows; an
//     index >= N in create() is a STRATA_CHECK failure. References stay valid
//     until the component is removed or the chunk cleared/destroyed.
//   * dynamic_limit: grows geometrically (x2) when create() sees an index
//     past the end. Growth moves every live component (memcpy for trivially
//     copyable types) and INVALIDATES every reference, pointer and data() span
//     into the chunk. Components must be nothrow move-constructible so that
//     growth cannot fail half-way (checked at compile time).
//
// Thread-safety: no internal locking. Distinct slots are distinct objects and
// distinct live bytes, so get() and writes through it may run concurrently
// for different entities (or different components), and with a fixed
// capacity so may create()/remove() for different entities. A dynamic chunk's
// create() may reallocate and must not run concurrently with anything.
// clear() needs exclusive access.
#ifndef STRATA_COMPONENT_STORAGE_CONTIGUOUS_BUFFER_CHUNK_H_
#define STRATA_COMPONENT_STORAGE_CONTIGUOUS_BUFFER_CHUNK_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/limit.h"
#include "component_storage/chunk.h"
#include "component_storage/internal/aos_row.h"
#include "component_storage/signature.h"
#include "entity/entity_id.h"
#include "settings/type_list.h"

namespace strata {

template <typename Layout, typename Limit, typename... Ts>
class basic_contiguous_buffer_chunk {
  static_assert(limit_policy<Limit>,
                "contiguous_buffer_chunk: Limit must be fixed_limit<N> "
                "or dynamic_limit");
  static_assert(std::is_same_v<Layout, layout::soa> ||
                    std::is_same_v<Layout, layout::aos>,
                "contiguous_buffer_chunk: Layout must be layout::soa or "
                "layout::aos");
  static_assert(sizeof...(Ts) > 0,
                "contiguous_buffer_chunk needs at least one component type");
  static_assert(first_duplicate_index_v<type_list<Ts...>> == sizeof...(Ts),
                "contiguous_buffer_chunk: a component type is listed twice");
  static_assert(((std::is_object_v<Ts> && !std::is_const_v<Ts> &&
                  std::is_destructible_v<Ts>)&&...),
                "contiguous_buffer_chunk: components must be non-const, "
                "destructible object types");
  static_assert(Limit::is_fixed ||
                    (std::is_nothrow_move_constructible_v<Ts> && ...),
                "contiguous_buffer_chunk with dynamic_limit: components "
                "must be nothrow move-constructible, because growth relocates "
                "them (use fixed_limit, or another storage, for other "
                "types)");

  using types = type_list<Ts...>;
  static constexpr std::size_t kComponents = sizeof...(Ts);
  template <typename T>
  static constexpr std::size_t k_of = index_of_v<T, types>;
  template <std::size_t K>
  using nth = type_at_t<K, types>;

 public:
  using size_type = std::size_t;
  using component_types = types;
  using limit_type = Limit;
  static constexpr bool is_aos = std::is_same_v<Layout, layout::aos>;

  basic_contiguous_buffer_chunk() {
    if constexpr (Limit::is_fixed) reallocate(Limit::value);
  }
  ~basic_contiguous_buffer_chunk() {
    destroy_live();
    release(storage_);
  }

  // A moved-from chunk holds nothing and has capacity 0; with a fixed
  // capacity it may only be destroyed or assigned to.
  basic_contiguous_buffer_chunk(basic_contiguous_buffer_chunk&& other) noexcept
      : storage_(std::exchange(other.storage_, storage{})),
        live_(std::move(other.live_)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  basic_contiguous_buffer_chunk& operator=(
      basic_contiguous_buffer_chunk&& other) noexcept {
    if (this != &other) {
      destroy_live();
      release(storage_);
      storage_ = std::exchange(other.storage_, storage{});
      live_ = std::move(other.live_);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  basic_contiguous_buffer_chunk(const basic_contiguous_buffer_chunk&) = delete;
  basic_contiguous_buffer_chunk& operator=(
      const basic_contiguous_buffer_chunk&) = delete;

  // Constructs id's T from `args`. Precondition: id has no T. May reallocate
  // (dynamic capacity only), invalidating every reference into the chunk.
  template <typename T, typename... Args>
  requires(chunk_internal::is_one_of<T, Ts...>) T& create(entity_id id,
                                                          Args&&... args) {
    const size_type slot = id.index();
    if constexpr (Limit::is_fixed) {
      STRATA_CHECK(slot < capacity_,
                   "contiguous_buffer_chunk: entity index past the fixed "
                   "capacity");
    } else {
      if (slot >= capacity_) grow(slot + 1);
    }
    std::uint8_t& live = live_[live_index<k_of<T>>(slot)];
    STRATA_DCHECK(live == 0,
                  "contiguous_buffer_chunk: create of a component the entity "
                  "already has");
    T* const object = chunk_internal::construct_component<T>(
        raw_address<k_of<T>>(slot), std::forward<Args>(args)...);
    live = 1;
    return *object;
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) T& get(entity_id id) noexcept {
    STRATA_DCHECK(contains<T>(id),
                  "contiguous_buffer_chunk: get of a component the entity "
                  "does not have");
    return object<k_of<T>>(id.index());
  }
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) const T& get(
      entity_id id) const noexcept {
    STRATA_DCHECK(contains<T>(id),
                  "contiguous_buffer_chunk: get of a component the entity "
                  "does not have");
    return const_cast<basic_contiguous_buffer_chunk*>(this)
        ->template object<k_of<T>>(id.index());
  }

  // Destroys id's T. Precondition: id has a T.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) void remove(
      entity_id id) noexcept {
    STRATA_DCHECK(contains<T>(id),
                  "contiguous_buffer_chunk: remove of a component the entity "
                  "does not have");
    const size_type slot = id.index();
    if constexpr (!std::is_trivially_destructible_v<T>) {
      std::destroy_at(&object<k_of<T>>(slot));
    }
    live_[live_index<k_of<T>>(slot)] = 0;
  }

  // Only the index of `id` is used: versions are the caller's business.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) bool contains(
      entity_id id) const noexcept {
    const size_type slot = id.index();
    return slot < capacity_ && live_[live_index<k_of<T>>(slot)] != 0;
  }

  // Destroys every live component; keeps the memory.
  void clear() noexcept {
    destroy_live();
    if (capacity_ > 0) std::fill_n(live_.get(), capacity_ * kComponents, 0);
  }

  // Dynamic: makes room for indices < n (may reallocate). Fixed: no-op.
  void reserve(size_type n) {
    if constexpr (!Limit::is_fixed) {
      if (n > capacity_) reallocate(n);
    }
  }

  size_type capacity() const noexcept { return capacity_; }

  // `a[index]` is the T of the entity with that index (live slots only);
  // valid until the chunk reallocates. SoA: the array itself; AoS: the rows
  // with T's offset and the row stride, both compile-time constants.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) auto index_accessor() noexcept {
    if constexpr (is_aos) {
      return chunk_internal::aos_accessor<T, kRow.offsets[k_of<T>], kRow.size>{
          storage_.rows};
    } else {
      return base_internal::get<k_of<T>>(storage_.arrays);
    }
  }

  // SoA only: the whole array of T, indexed by entity index. Only live slots
  // (contains<T>) hold objects; touching any other element is undefined.
  // This is the fast path for passes over every entity.
  template <typename T>
  requires(!is_aos && chunk_internal::is_one_of<T, Ts...>) std::span<T> data()
  noexcept { return {base_internal::get<k_of<T>>(storage_.arrays), capacity_}; }
  template <typename T>
  requires(!is_aos &&
           chunk_internal::is_one_of<T, Ts...>) std::span<const T> data()
  const noexcept {
    return {base_internal::get<k_of<T>>(storage_.arrays), capacity_};
  }

 private:
  static constexpr chunk_internal::row_layout<kComponents> kRow =
      chunk_internal::compute_row_layout<Ts...>();

  struct soa_storage {
    base_internal::flat_tuple<Ts*...> arrays{};
  };
  struct aos_storage {
    std::byte* rows = nullptr;
  };
  using storage = std::conditional_t<is_aos, aos_storage, soa_storage>;

  template <std::size_t K>
  static constexpr size_type live_index(size_type slot) noexcept {
    return slot * kComponents + K;
  }

  template <std::size_t K>
  static void* raw_address(const storage& s, size_type slot) noexcept {
    if constexpr (is_aos) {
      return s.rows + slot * kRow.size + kRow.offsets[K];
    } else {
      return base_internal::get<K>(s.arrays) + slot;
    }
  }
  template <std::size_t K>
  void* raw_address(size_type slot) noexcept {
    return raw_address<K>(storage_, slot);
  }

  template <std::size_t K>
  static nth<K>& object(const storage& s, size_type slot) noexcept {
    if constexpr (is_aos) {
      return *std::launder(static_cast<nth<K>*>(raw_address<K>(s, slot)));
    } else {
      return base_internal::get<K>(s.arrays)[slot];
    }
  }
  template <std::size_t K>
  nth<K>& object(size_type slot) noexcept {
    return object<K>(storage_, slot);
  }

  static storage allocate(size_type n) {
    storage s;
    if constexpr (is_aos) {
      s.rows = static_cast<std::byte*>(
          ::operator new (n* kRow.size, std::align_val_t{kRow.align}));
    } else {
      try {
        s.arrays.apply([n](auto*&... arrays) {
          ((arrays =
                std::allocator<std::remove_reference_t<decltype(*arrays)>>()
                    .allocate(n)),
           ...);
        });
      } catch (...) {
        release(s, n);
        throw;
      }
    }
    return s;
  }

  void release(storage& s) noexcept { release(s, capacity_); }
  static void release(storage& s, size_type n) noexcept {
    if constexpr (is_aos) {
      if (s.rows != nullptr) {
        ::operator delete (s.rows, std::align_val_t{kRow.align});
      }
      s.rows = nullptr;
    } else {
      s.arrays.apply([n](auto*&... arrays) {
        ((arrays != nullptr
              ? std::allocator<std::remove_reference_t<decltype(*arrays)>>()
                    .deallocate(arrays, n)
              : void()),
         ...);
        ((arrays = nullptr), ...);
      });
    }
  }

  void destroy_live() noexcept {
    if (capacity_ == 0) return;
    [this]<std::size_t... K>(std::index_sequence<K...>) {
      (this->template destroy_live_of<K>(), ...);
    }
    (std::make_index_sequence<kComponents>{});
  }
  template <std::size_t K>
  void destroy_live_of() noexcept {
    if constexpr (!std::is_trivially_destructible_v<nth<K>>) {
      for (size_type slot = 0; slot < capacity_; ++slot) {
        if (live_[live_index<K>(slot)] != 0) std::destroy_at(&object<K>(slot));
      }
    }
  }

  void grow(size_type min_capacity) {
    reallocate(std::max({min_capacity, 2 * capacity_, size_type{16}}));
  }

  // Moves every live component into new storage of `n` slots (n >= the
  // current capacity). Strong guarantee: if allocation throws, nothing
  // changed; relocation itself cannot throw (nothrow moves, checked above).
  void reallocate(size_type n) {
    std::unique_ptr<std::uint8_t[]> live(new std::uint8_t[n * kComponents]());
    storage fresh = allocate(n);
    if (capacity_ > 0) {
      relocate(fresh);
      std::memcpy(live.get(), live_.get(), capacity_ * kComponents);
      release(storage_);
    }
    storage_ = fresh;
    live_ = std::move(live);
    capacity_ = n;
  }

  void relocate(storage& to) noexcept {
    if constexpr (is_aos && (std::is_trivially_copyable_v<Ts> && ...)) {
      std::memcpy(to.rows, storage_.rows, capacity_ * kRow.size);
    } else {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        (relocate_of<K>(to), ...);
      }
      (std::make_index_sequence<kComponents>{});
    }
  }
  template <std::size_t K>
  void relocate_of(storage& to) noexcept {
    using T = nth<K>;
    if constexpr (!is_aos && std::is_trivially_copyable_v<T>) {
      std::memcpy(
          static_cast<void*>(base_internal::get<K>(to.arrays)),
          static_cast<const void*>(base_internal::get<K>(storage_.arrays)),
          capacity_ * sizeof(T));
    } else {
      for (size_type slot = 0; slot < capacity_; ++slot) {
        if (live_[live_index<K>(slot)] == 0) continue;
        T& from = object<K>(slot);
        ::new (raw_address<K>(to, slot)) T(std::move(from));
        std::destroy_at(&from);
      }
    }
  }

  storage storage_;
  // live_[slot * kComponents + k] != 0 iff component k of slot exists. A byte
  // (not a bit) per flag so that different slots never share a memory
  // location and may be written from different threads.
  std::unique_ptr<std::uint8_t[]> live_;
  size_type capacity_ = 0;
};

template <typename Limit, typename... Ts>
using contiguous_buffer_chunk =
    basic_contiguous_buffer_chunk<layout::soa, Limit, Ts...>;

template <typename Limit, typename... Ts>
using aos_contiguous_buffer_chunk =
    basic_contiguous_buffer_chunk<layout::aos, Limit, Ts...>;

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_CONTIGUOUS_BUFFER_CHUNK_H_
