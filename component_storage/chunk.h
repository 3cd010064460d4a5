// The storage chunk concept: what every component storage chunk provides.
//
// A chunk stores the components of one component signature (one or more
// component types) for entities identified by `strata::entity_id`. The
// built-in chunks are contiguous_buffer_chunk (SoA or AoS), sparse_chunk,
// hash_map_chunk and empty_chunk; a user plugs in their own through a storage
// selector with a nested
//
//   template <typename Limit, typename... Components> using chunk = ...;
//
// given to `component_signature::make(...).storage(selector)`. `Limit` is
// fixed_limit<N> or dynamic_limit (base/limit.h).
//
// For every component type T it stores, a chunk `c` must provide
// (`component_chunk<Chunk, T>`):
//   * a default constructor; destroying the chunk destroys every live
//     component;
//   * `T& c.create<T>(entity_id id, args...)`: constructs T in place from
//     `args` (aggregates may be brace-initialized); precondition: id has no T;
//   * `T& c.get<T>(id)` and `const T& c.get<T>(id) const`; precondition: id
//     has a T;
//   * `void c.remove<T>(id)`: destroys id's T; precondition: id has a T;
//   * `void c.clear()`: destroys every live component of every type.
//
// Why `clear()` takes no list of live ids: every chunk tracks which of its
// slots are live (the contiguous buffer keeps a live byte per slot and
// component, the others know their keys), so it can destroy exactly the live
// objects itself, and the destructor can do the same without help. That is
// part of the contract: a chunk must never leak or double-destroy.
//
// Optional parts, detected at compile time:
//   * `bool c.contains<T>(id) const` (`chunk_has_contains<Chunk, T>`): for
//     chunks that can answer membership on their own.
//   * `void c.reserve(std::size_t n)` (`chunk_has_reserve<Chunk>`): called by
//     the aggregate with its initial capacity.
//   * `auto c.index_accessor<T>()` (`chunk_has_index_access<Chunk, T>`): for
//     chunks that keep T at the slot of its entity's index, a small value `a`
//     with `T& a[index]`, valid until the chunk reallocates. The context's
//     for_each loops over runs of entity indices with it (no id lookups, a
//     loop the compiler can vectorize); chunks without it are reached by id.
//   * `typename Chunk::entity_metadata` (`chunk_entity_metadata_t<Chunk>`,
//     `void` when absent): a hook for per-entity data the chunk wants kept in
//     the entity metadata (entity/entity_metadata.h `Extra`). No built-in
//     chunk needs one; the aggregate only reports the types.
//
// The caller (the context) guarantees ids are alive and that preconditions
// hold; chunks check them with STRATA_DCHECK where that is cheap.
#ifndef STRATA_COMPONENT_STORAGE_CHUNK_H_
#define STRATA_COMPONENT_STORAGE_CHUNK_H_

#include <concepts>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "entity/entity_id.h"
#include "meta/diagnostic.h"

namespace strata {

template <typename Chunk, typename T>
concept component_chunk = std::is_object_v<T> &&
    std::default_initializable<Chunk> && std::destructible<Chunk> &&
    requires(Chunk& chunk, const Chunk& const_chunk, entity_id id) {
  { chunk.template get<T>(id) } -> std::same_as<T&>;
  { const_chunk.template get<T>(id) } -> std::same_as<const T&>;
  chunk.template remove<T>(id);
  chunk.clear();
} &&
    // create's arguments are open-ended; probe it with what every T has.
    (!std::move_constructible<T> ||
     requires(Chunk & chunk, entity_id id, T&& value) {
       { chunk.template create<T>(id, std::move(value)) } -> std::same_as<T&>;
     }) &&
    (std::move_constructible<T> || !std::default_initializable<T> ||
     requires(Chunk & chunk, entity_id id) {
       { chunk.template create<T>(id) } -> std::same_as<T&>;
     });

template <typename Chunk, typename T>
concept chunk_has_contains = requires(const Chunk& chunk, entity_id id) {
  { chunk.template contains<T>(id) } -> std::convertible_to<bool>;
};

template <typename Chunk, typename T>
concept chunk_has_index_access = requires(Chunk& chunk, std::size_t index) {
  { chunk.template index_accessor<T>()[index] } -> std::same_as<T&>;
};

template <typename Chunk>
concept chunk_has_reserve = requires(Chunk& chunk, std::size_t n) {
  chunk.reserve(n);
};

template <typename Chunk>
struct chunk_entity_metadata {
  using type = void;
};
template <typename Chunk>
requires requires { typename Chunk::entity_metadata; }
struct chunk_entity_metadata<Chunk> {
  using type = typename Chunk::entity_metadata;
};
template <typename Chunk>
using chunk_entity_metadata_t = typename chunk_entity_metadata<Chunk>::type;

namespace diagnostic {

template <typename Chunk, typename Component>
inline constexpr bool chunk_concept_not_satisfied = [] {
  static_assert(always_false<Chunk, Component>,
                "a storage chunk does not satisfy strata::component_chunk for "
                "the component named above; for each component T it needs a "
                "default constructor, T& create<T>(entity_id, args...), T& "
                "get<T>(entity_id), const T& get<T>(entity_id) const, "
                "remove<T>(entity_id) and clear() (see "
                "component_storage/chunk.h)");
  return false;
}();

}  // namespace diagnostic

// Reports (at compile time) the first component that Chunk fails the
// concept for, so a broken chunk costs one diagnostic; true if none.
template <typename Chunk, typename... Ts>
consteval bool check_component_chunk() {
  constexpr std::size_t first_failure = [] {
    constexpr bool ok[] = {component_chunk<Chunk, Ts>...};
    for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
      if (!ok[i]) return i;
    }
    return sizeof...(Ts);
  }();
  if constexpr (first_failure < sizeof...(Ts)) {
    diagnostic::report(
        diagnostic::chunk_concept_not_satisfied<
            Chunk, std::tuple_element_t<first_failure, std::tuple<Ts...>>>);
    return false;
  } else {
    return true;
  }
}

namespace chunk_internal {

template <typename T, typename... Ts>
inline constexpr bool is_one_of = (std::is_same_v<T, Ts> || ...);

}  // namespace chunk_internal

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_CHUNK_H_
