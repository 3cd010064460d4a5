// Internal to //component_storage: compile-time facts component_storage
// (component_storage/component_storage.h) reads about its parameters:
// whether a type is a signature list, the chunks' entity-metadata hooks
// (chunk.h), and Strata's message for a component no signature stores.
#ifndef STRATA_COMPONENT_STORAGE_INTERNAL_STORAGE_TRAITS_H_
#define STRATA_COMPONENT_STORAGE_INTERNAL_STORAGE_TRAITS_H_

#include <type_traits>

#include "component_storage/chunk.h"
#include "component_storage/component_signature.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename Component>
inline constexpr bool component_not_stored = [] {
  static_assert(always_false<Component>,
                "component_storage: this component type is not stored by "
                "any component signature of this storage; add it to "
                "strata::component_signatures(...) (the type is named above)");
  return false;
}();

}  // namespace diagnostic

namespace component_storage_internal {

template <typename Chunk>
using metadata_list_of =
    std::conditional_t<std::is_void_v<chunk_entity_metadata_t<Chunk>>,
                       type_list<>, type_list<chunk_entity_metadata_t<Chunk>>>;

template <typename Chunks>
struct metadata_list;
template <typename... Chunks>
struct metadata_list<type_list<Chunks...>> {
  using type = concat_t<metadata_list_of<Chunks>...>;
};

template <typename T>
inline constexpr bool is_signature_list = false;
template <typename... S>
inline constexpr bool is_signature_list<component_signature_list<S...>> = true;

}  // namespace component_storage_internal

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_INTERNAL_STORAGE_TRAITS_H_
