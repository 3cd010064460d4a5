// Component signatures: which storage holds which component types.
//
//   constexpr auto components = strata::component_signatures(
//       // SoA buffer
//       strata::component_signature::make(ct::position, ct::velocity),
//       // interleaved
//       strata::component_signature::make(ct::color, ct::circle).aos(),
//       // packed set
//       strata::component_signature::make(ct::health).sparse(),
//       // rare
//       strata::component_signature::make(ct::debug_name).hash_map());
//
// The namespace is strata::component_signature; strata::cs is an optional
// short alias of it. Compiler messages spell a signature's type,
// strata::group<...>, and the list's, strata::components<...>.
//
// A signature groups one or more component types in one storage chunk. The
// storage is chosen by a selector type: the built-in ones below, or a user
// selector (any type with a nested `template <typename Limit, typename...
// Components> using chunk = ...;`) passed to `.storage(selector)`. Grouped
// components are laid out SoA (one array each) unless `.aos()` is given.
//
// `.serialize_with(io)` chooses how ctx.save / ctx.load (context/save_load.h)
// write and read the group's components: `io` is a type with
// `static void save(std::ostream&, const T&)` and
// `static bool load(std::istream&, T&)` for each T of the group (false: the
// bytes are not a T), e.g. strata::cereal_io (context/cereal_io.h). Without
// it a trivially copyable component is saved as its bytes, and saving any
// other is a compile error naming it.
//
// `component_signatures(...)` checks that no component type is listed twice
// and gives every component type a dense id (its position in the flattened
// list), usable in constant expressions: `list.id(ct::velocity)`,
// `list.ids(tag_list)`, `list.count`. Everything is constexpr and free at run
// time.
#ifndef STRATA_COMPONENT_STORAGE_COMPONENT_SIGNATURE_H_
#define STRATA_COMPONENT_STORAGE_COMPONENT_SIGNATURE_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/internal/flat_tuple.h"
#include "component_storage/internal/signature_rules.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

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

// A component signature's type (component_signature::signature in code).
// Declared in namespace strata with a short name: compilers spell it in
// every note about a context made from settings passed by value.
template <typename... Parts>
struct group;

namespace component_signature {

namespace signature_internal {

template <typename T>
inline constexpr bool is_layout_v =
    std::is_same_v<T, layout::soa> || std::is_same_v<T, layout::aos>;

// The first of Options that Pick keeps, else Default.
template <template <typename> class Pick, typename Default, typename... Options>
struct first_option {
  using type = Default;
};
template <template <typename> class Pick, typename Default, typename First,
          typename... Rest>
struct first_option<Pick, Default, First, Rest...> {
  using type =
      std::conditional_t<Pick<First>::value, First,
                         typename first_option<Pick, Default, Rest...>::type>;
};
// The option .serialize_with(io) sets.
template <typename Io>
struct serializer_option {
  using type = Io;
};
template <typename T>
inline constexpr bool is_serializer_v = false;
template <typename Io>
inline constexpr bool is_serializer_v<serializer_option<Io>> = true;
// No serializer chosen: bytes for trivially copyable components.
struct no_serializer {};

template <typename T>
struct is_layout : std::bool_constant<is_layout_v<T>> {};
template <typename T>
struct is_serializer : std::bool_constant<is_serializer_v<T>> {};
template <typename T>
struct is_storage : std::bool_constant<!is_layout_v<T> && !is_serializer_v<T>> {
};

}  // namespace signature_internal

// The options that were set, in order: a storage selector, a layout, a
// serializer. First in a signature's type when there are any.
template <typename... Options>
struct with {};

// The components, after the options set if any. Only what was set is in
// the type, so compiler messages spell make(ct::health) as
// strata::group<health> and make(ct::health).sparse() as
// strata::group<strata::component_signature::with<strata::storage::sparse>,
// health> (strata::group, below).
template <typename... Parts>
using signature = group<Parts...>;

namespace signature_internal {

template <typename... Parts>
struct parts {
  using components = type_list<Parts...>;
  using options = with<>;
};
template <typename... Options, typename... Components>
struct parts<with<Options...>, Components...> {
  using components = type_list<Components...>;
  using options = with<Options...>;
};

// The signature of these options and components.
template <typename Options, typename Components>
struct assemble;
template <typename... Options, typename... Components>
struct assemble<with<Options...>, type_list<Components...>> {
  using type = signature<with<Options...>, Components...>;
};
template <typename... Components>
struct assemble<with<>, type_list<Components...>> {
  using type = signature<Components...>;
};

// What a signature answers and its setters, from its components (a
// type_list) and its options (a with<...>).
template <typename Components, typename Options>
struct body;
template <typename Components, typename... Options>
struct body<Components, with<Options...>> {
  using component_types = Components;
  using storage_type =
      typename first_option<is_storage, strata::storage::contiguous_buffer,
                            Options...>::type;
  using layout_type =
      typename first_option<is_layout, layout::soa, Options...>::type;
  static constexpr bool is_aos = std::is_same_v<layout_type, layout::aos>;
  // The type given to .serialize_with(...), or no_serializer.
  using serializer_type =
      typename first_option<is_serializer, serializer_option<no_serializer>,
                            Options...>::type::type;

