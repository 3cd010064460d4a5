// Component signatures: which storage holds which component types.
//
//   namespace cs = strata::component_signature;  // or strata::cs
//   constexpr auto components = strata::component_signatures(
//       cs::make(ct::position, ct::velocity),          // SoA buffer
//       cs::make(ct::color, ct::circle).aos(),         // interleaved
//       cs::make(ct::health).sparse(),                 // packed set
//       cs::make(ct::debug_name).hash_map());          // rare
//
// A signature groups one or more component types in one storage chunk. The
// storage is chosen by a selector type: the built-in ones below, or a user
// selector (any type with a nested `template <typename Limit, typename...
// Components> using chunk = ...;`) passed to `.storage(selector)`. Grouped
// components are laid out SoA (one array each) unless `.aos()` is given.
//
// `component_signatures(...)` checks that no component type is listed twice
// and gives every component type a dense id (its position in the flattened
// list), usable in constant expressions: `list.id(ct::velocity)`,
// `list.ids(tag_list)`, `list.count`. Everything is constexpr and free at run
// time.
#ifndef STRATA_COMPONENT_STORAGE_SIGNATURE_H_
#define STRATA_COMPONENT_STORAGE_SIGNATURE_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/internal/flat_tuple.h"
#include "settings/diagnostic.h"
#include "settings/option_map.h"
#include "settings/tag.h"
#include "settings/type_list.h"

namespace strata {

// Built-in storage selectors; component_storage maps each to its chunk.
namespace storage {
struct contiguous_buffer {};  // slot per entity index; the fastest to iterate
struct sparse {};             // packed sparse set; memory per owning entity
struct hash_map {};           // absl::flat_hash_map; for rare components
}  // namespace storage

namespace layout {
struct soa {};  // one array per component (default)
struct aos {};  // one array of structs holding every component of the group
}  // namespace layout

namespace diagnostic {

template <typename Component>
struct component_in_two_signatures {
  static_assert(always_false<Component>,
                "a component type appears in two component signatures (or "
                "twice in one); each component is stored by exactly one "
                "signature: remove the repeat (the type is named above)");
};

template <typename Component>
struct component_listed_twice_in_signature {
  static_assert(always_false<Component>,
                "component_signature::make(...) lists the same component "
                "twice; list each "
                "component once (the type is named above)");
};

template <typename Components>
struct storage_chosen_twice {
  static_assert(always_false<Components>,
                "component signature: the storage is chosen twice (e.g. "
                ".sparse().hash_map()); choose one storage per signature");
};

template <typename Components>
struct layout_chosen_twice {
  static_assert(always_false<Components>,
                "component signature: the layout is chosen twice (.aos() / "
                ".soa()); choose it once");
};

template <typename Component>
struct unknown_component {
  static_assert(always_false<Component>,
                "this component is not stored by any component signature; "
                "add it to strata::component_signatures(...) (the type is "
                "named above)");
};

}  // namespace diagnostic

namespace component_signature {

namespace keys {
struct components {};
struct storage {};
struct layout {};
}  // namespace keys

// The options of a component signature, with their defaults.
struct defaults {
  static constexpr auto value = make_option_defaults(
      option_default<keys::components>(type_list<>{}),
      option_default<keys::storage>(strata::storage::contiguous_buffer{}),
      option_default<keys::layout>(layout::soa{}));
};

template <typename Map>
struct signature : fluent_settings<signature, Map> {
  using component_types = typename Map::template value_type<keys::components>;
  using storage_type = typename Map::template value_type<keys::storage>;
  using layout_type = typename Map::template value_type<keys::layout>;
  static constexpr bool is_aos = std::is_same_v<layout_type, layout::aos>;

  constexpr auto contiguous_buffer() const {
    return storage(strata::storage::contiguous_buffer{});
  }
  constexpr auto sparse() const { return storage(strata::storage::sparse{}); }
  constexpr auto hash_map() const {
    return storage(strata::storage::hash_map{});
  }
  // Any selector: built-in, or a user type with a nested `chunk` template.
  template <typename Selector>
  constexpr auto storage(Selector selector) const {
    if constexpr (Map::template is_set<keys::storage>()) {
      diagnostic::report<diagnostic::storage_chosen_twice<component_types>>();
    }
    return this->template with_option_unchecked<keys::storage>(selector);
  }

