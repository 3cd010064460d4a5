// Resources: global singletons of a context ("the one spatial grid", "the
// frame's input"), declared in the settings, read and written by systems
// under the same compile-time race check as components.
//
//   struct grid { ... };                          // default-constructible
//   constexpr auto settings = strata::settings()
//       .resources(strata::resources(strata::resource<grid>))
//       ...;
//   strata::system_signature::make(st::build_grid).write_resource<grid>()
//   strata::system_signature::make(st::collide).read_resource<grid>()
//       .dependencies(st::build_grid)   // without it: a compile-time race
//   data.resource<grid>()       // in a system: grid& or const grid&
//   proxy.resource<grid>()      // in a step or deferred function: grid&
//   ctx.resource<grid>()        // between steps: grid& (e.g. to initialize)
//
// Each resource type is declared once (a repeat is a compile error naming
// it) and value-initialized when the context is built; it lives as long as
// the context. A system may only touch the resources its signature declares
// (read_resource<T>() gives const T&, write_resource<T>() T&); a signature
// naming a resource the settings do not declare is a compile error at
// make_context. Two systems that no dependency orders may not both use a
// resource if either writes it (scheduler/dag.h).
//
// The context keeps the values in a context_internal::resource_storage
// (internal/resource_storage.h), which users never name.
//
// Thread-safety: as components. Systems the scheduler runs at once never
// write the same resource; the step proxy and the context are used by one
// thread, never while systems run.
#ifndef STRATA_CONTEXT_RESOURCES_H_
#define STRATA_CONTEXT_RESOURCES_H_

#include <type_traits>

#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename Resource>
inline constexpr bool resource_declared_twice = [] {
  static_assert(always_false<Resource>,
                "strata::resources(...) lists the same resource type twice; "
                "declare each resource once (the type is named above)");
  return false;
}();

template <typename Resource>
inline constexpr bool resource_not_default_constructible = [] {
  static_assert(always_false<Resource>,
                "a resource type must be default-constructible (the context "
                "value-initializes it; set its value through "
                "ctx.resource<T>() before the first step); the type is named "
                "above");
  return false;
}();

}  // namespace diagnostic

template <typename T>
struct resource_t {
  using type = T;
};

// strata::resource<T>: names T as a resource in strata::resources(...).
template <typename T>
inline constexpr resource_t<T> resource{};

template <typename... Ts>
struct resource_list {
  using types = type_list<Ts...>;
  template <typename T>
  static constexpr bool declares = contains_v<T, types>;
};

template <typename... Ts>
constexpr resource_list<Ts...> resources(resource_t<Ts>...) {
  constexpr std::size_t duplicate = first_duplicate_index_v<type_list<Ts...>>;
  if constexpr (duplicate < sizeof...(Ts)) {
    diagnostic::report(diagnostic::resource_declared_twice<
                       type_at_t<duplicate, type_list<Ts...>>>);
  }
  return {};
}

template <typename T>
inline constexpr bool is_resource_list_v = false;
template <typename... Ts>
inline constexpr bool is_resource_list_v<resource_list<Ts...>> = true;

}  // namespace strata

#endif  // STRATA_CONTEXT_RESOURCES_H_
