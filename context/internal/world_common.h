// Internal to //context: what a context's world looks like to the code that
// copies, hashes, saves and loads it (context/snapshot.h,
// context/state_hash.h, context/save_load.h), and what the context needs of
// the last two before they are included.
//
// ctx.state_hash() and ctx.save() / ctx.load() are defined in headers that
// strata.h leaves out, so that programs that do not use them do not compile
// xxHash or the file format: the context names world_hash and world_io,
// declared here, and reports the missing header with Strata's message when
// one is not defined where it is called.
#ifndef STRATA_CONTEXT_INTERNAL_WORLD_COMMON_H_
#define STRATA_CONTEXT_INTERNAL_WORLD_COMMON_H_

#include <vector>

#include "base/internal/flat_tuple.h"
#include "context/internal/resource_storage.h"
#include "context/resources.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename Types>
inline constexpr bool state_hash_header_missing = [] {
  static_assert(always_false<Types>,
                "ctx.state_hash(): add #include \"context/state_hash.h\" "
                "(and the //context:state_hash dependency); strata.h leaves "
                "it out so that programs that do not hash do not compile "
                "xxHash");
  return false;
}();

template <typename Types>
inline constexpr bool save_load_header_missing = [] {
  static_assert(always_false<Types>,
                "ctx.save() / ctx.load(): add #include "
                "\"context/save_load.h\" (and the //context:save_load "
                "dependency); strata.h leaves it out so that programs that do "
                "not save do not compile it");
  return false;
}();

template <typename T>
inline constexpr bool save_of_unserializable_type = [] {
  static_assert(always_false<T>,
                "ctx.save() / ctx.load(): this component or resource type "
                "(named above) is not trivially copyable, so it cannot be "
                "saved as its bytes; give its component signature "
                ".serialize_with(io) (e.g. strata::cereal_io from "
                "context/cereal_io.h), or a resource type `using serializer "
                "= io;` (context/save_load.h)");
  return false;
}();

}  // namespace diagnostic

namespace context_internal {

// The values of each component type of a world, in entity-index order.
template <typename List>
struct component_values;
template <typename... Ts>
struct component_values<type_list<Ts...>> {
  using type = base_internal::flat_tuple<std::vector<Ts>...>;
};

// The resource types a resource storage holds.
template <typename Storage>
struct resource_types_of;
template <typename... Ts>
struct resource_types_of<resource_storage<resource_list<Ts...>>> {
  using type = type_list<Ts...>;
};

// Defined in context/state_hash.h (ctx.state_hash() needs it included).
template <typename Types>
struct world_hash;
// Defined in context/save_load.h (ctx.save() and ctx.load() need it).
template <typename Types>
struct world_io;

}  // namespace context_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_WORLD_COMMON_H_
