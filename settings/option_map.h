// A compile-time map from option keys to values, behind a fluent interface.
//
// Every settings object in Strata (component signatures, system signatures,
// context settings) is an `option_map` wrapped in a small schema class whose
// setters return a *new type*. What was set, and to what type, is therefore
// known to the compiler, and setting an option twice is a compile error.
//
//   struct width_key {};   struct title_key {};
//   constexpr auto defaults = strata::make_option_map(
//       strata::option_default<width_key>(640),
//       strata::option_default<title_key>(strata::tag<void>));
//   constexpr auto map = defaults.set<width_key>(800);      // width now set
//   static_assert(map.get<width_key>() == 800 && map.is_set<width_key>());
//   map.set<width_key>(1024);  // error: option was already set
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
#ifndef STRATA_SETTINGS_OPTION_MAP_H_
#define STRATA_SETTINGS_OPTION_MAP_H_

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "settings/type_list.h"

namespace strata {

template <typename Key, typename Value, bool IsSet>
struct option_entry {
  using key = Key;
  using value_type = Value;
  static constexpr bool is_set = IsSet;
  Value value;
};

// An option with its default value, not yet set.
template <typename Key, typename Value>
constexpr option_entry<Key, Value, false> option_default(Value value) {
  return {value};
}

template <typename... Entries>
struct option_map {
  using keys = type_list<typename Entries::key...>;
  static_assert(first_duplicate_index_v<keys> == sizeof...(Entries),
                "option_map: a key appears twice among the defaults");

  std::tuple<Entries...> entries;

  template <typename Key>
  static constexpr bool has_option() {
    return contains_v<Key, keys>;
  }

  // The entry of Key (a placeholder for unknown keys, so that misuse stops at
  // the static_assert that names it instead of cascading).
  template <typename Key>
  using entry_type = std::conditional_t<
      has_option<Key>(),
      std::tuple_element_t<
          (has_option<Key>() ? index_of_v<Key, keys> : 0),
          std::tuple<Entries..., option_entry<void, void*, false>>>,
      option_entry<Key, void*, false>>;

  template <typename Key>
  static constexpr bool is_set() {
    static_assert(has_option<Key>(),
                  "option_map: this key is not an option of this schema");
    return entry_type<Key>::is_set;
  }

  template <typename Key>
  constexpr const auto& get() const {
    static_assert(has_option<Key>(),
                  "option_map: this key is not an option of this schema");
    return std::get<index_of_v<Key, keys>>(entries).value;
  }

  template <typename Key>
  using value_type = typename entry_type<Key>::value_type;

  // A map equal to this one except that Key holds `value` and is marked set.
  template <typename Key, typename Value>
  constexpr auto set(Value value) const {
    static_assert(has_option<Key>(),
                  "option_map: this key is not an option of this schema");
    static_assert(!entry_type<Key>::is_set,
                  "option set twice in a settings chain: each option may be "
                  "set once (the 'Key = ...' above names it)");
    return set_impl<Key>(value, std::index_sequence_for<Entries...>{});
  }

 private:
  template <typename Key, typename Value, std::size_t... I>
  constexpr auto set_impl(Value value, std::index_sequence<I...>) const {
    constexpr std::size_t target = index_of_v<Key, keys>;
    return option_map<std::conditional_t<
        I == target, option_entry<Key, Value, true>, Entries>...>{
        {pick<I == target, Entries>(std::get<I>(entries), value)...}};
  }

  template <bool Replace, typename Entry, typename Value>
  static constexpr auto pick(const Entry& old, Value value) {
    if constexpr (Replace) {
      return option_entry<typename Entry::key, Value, true>{value};
    } else {
      return old;
    }
  }
};

template <typename... Entries>
constexpr option_map<Entries...> make_option_map(Entries... entries) {
  return {{entries...}};
}

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

#endif  // STRATA_SETTINGS_OPTION_MAP_H_
