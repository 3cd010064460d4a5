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
//
// Compile time: the memory code (growth, relocation, release) is shared by
// every chunk whose trivially copyable components have the same sizes and
// alignments (internal/contiguous_columns.h), so a program with many small
// component types compiles it a few times, not once per type.
#ifndef STRATA_COMPONENT_STORAGE_CONTIGUOUS_BUFFER_CHUNK_H_
#define STRATA_COMPONENT_STORAGE_CONTIGUOUS_BUFFER_CHUNK_H_

#include <cstddef>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

#include "base/internal/make_object.h"
#include "base/internal/object_bytes.h"
#include "base/limit.h"
#include "component_storage/chunk.h"
#include "component_storage/component_signature.h"
#include "component_storage/internal/aos_row.h"
#include "component_storage/internal/contiguous_columns.h"
#include "entity/entity_id.h"
#include "meta/type_list.h"

namespace strata {

namespace chunk_internal {

// The columns of a chunk of Ts: bytes of T's shape for a trivially
// copyable T (moved with memcpy, never destroyed; keyed by position so
// that two of one shape stay distinct), T itself otherwise.
template <typename Layout, typename Limit, typename Ts, typename Indices>
struct columns_of;
template <typename Layout, typename Limit, typename... Ts, std::size_t... K>
struct columns_of<Layout, Limit, type_list<Ts...>, std::index_sequence<K...>> {
  using type =
      contiguous_columns<Layout, Limit, base_internal::stored_as_t<Ts, K>...>;
};

}  // namespace chunk_internal

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
  using columns_type =
      typename chunk_internal::columns_of<Layout, Limit, types,
                                          std::index_sequence_for<Ts...>>::type;
  // The column that stores T.
  template <typename T>
  using column =
      type_at_t<index_of_v<T, types>, typename columns_type::component_types>;

 public:
  using size_type = std::size_t;
  using component_types = types;
  using limit_type = Limit;
  static constexpr bool is_aos = std::is_same_v<Layout, layout::aos>;

  // Fixed capacity: allocates every slot now. A moved-from chunk holds
  // nothing and has capacity 0; with a fixed capacity it may only be
  // destroyed or assigned to.
  basic_contiguous_buffer_chunk() = default;
  basic_contiguous_buffer_chunk(basic_contiguous_buffer_chunk&&) noexcept =
      default;
  basic_contiguous_buffer_chunk& operator=(
      basic_contiguous_buffer_chunk&&) noexcept = default;

  // Constructs id's T from `args`. Precondition: id has no T. May reallocate
  // (dynamic capacity only), invalidating every reference into the chunk.
  template <typename T, typename... Args>
  requires(chunk_internal::is_one_of<T, Ts...>) T& create(entity_id id,
                                                          Args&&... args) {
    void* const where = columns_.template prepare_slot<column<T>>(id);
    T* const object =
        base_internal::construct_object<T>(where, std::forward<Args>(args)...);
    columns_.template mark_live<column<T>>(id);
    return *object;
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) T& get(entity_id id) noexcept {
    return columns_.template object_as<T, column<T>>(id);
  }
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) const T& get(
      entity_id id) const noexcept {
    return columns_.template object_as<const T, column<T>>(id);
  }

  // Destroys id's T. Precondition: id has a T.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) void remove(
      entity_id id) noexcept {
    columns_.template remove<column<T>>(id);
  }

  // Only the index of `id` is used: versions are the caller's business.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) bool contains(
      entity_id id) const noexcept {
    return columns_.template contains<column<T>>(id);
  }

  // Destroys every live component; keeps the memory.
  void clear() noexcept { columns_.clear(); }

  // Dynamic: makes room for indices < n (may reallocate). Fixed: no-op.
  void reserve(size_type n) { columns_.reserve(n); }

  size_type capacity() const noexcept { return columns_.capacity(); }

  // For snapshots (context/snapshot.h), when every component is trivially
  // copyable: the chunk's slots [0, n) (n <= capacity()) as bytes, column
  // by column, and back (assign_image empties every later slot and grows
  // a dynamic chunk to n slots). O(n) memcpy.
  static constexpr bool has_image = columns_type::has_image;
  static constexpr size_type image_bytes(size_type n) noexcept {
    return columns_type::image_bytes(n);
  }
  void copy_image(std::byte* out,
                  size_type n) const noexcept requires has_image {
    columns_.copy_image(out, n);
  }
  void assign_image(const std::byte* in, size_type n) requires has_image {
    columns_.assign_image(in, n);
  }

  // `a[index]` is the T of the entity with that index (live slots only);
  // valid until the chunk reallocates. SoA: the array itself; AoS: the rows
  // with T's offset and the row stride, both compile-time constants.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) auto index_accessor() noexcept {
    return columns_.template index_accessor_as<T, column<T>>();
  }

  // SoA only: the whole array of T, indexed by entity index. Only live slots
  // (contains<T>) hold objects; touching any other element is undefined.
  // This is the fast path for passes over every entity.
  template <typename T>
  requires(!is_aos && chunk_internal::is_one_of<T, Ts...>) std::span<T> data()
  noexcept { return columns_.template data_as<T, column<T>>(); }
  template <typename T>
  requires(!is_aos &&
           chunk_internal::is_one_of<T, Ts...>) std::span<const T> data()
  const noexcept { return columns_.template data_as<const T, column<T>>(); }

 private:
  columns_type columns_;
};

template <typename Limit, typename... Ts>
using contiguous_buffer_chunk =
    basic_contiguous_buffer_chunk<layout::soa, Limit, Ts...>;

template <typename Limit, typename... Ts>
using aos_contiguous_buffer_chunk =
    basic_contiguous_buffer_chunk<layout::aos, Limit, Ts...>;

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_CONTIGUOUS_BUFFER_CHUNK_H_