  constexpr auto aos() const { return set_layout(layout::aos{}); }
  constexpr auto soa() const { return set_layout(layout::soa{}); }

 private:
  template <typename Layout>
  constexpr auto set_layout(Layout l) const {
    if constexpr (Map::template is_set<keys::layout>()) {
      diagnostic::report<diagnostic::layout_chosen_twice<component_types>>();
    }
    return this->template with_option_unchecked<keys::layout>(l);
  }
};

template <tag_value... Components>
constexpr auto make(Components...) {
  static_assert(sizeof...(Components) > 0,
                "component_signature::make() needs at least one component tag");
  using list = type_list<tag_type<Components>...>;
  constexpr std::size_t duplicate = first_duplicate_index_v<list>;
  if constexpr (duplicate < sizeof...(Components)) {
    diagnostic::report<diagnostic::component_listed_twice_in_signature<
        type_at_t<duplicate, list>>>();
  }
  constexpr auto options =
      option_map<defaults>{}.set<keys::components>(unique_t<list>{});
  return signature<std::remove_const_t<decltype(options)>>{{options}};
}

}  // namespace component_signature

// The short name of the ECST material.
namespace cs = component_signature;

template <typename T>
inline constexpr bool is_component_signature_v = false;
template <typename Map>
inline constexpr bool
    is_component_signature_v<component_signature::signature<Map>> = true;

template <typename... Signatures>
struct component_signature_list {
  base_internal::flat_tuple<Signatures...> signatures;

  using signature_types = type_list<Signatures...>;
  // Every component type, in declaration order; a component's id is its
  // index here.
  using component_types = concat_t<typename Signatures::component_types...>;
  static constexpr std::size_t count = size_v<component_types>;
  static constexpr std::size_t signature_count = sizeof...(Signatures);

  template <typename Component>
  static constexpr bool stores = contains_v<Component, component_types>;

  template <typename Component>
  static constexpr std::size_t id_of() {
    if constexpr (!stores<Component>) {
      diagnostic::report<diagnostic::unknown_component<Component>>();
    }
    return index_of_v<Component, component_types>;
  }
  template <tag_value Tag>
  static constexpr std::size_t id(Tag) {
    return id_of<tag_type<Tag>>();
  }

  // The component ids of a list of component types.
  template <typename... Components>
  static constexpr std::array<std::size_t, sizeof...(Components)> ids(
      type_list<Components...>) {
    return {id_of<Components>()...};
  }

  // Index of the signature that stores Component.
  template <typename Component>
  static constexpr std::size_t signature_index_of() {
    constexpr bool in[] = {
        contains_v<Component, typename Signatures::component_types>..., false};
    for (std::size_t i = 0; i < sizeof...(Signatures); ++i) {
      if (in[i]) return i;
    }
    return sizeof...(Signatures);
  }
};

template <typename T>
inline constexpr bool is_component_signature_list_v = false;
template <typename... S>
inline constexpr bool
    is_component_signature_list_v<component_signature_list<S...>> = true;

template <typename... Signatures>
constexpr auto component_signatures(Signatures... signatures) {
  static_assert((is_component_signature_v<Signatures> && ...),
                "component_signatures(...) takes "
                "component_signature::make(...) signatures");
  using all = concat_t<typename Signatures::component_types...>;
  constexpr std::size_t duplicate = first_duplicate_index_v<all>;
  if constexpr (duplicate < size_v<all>) {
    diagnostic::report<
        diagnostic::component_in_two_signatures<type_at_t<duplicate, all>>>();
  }
  return component_signature_list<Signatures...>{
      base_internal::flat_tuple<Signatures...>(std::in_place, signatures...)};
}

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_SIGNATURE_H_
