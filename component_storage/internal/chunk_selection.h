// Internal to //component_storage: which chunk stores each component
// signature. A built-in selector maps to its chunk at compile time
// (contiguous_buffer to the SoA or AoS buffer, or to empty_chunk when every
// component is empty; sparse; hash_map, whose header the user includes: it
// is the only one that brings in absl::flat_hash_map); a user selector S to
// S::chunk<Limit, Components...>, checked against the component_chunk
// concept. A broken selector is reported once, by check(), and stands in as
// invalid_chunk so that nothing cascades. component_storage.h is the only
// user.
#ifndef STRATA_COMPONENT_STORAGE_INTERNAL_CHUNK_SELECTION_H_
#define STRATA_COMPONENT_STORAGE_INTERNAL_CHUNK_SELECTION_H_

#include <type_traits>

#include "component_storage/chunk.h"
#include "component_storage/component_signature.h"
#include "component_storage/contiguous_buffer_chunk.h"
#include "component_storage/empty_chunk.h"
#include "component_storage/sparse_chunk.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

// Defined in component_storage/hash_map_chunk.h, which a program that uses
// `.hash_map()` includes (chunk_of below reports it if it does not).
template <typename Limit, typename... Ts>
class hash_map_chunk;

namespace diagnostic {

template <typename... Components>
inline constexpr bool hash_map_chunk_not_included = [] {
  static_assert(always_false<Components...>,
                "a component signature uses .hash_map() storage (its "
                "components are named above), but hash_map_chunk is not "
                "defined: add #include \"component_storage/hash_map_chunk.h\" "
                "(strata.h leaves it out, so that programs without hash-map "
                "storage do not compile absl::flat_hash_map)");
  return false;
}();

template <typename Selector>
inline constexpr bool storage_selector_without_chunk = [] {
  static_assert(always_false<Selector>,
                "this storage selector (named above) is neither a built-in "
                "one (strata::storage::contiguous_buffer, sparse, hash_map) "
                "nor a type with a nested `template <typename Limit, "
                "typename... Components> using chunk = ...;`");
  return false;
}();

}  // namespace diagnostic

namespace component_storage_internal {

// Stands in for a selector without a chunk template, so that naming
// `S::template chunk<...>` stays well-formed while the error is reported.
struct no_chunk_selector {
  template <typename...>
  using chunk = void;
};

template <typename Selector, typename Limit, typename... Ts>
concept has_chunk_template = requires {
  typename Selector::template chunk<Limit, Ts...>;
};

// Stands in for a chunk that failed its checks, so that a misuse produces
// one diagnostic and not a cascade. Never defined: never runs.
template <typename... Ts>
struct invalid_chunk {
  template <typename T, typename... Args>
  T& create(entity_id, Args&&...);
  template <typename T>
  T& get(entity_id);
  template <typename T>
  const T& get(entity_id) const;
  template <typename T>
  void remove(entity_id);
  void clear();
};

// The chunk of a user selector, or invalid_chunk if it has none or it fails
// the concept (check_selector reports why).
template <typename Selector, typename Layout, typename Limit,
          typename Components>
struct chunk_of;
template <typename Selector, typename Layout, typename Limit, typename... Ts>
struct chunk_of<Selector, Layout, Limit, type_list<Ts...>> {
  static constexpr bool has_template =
      has_chunk_template<Selector, Limit, Ts...>;
  using candidate = typename std::conditional_t<
      has_template, Selector, no_chunk_selector>::template chunk<Limit, Ts...>;
  static constexpr bool valid = [] {
    if constexpr (has_template) {
      return (component_chunk<candidate, Ts> && ...);
    } else {
      return false;
    }
  }();
  using type = std::conditional_t<valid, candidate, invalid_chunk<Ts...>>;
  static constexpr bool included = true;  // (hash_map_chunk's header)

  static consteval bool check() {
    if constexpr (!has_template) {
      diagnostic::report(diagnostic::storage_selector_without_chunk<Selector>);
      return false;
    } else {
      return check_component_chunk<candidate, Ts...>();
    }
  }
};
template <typename Layout, typename Limit, typename... Ts>
struct chunk_of<storage::contiguous_buffer, Layout, Limit, type_list<Ts...>> {
  using type =
      std::conditional_t<(is_stateless_component_v<Ts> && ...),
                         empty_chunk<Ts...>,
                         basic_contiguous_buffer_chunk<Layout, Limit, Ts...>>;
  static constexpr bool included = true;
  static consteval bool check() { return true; }
};
template <typename Layout, typename Limit, typename... Ts>
struct chunk_of<storage::sparse, Layout, Limit, type_list<Ts...>> {
  using type = sparse_chunk<Limit, Ts...>;
  static constexpr bool included = true;
  static consteval bool check() { return true; }
};
template <typename Layout, typename Limit, typename... Ts>
struct chunk_of<storage::hash_map, Layout, Limit, type_list<Ts...>> {
  static constexpr bool included = requires {
    sizeof(hash_map_chunk<Limit, Ts...>);
  };
  using type = std::conditional_t<included, hash_map_chunk<Limit, Ts...>,
                                  invalid_chunk<Ts...>>;
  static consteval bool check() {
    if constexpr (!included) {
      diagnostic::report(diagnostic::hash_map_chunk_not_included<Ts...>);
    }
    return included;
  }
};

template <typename Signature, typename Limit>
using signature_chunk_of =
    chunk_of<typename Signature::storage_type, typename Signature::layout_type,
             Limit, typename Signature::component_types>;

template <typename Signature, typename Limit>
using signature_chunk_t = typename signature_chunk_of<Signature, Limit>::type;

template <typename Limit, typename Signatures>
struct chunk_list;
template <typename Limit, typename... Signatures>
struct chunk_list<Limit, type_list<Signatures...>> {
  using type = type_list<signature_chunk_t<Signatures, Limit>...>;
  // Reports each broken signature (one diagnostic each). `auto`, so that
  // naming its type instantiates the checks without evaluating them (an
  // evaluation that fires a static_assert adds a second error under Clang).
  static consteval auto check() {
    (signature_chunk_of<Signatures, Limit>::check(), ...);
    return true;
  }
  // The components of the first .hash_map() signature whose chunk is not
  // defined, as a type_list (void if none): what make_context reports
  // before it builds a context, naming the rule itself.
  using missing_hash_map =
      type_at_t<index_of_v<std::true_type,
                           type_list<std::bool_constant<!signature_chunk_of<
                               Signatures, Limit>::included>...>>,
                type_list<typename Signatures::component_types..., void>>;
};

// Names hash_map_chunk_not_included with the components of a type_list.
template <typename Components>
inline constexpr bool hash_map_missing_reported = true;
template <typename... Components>
inline constexpr bool hash_map_missing_reported<type_list<Components...>> =
    diagnostic::hash_map_chunk_not_included<Components...>;

}  // namespace component_storage_internal

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_INTERNAL_CHUNK_SELECTION_H_
