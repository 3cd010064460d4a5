// System signatures: what a system reads, writes, depends on and outputs.
//
//   constexpr auto movement = strata::ss::make(st::movement)
//       .read(ct::velocity)
//       .write(ct::position)           // write implies read
//       .dependencies(st::acceleration)
//       .parallelism(strata::ips::split_evenly_per_core())
//       .output<std::vector<contact>>();
//
// Each setter may be used once per signature (a second call is a compile
// error naming it), a component may not be both in read() and write(), and
// a list may not repeat a tag. The information lives in the signature's type:
// `read_types`, `write_types` (type_lists), `dependency_types`,
// `output_type` (`no_output` by default); the parallelism strategy is a value
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
                "dependencies, parallelism or output, named above); put every "
                "item in one call");
};

template <typename System, typename Repeated>
struct tag_repeated_in_signature_list {
  static_assert(always_false<System, Repeated>,
                "a system signature repeats a tag inside read(), write() or "
                "dependencies(); list each once (both are named above)");
};

template <typename System>
struct system_depends_on_itself {
  static_assert(always_false<System>,
                "a system lists itself in dependencies(); a system cannot run "
                "after itself");
};

}  // namespace diagnostic

namespace ss {

namespace keys {
struct system {};
struct read {};
struct write {};
struct dependencies {};
struct parallelism {};
struct output {};
}  // namespace keys

template <typename Map>
struct system_signature : fluent_settings<system_signature, Map> {
  using system_type = typename Map::template value_type<keys::system>::type;
  using read_types = typename Map::template value_type<keys::read>;
  using write_types = typename Map::template value_type<keys::write>;
  // Everything the system may read: read() and write() together.
  using accessed_types = concat_t<read_types, write_types>;
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
    using list = type_list<tag_type<Components>...>;
    check_list<keys::read, list>();
    check_disjoint<list, write_types>();
    return this->template with_option_unchecked<keys::read>(list{});
  }

  template <tag_value... Components>
  constexpr auto write(Components...) const {
    using list = type_list<tag_type<Components>...>;
    check_list<keys::write, list>();
    check_disjoint<list, read_types>();
    return this->template with_option_unchecked<keys::write>(list{});
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
  template <typename List, typename Other>
  static constexpr void check_disjoint() {
    constexpr std::size_t both = []<typename... Ts>(type_list<Ts...>) {
      constexpr bool in_other[] = {contains_v<Ts, Other>..., false};
      for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
        if (in_other[i]) return i;
      }
      return sizeof...(Ts);
    }(List{});
    if constexpr (both < size_v<List>) {
      diagnostic::report<diagnostic::component_in_read_and_write<
          system_type, type_at_t<both, List>>>();
    }
  }
};

template <tag_value System>
constexpr auto make(System) {
  constexpr auto defaults =
      make_option_map(option_default<keys::system>(tag<tag_type<System>>),
                      option_default<keys::read>(type_list<>{}),
                      option_default<keys::write>(type_list<>{}),
                      option_default<keys::dependencies>(type_list<>{}),
                      option_default<keys::parallelism>(default_parallelism{}),
                      option_default<keys::output>(tag<no_output>));
  return system_signature<std::remove_const_t<decltype(defaults)>>{{defaults}};
}

}  // namespace ss

template <typename T>
inline constexpr bool is_system_signature_v = false;
template <typename Map>
inline constexpr bool is_system_signature_v<ss::system_signature<Map>> = true;

}  // namespace strata

#endif  // STRATA_SCHEDULER_SIGNATURE_H_
