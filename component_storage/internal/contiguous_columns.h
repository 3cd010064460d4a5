// Internal to //component_storage: the memory of a contiguous buffer chunk
// (contiguous_buffer_chunk.h). contiguous_columns<Layout, Limit, Ts...>
// owns one column per T (SoA arrays, or AoS rows), a live byte per slot and
// column, and the growth, relocation and destruction of live objects. It
// works on column types, not on the user's components: the chunk stores a
// trivially copyable component as bytes of its shape
// (base/internal/object_bytes.h, keyed by its position in the chunk), so
// that every chunk
// whose columns have the same sizes and alignments shares one instantiation
// of this class. Its growth, relocation and release code is then compiled
// once per shape, not once per component type, which keeps the compile
// time of a program with many component types down
// (//benchmarks/compile:large_64x32).
//
// The chunk constructs and reads the objects (prepare_slot, mark_live,
// object_as, index_accessor_as, data_as); this class only moves bytes, or, for
// a column of a non-trivially-copyable type, moves and destroys the objects
// with their own type. The contract (complexity, thread-safety,
// invalidation) is the chunk's.
#ifndef STRATA_COMPONENT_STORAGE_INTERNAL_CONTIGUOUS_COLUMNS_H_
#define STRATA_COMPONENT_STORAGE_INTERNAL_CONTIGUOUS_COLUMNS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/internal/owned_ptr.h"
#include "base/internal/standard_parts.h"
#include "base/limit.h"
#include "component_storage/component_signature.h"
#include "component_storage/internal/aos_row.h"
#include "entity/entity_id.h"
#include "meta/type_list.h"

namespace strata::chunk_internal {

template <typename Layout, typename Limit, typename... Ts>
class contiguous_columns {
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

  contiguous_columns() {
    if constexpr (Limit::is_fixed) reallocate(Limit::value);
  }
  ~contiguous_columns() {
    destroy_live();
    release(storage_);
  }

