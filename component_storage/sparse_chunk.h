// The packed sparse-set chunk: components in dense arrays, found through a
// versioned sparse array.
//
//   strata::sparse_chunk<Limit, Ts...>   one component_sparse_set per T
//
// Built on //sparse_set:component_sparse_set. Memory follows the number of
// components present (plus the paginated sparse array), iteration over one
// component type touches only its dense array, and lookups use the full
// entity id: a stale id (an older version of a recycled index) is never
// matched. Each component type gets its own set so an entity may have any
// subset of the signature's types; the layout option does not apply.
//
// Complexity: create/get/remove/contains O(1) (create amortized); remove is
// swap-and-pop. clear O(size). Memory: per component present, sizeof(T) plus
// an id in the dense array, plus the sparse pages touched.
//
// Reference invalidation: create<T> may reallocate T's dense array and
// INVALIDATES every reference to components of type T; remove<T> invalidates
// references to the removed T and to the last T in dense order (it is moved
// into the hole). Components must be nothrow move-constructible and
// move-assignable (component_sparse_set checks this).
//
// Thread-safety: get() of existing components and writes through the returned
// references may run concurrently (distinct objects). create/remove/clear
// need exclusive access to the set of their component type.
#ifndef STRATA_COMPONENT_STORAGE_SPARSE_CHUNK_H_
#define STRATA_COMPONENT_STORAGE_SPARSE_CHUNK_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/internal/make_object.h"
#include "base/limit.h"
#include "component_storage/chunk.h"
#include "entity/entity_id.h"
#include "meta/type_list.h"
#include "sparse_set/component_sparse_set.h"

namespace strata {

template <typename Limit, typename... Ts>
class sparse_chunk {
  static_assert(limit_policy<Limit>,
                "sparse_chunk: Limit must be fixed_limit<N> or "
                "dynamic_limit");
  static_assert(sizeof...(Ts) > 0,
                "sparse_chunk needs at least one component type");
  static_assert(first_duplicate_index_v<type_list<Ts...>> == sizeof...(Ts),
                "sparse_chunk: a component type is listed twice");

  using types = type_list<Ts...>;
  template <typename T>
  static constexpr std::size_t k_of = index_of_v<T, types>;

 public:
  using size_type = std::size_t;
  using component_types = types;
  using limit_type = Limit;
  template <typename T>
  using set_type = component_sparse_set<entity_id, T>;

  // Precondition: id has no T (checked by the set).
  template <typename T, typename... Args>
  requires(chunk_internal::is_one_of<T, Ts...>) T& create(entity_id id,
                                                          Args&&... args) {
    if constexpr (Limit::is_fixed) {
      STRATA_DCHECK(id.index() < Limit::value,
                    "sparse_chunk: entity index past the fixed capacity");
    }
    if constexpr (std::is_constructible_v<T, Args...>) {
      return set_for<T>().emplace(id, std::forward<Args>(args)...);
    } else {
      return set_for<T>().emplace(
          id, base_internal::make_object<T>(std::forward<Args>(args)...));
    }
  }

  // The set checks that id (with its version) is present.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) T& get(entity_id id) {
    return set_for<T>().get(id);
  }
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) const T& get(
      entity_id id) const {
    return set_for<T>().get(id);
  }

  // Precondition: id has a T.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) void remove(
      entity_id id) noexcept {
    [[maybe_unused]] const bool erased = set_for<T>().erase(id);
    STRATA_DCHECK(erased,
                  "sparse_chunk: remove of a component the entity does not "
                  "have");
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) bool contains(
      entity_id id) const noexcept {
    return set_for<T>().contains(id);
  }

  void clear() noexcept {
    sets_.apply([](auto&... sets) { (sets.clear(), ...); });
  }

  void reserve(size_type n) {
    sets_.apply([n](auto&... sets) { (sets.reserve(n), ...); });
  }

  // T's set, for iteration over its dense ids and components.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) set_type<T>
  &set_for() noexcept { return base_internal::get<k_of<T>>(sets_); }
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) const set_type<T>& set_for()
      const noexcept {
    return base_internal::get<k_of<T>>(sets_);
  }

 private:
  base_internal::flat_tuple<set_type<Ts>...> sets_;
};

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_SPARSE_CHUNK_H_
