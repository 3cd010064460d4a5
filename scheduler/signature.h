// System signatures: what a system reads, writes, depends on and outputs.
//
//   constexpr auto movement = strata::system_signature::make(st::movement)
//       .read(ct::velocity)
//       .write(ct::position)           // write implies read
//       .exclude(ct::frozen)           // entities with frozen are not in it
//       .read_optional(ct::drag)       // data.try_get(ct::drag, e): T* or null
//       .read_resource<wind>()         // data.resource<wind>(): const wind&
//       .dependencies(st::acceleration)
//       .parallelism(strata::inner_parallelism::split_evenly_per_core())
//       .output<std::vector<contact>>();
//
// What the lists mean:
//   * read(c...), write(c...): the REQUIRED components. The system's
//     entities are those that have every one of them (and none of
//     exclude()); write() allows writing, read() only reading.
//   * read_optional(c...), write_optional(c...): components the system may
//     access on entities that happen to have them (try_get); they do not
//     decide which entities the system sees.
//   * exclude(c...): entities with any of these are not the system's.
//   * read_resource<T>(), write_resource<T>(): global singletons declared in
//     the context settings (strata::resources(strata::resource<T>...)).
// Every access list counts for the data-race check (scheduler/dag.h):
// optional access exactly like required access, resources like components.
//
// Each setter may be used once per signature (a second call is a compile
// error naming it), a component may appear in only one of the five component
// lists, and a list may not repeat a tag. The information lives in the
// signature's type: `read_types`, `write_types`, `optional_read_types`,
// `optional_write_types`, `excluded_types`, `read_resource_types`,
// `write_resource_types`, `dependency_types` (type_lists), `output_type`
// (`no_output` by default); derived: `required_types` (read + write),
// `accessed_types` (everything the system may read), `written_types`
// (everything it may write). The parallelism strategy is a value
// (`parallelism_strategy()`), since strategies may carry run-time numbers.
// Without `.parallelism(...)` a system uses `default_parallelism`: the
// context's choice.
//
// Signatures are constexpr literal values; nothing here costs run time.
#ifndef STRATA_SCHEDULER_SIGNATURE_H_
#define STRATA_SCHEDULER_SIGNATURE_H_

#include <cstddef>
#include <string>
#include <type_traits>

#include "settings/diagnostic.h"
#include "settings/option_map.h"
#include "settings/tag.h"
#include "settings/type_list.h"