  // A moved-from chunk holds nothing and has capacity 0; with a fixed
  // capacity it may only be destroyed or assigned to.
  contiguous_columns(contiguous_columns&& other) noexcept
      : storage_(std::exchange(other.storage_, storage{})),
        live_(std::move(other.live_)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  contiguous_columns& operator=(contiguous_columns&& other) noexcept {
    if (this != &other) {
      destroy_live();
      release(storage_);
      storage_ = std::exchange(other.storage_, storage{});
      live_ = std::move(other.live_);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  contiguous_columns(const contiguous_columns&) = delete;
  contiguous_columns& operator=(const contiguous_columns&) = delete;

  // The address of id's column-T slot, with room made for it (may
  // reallocate: dynamic capacity only). Precondition: id has no T. The
  // caller constructs the object there, then calls mark_live<T>(id), so
  // that a throwing constructor leaves the slot dead.
  template <typename T>
  void* prepare_slot(entity_id id) {
    const size_type slot = id.index();
    if constexpr (Limit::is_fixed) {
      STRATA_CHECK(slot < capacity_,
                   "contiguous_buffer_chunk: entity index past the fixed "
                   "capacity");
    } else {
      if (slot >= capacity_) grow(slot + 1);
    }
    STRATA_DCHECK(live_[live_index<k_of<T>>(slot)] == 0,
                  "contiguous_buffer_chunk: create of a component the entity "
                  "already has");
    return raw_address<k_of<T>>(slot);
  }
  template <typename T>
  void mark_live(entity_id id) noexcept {
    live_[live_index<k_of<T>>(id.index())] = 1;
  }

  // id's object in column T, seen as a View (T, or the component type
  // whose object the column's bytes hold). Precondition: id has a T.
  template <typename View, typename T>
  View& object_as(entity_id id) const noexcept {
    STRATA_DCHECK(contains<T>(id),
                  "contiguous_buffer_chunk: get of a component the entity "
                  "does not have");
    return index_accessor_as<View, T>()[id.index()];
  }

  // Destroys id's column-T object. Precondition: id has a T.
  template <typename T>
  void remove(entity_id id) noexcept {
    STRATA_DCHECK(contains<T>(id),
                  "contiguous_buffer_chunk: remove of a component the entity "
                  "does not have");
    const size_type slot = id.index();
    if constexpr (!std::is_trivially_destructible_v<T>) {
      object<k_of<T>>(slot).~T();
    }
    live_[live_index<k_of<T>>(slot)] = 0;
  }

  // Only the index of `id` is used: versions are the caller's business.
  template <typename T>
  bool contains(entity_id id) const noexcept {
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

  // The memory of slots [0, n) (n <= capacity()) as one image: each
  // column's bytes (SoA: column by column; AoS: the rows), then the live
  // flags. Only for columns that are all trivially copyable (and so never
  // destroyed): the image is the chunk's whole state for those slots.
  static constexpr bool has_image = (std::is_trivially_copyable_v<Ts> && ...);
  static constexpr size_type image_bytes(size_type n) noexcept {
    if constexpr (is_aos) {
      return n * (kRow.size + kComponents);
    } else {
      return n * ((sizeof(Ts) + ...) + kComponents);
    }
  }
  void copy_image(std::byte* out,
                  size_type n) const noexcept requires has_image {
    STRATA_DCHECK(n <= capacity_, "contiguous_buffer_chunk: image too long");
    if constexpr (is_aos) {
      out = copy_bytes(out, storage_.rows, n * kRow.size);
    } else {
      storage_.arrays.apply([&](auto* const&... arrays) {
        ((out = copy_bytes(out, arrays, n * sizeof(*arrays))), ...);
      });
    }
    copy_bytes(out, live_.get(), n * kComponents);
  }
  // Makes slots [0, n) what the image says and every later slot empty;
  // a dynamic chunk grows to n slots first.
  void assign_image(const std::byte* in, size_type n) requires has_image {
    if constexpr (Limit::is_fixed) {
      STRATA_CHECK(n <= capacity_,
                   "contiguous_buffer_chunk: image past the fixed capacity");
    } else {
      reserve(n);
    }
    if constexpr (is_aos) {
      in = paste_bytes(storage_.rows, in, n * kRow.size);
    } else {
      storage_.arrays.apply([&](auto*&... arrays) {
        ((in = paste_bytes(arrays, in, n * sizeof(*arrays))), ...);
      });
    }
    paste_bytes(live_.get(), in, n * kComponents);
    if (capacity_ > n) {
      std::fill(live_.get() + n * kComponents,
                live_.get() + capacity_ * kComponents, 0);
    }
  }

  // `a[index]` is the View at column T of the entity with that index (live
  // slots only); valid until the columns reallocate. SoA: the array itself;
  // AoS: the rows with the column's offset and the row stride. View is T,
  // or the component type whose objects the column's bytes hold.
  template <typename View, typename T>
  auto index_accessor_as() const noexcept {
    if constexpr (is_aos) {
      return aos_accessor<View, kRow.offsets[k_of<T>], kRow.size>{
          storage_.rows};
    } else {
      return view_of<View>(base_internal::get<k_of<T>>(storage_.arrays));
    }
  }
  // SoA only: the whole column T, as Views, indexed by entity index.
  template <typename View, typename T>
  requires(!is_aos) std::span<View> data_as()
  const noexcept {
    return {view_of<View>(base_internal::get<k_of<T>>(storage_.arrays)),
            capacity_};
  }

 private:
  static constexpr row_layout<kComponents> kRow = compute_row_layout<Ts...>();

  static std::byte* copy_bytes(std::byte* to, const void* from,
                               size_type n) noexcept {
    if (n > 0) std::memcpy(to, from, n);
    return to + n;
  }
  static const std::byte* paste_bytes(void* to, const std::byte* from,
                                      size_type n) noexcept {
    if (n > 0) std::memcpy(to, from, n);
    return from + n;
  }

  struct soa_storage {
    base_internal::flat_tuple<Ts*...> arrays{};
  };
  struct aos_storage {
    std::byte* rows = nullptr;
  };
  using storage = std::conditional_t<is_aos, aos_storage, soa_storage>;

  // A column's elements seen as View: the column itself, or, for a column
  // of bytes, the component objects constructed in those bytes.
  template <typename View, typename Element>
  static View* view_of(Element* column) noexcept {
    if constexpr (std::is_same_v<std::remove_const_t<View>, Element>) {
      return column;
    } else {
      return reinterpret_cast<View*>(column);
    }
  }

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
    using T = nth<K>;
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (size_type slot = 0; slot < capacity_; ++slot) {
        if (live_[live_index<K>(slot)] != 0) object<K>(slot).~T();
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
    base_internal::owned_ptr<std::uint8_t[]> live(
        new std::uint8_t[n * kComponents]());
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
        from.~T();
      }
    }
  }

  storage storage_;
  // live_[slot * kComponents + k] != 0 iff component k of slot exists. A byte
  // (not a bit) per flag so that different slots never share a memory
  // location and may be written from different threads.
  base_internal::owned_ptr<std::uint8_t[]> live_;
  size_type capacity_ = 0;
};

}  // namespace strata::chunk_internal

#endif  // STRATA_COMPONENT_STORAGE_INTERNAL_CONTIGUOUS_COLUMNS_H_
