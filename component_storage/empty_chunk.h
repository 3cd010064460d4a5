// The empty chunk: storage for components that carry no data.
//
//   strata::empty_chunk<Ts...>   every T empty and trivially destructible
//
// Tag-like components (`struct player {};`) only matter through the entity's
// component bit, so this chunk stores nothing: it has no per-entity memory
// and no allocation. Every object of an empty type is interchangeable, so
// `create` constructs the T (running its constructor) in one shared
// per-type slot and `get` returns that shared object. The aggregate
// (component_storage.h) picks this chunk automatically for a signature whose
// storage is the default contiguous buffer and whose components are all
// empty and trivially destructible. Trivial destruction is required because
// no per-entity object exists to destroy: an empty type with a destructor that
// has side effects gets a contiguous buffer instead.
//
// The chunk cannot tell which entities have a T (no contains); the caller's
// component bits are the only record. clear() and remove() have nothing to do.
//
// Complexity: every operation O(1), no memory. References stay valid forever.
// Thread-safety: fully thread-safe; constructing an empty object touches no
// bytes.
#ifndef STRATA_COMPONENT_STORAGE_EMPTY_CHUNK_H_
#define STRATA_COMPONENT_STORAGE_EMPTY_CHUNK_H_

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "base/internal/make_object.h"
#include "component_storage/chunk.h"
#include "entity/entity_id.h"

namespace strata {

template <typename T>
inline constexpr bool is_stateless_component_v =
    std::is_empty_v<T>&& std::is_trivially_destructible_v<T>;

template <typename... Ts>
class empty_chunk {
  static_assert(sizeof...(Ts) > 0, "empty_chunk needs a component type");
  static_assert((is_stateless_component_v<Ts> && ...),
                "empty_chunk: every component must be an empty, trivially "
                "destructible type");

 public:
  template <typename T, typename... Args>
  requires(chunk_internal::is_one_of<T, Ts...>) T& create(entity_id,
                                                          Args&&... args) {
    // Ends the previous (trivially destructible) object's lifetime and starts
    // a new one in the same bytes, so constructors still run per create.
    return *base_internal::construct_object<T>(&slot<T>,
                                               std::forward<Args>(args)...);
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) T& get(entity_id) noexcept {
    return *std::launder(reinterpret_cast<T*>(&slot<T>));
  }
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) const T& get(
      entity_id) const noexcept {
    return *std::launder(reinterpret_cast<const T*>(&slot<T>));
  }

  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) void remove(
      entity_id) noexcept {}

  void clear() noexcept {}

  // Every index shares the one object of T.
  template <typename T>
  requires(chunk_internal::is_one_of<T, Ts...>) auto index_accessor() noexcept {
    struct accessor {
      T& operator[](std::size_t) const noexcept {
        return *std::launder(reinterpret_cast<T*>(&slot<T>));
      }
    };
    return accessor{};
  }

 private:
  template <typename T>
  struct alignas(T) raw {
    std::byte bytes[sizeof(T)];
  };
  // One shared object per type, for every chunk and entity.
  template <typename T>
  static inline raw<T> slot{};
};

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_EMPTY_CHUNK_H_