namespace strata {

// The output type of a system that has none.
struct no_output {};

// Placeholder strategy: let the context decide how to split the system.
// Described (scheduler/inner_parallelism.h) as "context default".
struct default_parallelism {
  std::string describe() const { return "context default"; }
};

namespace diagnostic {

template <typename System, typename Component>
struct component_in_read_and_write {
  static_assert(always_false<System, Component>,
                "a system signature lists a component in both read() and "
                "write(); write() already allows reading: remove it from "
                "read() (system and component are named above)");
};

template <typename System, typename Setter>
struct signature_setter_used_twice {
  static_assert(always_false<System, Setter>,
                "a system signature calls the same setter twice (read, write, "
                "read_optional, write_optional, exclude, read_resource, "
                "write_resource, dependencies, parallelism or output, named "
                "above); put every item in one call");
};

template <typename System, typename Repeated>
struct tag_repeated_in_signature_list {
  static_assert(always_false<System, Repeated>,
                "a system signature repeats a tag inside read(), write() or "
                "dependencies(); list each once (both are named above)");
};

template <typename System, typename Component>
struct component_in_two_access_lists {
  static_assert(always_false<System, Component>,
                "a system signature lists a component in two of read(), "
                "write(), read_optional(), write_optional() and exclude(); "
                "keep it in one (system and component are named above)");
};

template <typename System, typename Resource>
struct resource_read_and_written {
  static_assert(always_false<System, Resource>,
                "a system signature declares a resource with both "
                "read_resource<T>() and write_resource<T>(); "
                "write_resource already allows reading (system and resource "
                "are named above)");
};

template <typename System>
struct system_depends_on_itself {
  static_assert(always_false<System>,
                "a system lists itself in dependencies(); a system cannot run "
                "after itself");
};

}  // namespace diagnostic

namespace system_signature {

namespace keys {
struct system {};
struct read {};
struct write {};
struct read_optional {};
struct write_optional {};
struct exclude {};
struct read_resources {};
struct write_resources {};
struct dependencies {};
struct parallelism {};
struct output {};
}  // namespace keys

// The options of a system signature, with their defaults (make() sets the
// system).
struct defaults {
  static constexpr auto value = make_option_defaults(
      option_default<keys::system>(tag<void>),
      option_default<keys::read>(type_list<>{}),
      option_default<keys::write>(type_list<>{}),
      option_default<keys::read_optional>(type_list<>{}),
      option_default<keys::write_optional>(type_list<>{}),
      option_default<keys::exclude>(type_list<>{}),
      option_default<keys::read_resources>(type_list<>{}),
      option_default<keys::write_resources>(type_list<>{}),
      option_default<keys::dependencies>(type_list<>{}),
      option_default<keys::parallelism>(default_parallelism{}),
      option_default<keys::output>(tag<no_output>));
};

template <typename Map>
struct signature : fluent_settings<signature, Map> {
  using system_type = typename Map::template value_type<keys::system>::type;
  using read_types = typename Map::template value_type<keys::read>;
  using write_types = typename Map::template value_type<keys::write>;
  using optional_read_types =
      typename Map::template value_type<keys::read_optional>;
  using optional_write_types =
      typename Map::template value_type<keys::write_optional>;
  using excluded_types = typename Map::template value_type<keys::exclude>;
  using read_resource_types =
      typename Map::template value_type<keys::read_resources>;
  using write_resource_types =
      typename Map::template value_type<keys::write_resources>;
  // What an entity must have to be the system's: read() and write().
  using required_types = concat_t<read_types, write_types>;
  // Every component the system may read, and may write.
  using accessed_types = concat_t<read_types, write_types, optional_read_types,
                                  optional_write_types>;
  using written_types = concat_t<write_types, optional_write_types>;
  // Every component the signature names (all must be stored).
  using mentioned_types = concat_t<accessed_types, excluded_types>;
  using accessed_resource_types =
      concat_t<read_resource_types, write_resource_types>;
  using dependency_types =
      typename Map::template value_type<keys::dependencies>;
  using output_type = typename Map::template value_type<keys::output>::type;
  using parallelism_type = typename Map::template value_type<keys::parallelism>;
  static constexpr bool has_output = !std::is_same_v<output_type, no_output>;

  constexpr const parallelism_type& parallelism_strategy() const {
    return this->template get<keys::parallelism>();
  }

  template <tag_value... Components>
  constexpr auto read(Components...) const {
    return with_components<keys::read, type_list<tag_type<Components>...>>();
  }
  template <tag_value... Components>
  constexpr auto write(Components...) const {
    return with_components<keys::write, type_list<tag_type<Components>...>>();
  }
  template <tag_value... Components>
  constexpr auto read_optional(Components...) const {
    return with_components<keys::read_optional,
                           type_list<tag_type<Components>...>>();
  }
  template <tag_value... Components>
  constexpr auto write_optional(Components...) const {
    return with_components<keys::write_optional,
                           type_list<tag_type<Components>...>>();
  }
  template <tag_value... Components>
  constexpr auto exclude(Components...) const {
    return with_components<keys::exclude, type_list<tag_type<Components>...>>();
  }

  template <typename... Resources>
  constexpr auto read_resource() const {
    using list = type_list<Resources...>;
    check_list<keys::read_resources, list>();
    check_resources_disjoint<list, write_resource_types>();
    return this->template with_option_unchecked<keys::read_resources>(list{});
  }
  template <typename... Resources>
  constexpr auto write_resource() const {
    using list = type_list<Resources...>;
    check_list<keys::write_resources, list>();
    check_resources_disjoint<list, read_resource_types>();
    return this->template with_option_unchecked<keys::write_resources>(list{});
  }