  constexpr auto contiguous_buffer() const {
    return storage(strata::storage::contiguous_buffer{});
  }
  constexpr auto sparse() const { return storage(strata::storage::sparse{}); }
  constexpr auto hash_map() const {
    return storage(strata::storage::hash_map{});
  }
  // Any selector: built-in, or a user type with a nested `chunk` template.
  template <typename Selector>
  constexpr auto storage(Selector) const {
    if constexpr ((is_storage<Options>::value || ...)) {
      diagnostic::report(diagnostic::storage_chosen_twice<component_types>);
      return same{};
    } else {
      return with_option<Selector>{};
    }
  }

  constexpr auto aos() const { return set_layout<layout::aos>(); }
  constexpr auto soa() const { return set_layout<layout::soa>(); }

  // How ctx.save / ctx.load write and read these components (see the top
  // of this file).
  template <typename Io>
  constexpr auto serialize_with(Io) const {
    if constexpr ((is_serializer_v<Options> || ...)) {
      diagnostic::report(diagnostic::serializer_chosen_twice<component_types>);
      return same{};
    } else {
      return with_option<serializer_option<Io>>{};
    }
  }

 private:
  using same = typename assemble<with<Options...>, Components>::type;
  template <typename Option>
  using with_option =
      typename assemble<with<Options..., Option>, Components>::type;

  template <typename Layout>
  constexpr auto set_layout() const {
    if constexpr ((is_layout_v<Options> || ...)) {
      diagnostic::report(diagnostic::layout_chosen_twice<component_types>);
      return same{};
    } else {
      return with_option<Layout>{};
    }
  }
};

}  // namespace signature_internal

}  // namespace component_signature

template <typename... Parts>
struct group : component_signature::signature_internal::body<
                   typename component_signature::signature_internal::parts<
                       Parts...>::components,
                   typename component_signature::signature_internal::parts<
                       Parts...>::options> {};

namespace component_signature {

template <tag_value... Components>
constexpr auto make(Components...) {
  static_assert(sizeof...(Components) > 0,
                "component_signature::make() needs at least one component tag");
  using list = type_list<tag_type<Components>...>;
  constexpr std::size_t duplicate = first_duplicate_index_v<list>;
  if constexpr (duplicate < sizeof...(Components)) {
    diagnostic::report(diagnostic::component_listed_twice_in_signature<
                       type_at_t<duplicate, list>>);
  }
  return typename signature_internal::assemble<with<>, unique_t<list>>::type{};
}

}  // namespace component_signature

// The short name, optional: cs::make(...). Compiler messages spell the
// types, strata::group and strata::components, not the namespace.
namespace cs = component_signature;

template <typename T>
inline constexpr bool is_component_signature_v = false;
template <typename... Parts>
inline constexpr bool is_component_signature_v<group<Parts...>> = true;

// The list component_signatures(...) builds, named component_signature_list
// in code. Spelled `strata::components<...>` in compiler messages: every
// note about a context made from settings passed by value spells it, so it
// has a short name in namespace strata.
template <typename... Signatures>
struct components {
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
      diagnostic::report(diagnostic::unknown_component<Component>);
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

  // Index of the signature that stores Component (signature_count if
  // none). One lookup in the component list and one in a table built once
  // per list: a test of every signature per component costs compile time
  // that grows with the square of the component count.
  template <typename Component>
  static constexpr std::size_t signature_index_of() {
    return signature_of_id[index_of_v<Component, component_types>];
  }

 private:
  // signature_of_id[id]: the signature storing component `id` (components
  // are numbered in signature order); [count] is signature_count.
  static constexpr std::array<std::size_t, count + 1> signature_of_id = [] {
    constexpr std::array<std::size_t, signature_count> sizes = {
        size_v<typename Signatures::component_types>...};
    std::array<std::size_t, count + 1> table{};
    std::size_t id = 0;
    for (std::size_t signature = 0; signature < signature_count; ++signature) {
      for (std::size_t k = 0; k < sizes[signature]; ++k) {
        table[id++] = signature;
      }
    }
    table[count] = signature_count;
    return table;
  }();
};

namespace component_signature {
template <typename... Signatures>
using list = components<Signatures...>;
}  // namespace component_signature

template <typename... Signatures>
using component_signature_list = components<Signatures...>;

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
    diagnostic::report(
        diagnostic::component_in_two_signatures<type_at_t<duplicate, all>>);
  }
  return component_signature_list<Signatures...>{
      base_internal::flat_tuple<Signatures...>(std::in_place, signatures...)};
}

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_COMPONENT_SIGNATURE_H_
