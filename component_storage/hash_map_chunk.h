// The hash map chunk: components in an absl::flat_hash_map keyed by entity
// index.
//
//   strata::hash_map_chunk<Limit, Ts...>   one map per component type
//
// For rare components: memory follows the number of components present, not
// the number of entities, at the price of a hash lookup per access. Each
// component type of the signature gets its own map, so an entity may have any
// subset of them; the layout option (.aos()/.soa()) does not apply.
//
// Keys are entity indices: versions are not stored (the caller removes an
// entity's components before its index is recycled).
//
// Complexity: create/get/remove/contains expected O(1); clear O(size +
// buckets). Memory: about (sizeof(key) + sizeof(T)) / load factor per
// component present; nothing is reserved for a fixed capacity, which only
// bounds indices (STRATA_DCHECK).
//
// Reference stability: flat_hash_map stores values inline, so create<T> (any
// insertion into T's map) may rehash and INVALIDATES every reference and
// pointer to components of type T. remove<T> invalidates only the removed
// component. Other component types' maps are untouched. Components must be
// move-constructible (the map relocates them on rehash).
//
// Thread-safety: get() of existing components and writes through the
// returned references may run concurrently (distinct objects; lookups do not
// mutate the map). create/remove/clear need exclusive access to the map of
// their component type.
#ifndef STRATA_COMPONENT_STORAGE_HASH_MAP_CHUNK_H_
#define STRATA_COMPONENT_STORAGE_HASH_MAP_CHUNK_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/internal/make_object.h"
#include "base/limit.h"
#include "component_storage/chunk.h"
#include "entity/entity_id.h"
#include "meta/type_list.h"

namespace strata {

template <typename Limit, typename... Ts>
class hash_map_chunk {
  static_assert(limit_policy<Limit>,
                "hash_map_chunk: Limit must be fixed_limit<N> or "
                "dynamic_limit");
  static_assert(sizeof...(Ts) > 0,
                "hash_map_chunk needs at least one component type");
  static_assert(first_duplicate_index_v<type_list<Ts...>> == sizeof...(Ts),
                "hash_map_chunk: a component type is listed twice");
  static_assert((std::is_move_constructible_v<Ts> && ...),
                "hash_map_chunk: components must be move-constructible (the "
                "map relocates them when it grows)");

  using types = type_list<Ts...>;
  template <typename T>
  static constexpr std::size_t k_of = index_of_v<T, types>;

 public:
  using size_type = std::size_t;
  using key_type = entity_id::value_type;
  using component_types = types;
  using limit_type = Limit;
  template <typename T>
  using map_type = absl::flat_hash_map<key_type, T>;

  // Precondition: id has no T. Invalidates references to every T.
  template <typename T, typename... Args>
  requires(chunk_internal::is_one_of<T, Ts...>) T& create(entity_id id,
                                                          Args&&... args) {
    check_index(id);
    auto& map = map_for<T>();
    if constexpr (std::is_constructible_v<T, Args...>) {
      auto [it, inserted] =
          map.try_emplace(id.index(), std::forward<Args>(args)...);
      STRATA_DCHECK(inserted,
                    "hash_map_chunk: create of a component the entity "
                    "already has");
      return it->second;
    } else {
      auto [it, inserted] = map.try_emplace(
          id.index(),
          base_internal::make_object<T>(std::forward<Args>(args)...));
      STRATA_DCHECK(inserted,
                    "hash_map_chunk: create of a component the entity "
                    "already has");
      return it->second;
    }
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) T& get(entity_id id) noexcept {
    const auto it = map_for<T>().find(id.index());
    STRATA_DCHECK(it != map_for<T>().end(),
                  "hash_map_chunk: get of a component the entity does not "
                  "have");
    return it->second;
  }
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) const T& get(
      entity_id id) const noexcept {
    const auto it = map_for<T>().find(id.index());
    STRATA_DCHECK(it != map_for<T>().end(),
                  "hash_map_chunk: get of a component the entity does not "
                  "have");
    return it->second;
  }

  // Precondition: id has a T.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) void remove(
      entity_id id) noexcept {
    [[maybe_unused]] const size_type erased = map_for<T>().erase(id.index());
    STRATA_DCHECK(erased == 1,
                  "hash_map_chunk: remove of a component the entity does not "
                  "have");
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) bool contains(
      entity_id id) const noexcept {
    return map_for<T>().contains(id.index());
  }

  void clear() noexcept {
    maps_.apply([](auto&... maps) { (maps.clear(), ...); });
  }

  // Room for n components of every type without rehashing.
  void reserve(size_type n) {
    maps_.apply([n](auto&... maps) { (maps.reserve(n), ...); });
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) size_type size()
  const noexcept { return map_for<T>().size(); }

  // The map of T, for iteration (keys are entity indices).
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) map_type<T>
  &map_for() noexcept { return base_internal::get<k_of<T>>(maps_); }
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) const map_type<T>& map_for()
      const noexcept {
    return base_internal::get<k_of<T>>(maps_);
  }

 private:
  static void check_index([[maybe_unused]] entity_id id) noexcept {
    if constexpr (Limit::is_fixed) {
      STRATA_DCHECK(id.index() < Limit::value,
                    "hash_map_chunk: entity index past the fixed capacity");
    }
  }

  base_internal::flat_tuple<map_type<Ts>...> maps_;
};

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_HASH_MAP_CHUNK_H_
