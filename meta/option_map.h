// A compile-time map from option keys to values, behind a fluent interface.
//
// A user's own settings schema is an `option_map` wrapped in a small schema
// class whose setters return a *new type*. (Strata's context settings keep
// the same rules in a flatter type, context/settings.h, and take their
// defaults from an `option_defaults`.) What was
// set, and to what type, is therefore known to the compiler, and setting an
// option twice is a compile error.
//
//   struct width_key {};   struct title_key {};
//   struct window_defaults {   // names the schema's options and defaults
//     static constexpr auto value = strata::make_option_defaults(
//         strata::option_default<width_key>(640),
//         strata::option_default<title_key>(strata::tag<void>));
//   };
//   constexpr strata::option_map<window_defaults> defaults{};
//   constexpr auto map = defaults.set<width_key>(800);      // width now set
//   static_assert(map.get<width_key>() == 800 && map.is_set<width_key>());
//   map.set<width_key>(1024);  // error: option was already set
//
// A map's type holds the *name* of its defaults and only the options that
// were set, in the order they were set:
//   option_map<window_defaults, option<width_key, int>>
// That keeps the types short, which is what a compiler prints in every
// message and spells in every symbol: settings that set two of their eleven
// options carry two options in their type, not eleven. (Component and system
// signatures, printed in most of Strata's messages, go further: their types
// hold only the lists that were set, with no keys and no defaults; see
// scheduler/system_signature.h.)
//
// A user schema derives from `fluent_settings<Schema, Map>` and calls
// `with_option<Key>(value)` in its setters, or static_asserts its own message
// and calls `with_option_unchecked<Key>(value)` (see
// testdata/window_settings.h).
//
// Keys are types; values are literal types (their *type* may carry the
// information, e.g. `std::integral_constant` or a `type_list`, or an ordinary
// value may, e.g. a thread count). All operations are constexpr and cost
// nothing at run time; maps are trivially copyable when their values are.
#ifndef STRATA_META_OPTION_MAP_H_
#define STRATA_META_OPTION_MAP_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/internal/flat_tuple.h"
#include "meta/type_list.h"

namespace strata {

// One option: its key and its value.
template <typename Key, typename Value>
struct option {
  using key = Key;
  using value_type = Value;
  Value value;
};

template <typename Key, typename Value>
constexpr option<Key, Value> option_default(Value value) {
  return {value};
}

// Every option of a schema with its default value.
template <typename... Options>
struct option_defaults {
  using keys = type_list<typename Options::key...>;
  static_assert(first_duplicate_index_v<keys> == sizeof...(Options),
                "option_map: a key appears twice among the defaults");

  base_internal::flat_tuple<Options...> options;

  template <typename Key>
  constexpr const auto& get() const {
    return base_internal::get<index_of_v<Key, keys>>(options).value;
  }
};

template <typename... Options>
constexpr option_defaults<Options...> make_option_defaults(Options... options) {
  return {base_internal::flat_tuple<Options...>(std::in_place, options...)};
}

// `Defaults` is a type with `static constexpr option_defaults<...> value`;
// `Set...` are the options set so far (option<Key, Value>).
template <typename Defaults, typename... Set>
struct option_map {
  using keys = typename std::remove_cvref_t<decltype(Defaults::value)>::keys;
  using set_keys = type_list<typename Set::key...>;

  base_internal::flat_tuple<Set...> options;

  template <typename Key>
  static constexpr bool has_option() {
    return contains_v<Key, keys>;
  }

  template <typename Key>
  static constexpr bool is_set() {
    static_assert(has_option<Key>(),
                  "option_map: this key is not an option of this schema");
    return contains_v<Key, set_keys>;
  }

  template <typename Key>
  constexpr const auto& get() const {
    static_assert(has_option<Key>(),
                  "option_map: this key is not an option of this schema");
    if constexpr (contains_v<Key, set_keys>) {
      return base_internal::get<index_of_v<Key, set_keys>>(options).value;
    } else {
      return Defaults::value.template get<Key>();
    }
  }

  // The type of Key's value (void* for a key the schema does not have, so
  // that misuse stops at the static_assert that names it, not in a cascade).
  template <typename Key>
  static constexpr auto value_of() {
    if constexpr (!has_option<Key>()) {
      return std::type_identity<void*>{};
    } else {
      return std::type_identity<std::remove_cvref_t<
          decltype(std::declval<const option_map&>().template get<Key>())>>{};
    }
  }
  template <typename Key>
  using value_type = typename decltype(value_of<Key>())::type;

  // A map equal to this one except that Key holds `value` and is marked set.
  template <typename Key, typename Value>
  constexpr auto set(Value value) const {
    static_assert(has_option<Key>(),
                  "option_map: this key is not an option of this schema");
    static_assert(!contains_v<Key, set_keys>,
                  "option set twice in a settings chain: each option may be "
                  "set once (the 'Key = ...' above names it)");
    return option_map<Defaults, Set..., option<Key, Value>>{
        base_internal::append(options, option<Key, Value>{value})};
  }
};

// Base of fluent settings schemas: `Schema<Map>` derives from
// `fluent_settings<Schema, Map>`, and each setter returns
// `this->template with_option<Key>(value)`, a `Schema<NewMap>`.
template <template <typename> class Schema, typename Map>
struct fluent_settings {
  Map options;

  template <typename Key>
  static constexpr bool is_set() {
    return Map::template is_set<Key>();
  }
  template <typename Key>
  constexpr const auto& get() const {
    return options.template get<Key>();
  }

 protected:
  // Sets Key; a second set is a compile error with a generic message.
  template <typename Key, typename Value>
  constexpr auto with_option(Value value) const {
    using new_map = decltype(options.template set<Key>(value));
    return Schema<new_map>{{options.template set<Key>(value)}};
  }

  // For setters that static_assert their own, clearer message first: when Key
  // is already set this returns the settings unchanged, so the user sees that
  // one message and no cascade.
  template <typename Key, typename Value>
  constexpr auto with_option_unchecked(Value value) const {
    if constexpr (Map::template is_set<Key>()) {
      return Schema<Map>{{options}};
    } else {
      return with_option<Key>(value);
    }
  }
};

}  // namespace strata

#endif  // STRATA_META_OPTION_MAP_H_