  template <tag_value... Systems>
  constexpr auto dependencies(Systems...) const {
    using list = type_list<tag_type<Systems>...>;
    check_list<keys::dependencies, list>();
    if constexpr (contains_v<system_type, list>) {
      diagnostic::report<diagnostic::system_depends_on_itself<system_type>>();
    }
    return this->template with_option_unchecked<keys::dependencies>(list{});
  }

  template <typename Strategy>
  constexpr auto parallelism(Strategy strategy) const {
    check_once<keys::parallelism>();
    return this->template with_option_unchecked<keys::parallelism>(strategy);
  }

  template <typename Output>
  constexpr auto output() const {
    static_assert(
        !std::is_same_v<Output, no_output> && !std::is_reference_v<Output>,
        "output<T>(): T must be an object type");
    check_once<keys::output>();
    return this->template with_option_unchecked<keys::output>(tag<Output>);
  }

 private:
  template <typename Key>
  static constexpr void check_once() {
    if constexpr (Map::template is_set<Key>()) {
      diagnostic::report<
          diagnostic::signature_setter_used_twice<system_type, Key>>();
    }
  }
  template <typename Key, typename List>
  static constexpr void check_list() {
    check_once<Key>();
    constexpr std::size_t duplicate = first_duplicate_index_v<List>;
    if constexpr (duplicate < size_v<List>) {
      diagnostic::report<diagnostic::tag_repeated_in_signature_list<
          system_type, type_at_t<duplicate, List>>>();
    }
  }
  // A component list: checked once set, free of repeats, and disjoint from
  // the other four component lists.
  template <typename Key, typename List>
  constexpr auto with_components() const {
    check_list<Key, List>();
    if constexpr (std::is_same_v<Key, keys::read>) {
      check_read_write_disjoint<List, write_types>();
    } else if constexpr (std::is_same_v<Key, keys::write>) {
      check_read_write_disjoint<List, read_types>();
    }
    check_disjoint<diagnostic::component_in_two_access_lists, List,
                   others_than<Key>>();
    return this->template with_option_unchecked<Key>(List{});
  }
  // The component lists other than Key's (read and write are checked
  // against each other with their own, older message).
  template <typename Key>
  using others_than = concat_t<
      std::conditional_t<std::is_same_v<Key, keys::read> ||
                             std::is_same_v<Key, keys::write>,
                         type_list<>, concat_t<read_types, write_types>>,
      std::conditional_t<std::is_same_v<Key, keys::read_optional>, type_list<>,
                         optional_read_types>,
      std::conditional_t<std::is_same_v<Key, keys::write_optional>, type_list<>,
                         optional_write_types>,
      std::conditional_t<std::is_same_v<Key, keys::exclude>, type_list<>,
                         excluded_types>>;

  template <typename List, typename Other>
  static constexpr void check_read_write_disjoint() {
    check_disjoint<diagnostic::component_in_read_and_write, List, Other>();
  }
  template <typename List, typename Other>
  static constexpr void check_resources_disjoint() {
    check_disjoint<diagnostic::resource_read_and_written, List, Other>();
  }
  // Reports Rule<system, T> for the first T of List that is also in Other.
  template <template <typename, typename> class Rule, typename List,
            typename Other>
  static constexpr void check_disjoint() {
    constexpr std::size_t both = []<typename... Ts>(type_list<Ts...>) {
      constexpr bool in_other[] = {contains_v<Ts, Other>..., false};
      for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
        if (in_other[i]) return i;
      }
      return sizeof...(Ts);
    }(List{});
    if constexpr (both < size_v<List>) {
      diagnostic::report<Rule<system_type, type_at_t<both, List>>>();
    }
  }
};

template <tag_value System>
constexpr auto make(System) {
  constexpr auto options =
      option_map<defaults>{}.set<keys::system>(tag<tag_type<System>>);
  return signature<std::remove_const_t<decltype(options)>>{{options}};
}

}  // namespace system_signature

// The short name of the ECST material.
namespace ss = system_signature;

template <typename T>
inline constexpr bool is_system_signature_v = false;
template <typename Map>
inline constexpr bool is_system_signature_v<system_signature::signature<Map>> =
    true;

}  // namespace strata

#endif  // STRATA_SCHEDULER_SIGNATURE_H_
