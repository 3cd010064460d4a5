// The entries of a context settings' type (context/settings.h): the keys
// of its options, the entries of the options set by a run-time number or a
// flag, how an entry names its key and holds its value, and the defaults.
//
// Internal: users reach these through strata::settings() and its setters;
// context_keys are named in messages (an option set twice) and by the
// context when it reads the settings (settings.template get<Key>()).
#ifndef STRATA_CONTEXT_INTERNAL_SETTINGS_ENTRIES_H_
#define STRATA_CONTEXT_INTERNAL_SETTINGS_ENTRIES_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/limit.h"
#include "component_storage/component_signature.h"
#include "context/hierarchy.h"
#include "context/hooks.h"
#include "context/resources.h"
#include "meta/option_map.h"
#include "meta/type_list.h"
#include "scheduler/atomic_counter.h"
#include "scheduler/dag.h"
#include "scheduler/hand_off.h"
#include "scheduler/sequential.h"

namespace strata {

// The options' keys: what a setter called twice is reported by
// (context_option_set_twice<context_keys::threads>), and what the context
// reads the settings by (settings.template get<context_keys::threads>()).
namespace context_keys {
struct entity_limit {};
struct inner_parallelism {};
struct components {};
struct systems {};
struct resources {};
struct checked_access {};
struct hand_off {};
struct scheduler {};
struct threads {};
struct refresh_parallelism {};
struct trace {};
struct hooks {};
struct hierarchy {};
struct run_policy {};
}  // namespace context_keys

// The entries of the options whose value is a run-time number or a flag,
// each named after its setter and holding its value, so that the settings'
// type reads as the calls made
// (`strata::settings_t<..., strata::allow_inner_parallelism,
// strata::threads>`). They are in namespace strata, with no more words than
// the setter's, because compilers spell them in every note about a context
// made from settings passed by value; users never name them.
struct allow_inner_parallelism {
  using key = context_keys::inner_parallelism;
  static constexpr std::true_type value{};
};
struct disallow_inner_parallelism {
  using key = context_keys::inner_parallelism;
  static constexpr std::false_type value{};
};
struct checked_access {
  using key = context_keys::checked_access;
  static constexpr std::true_type value{};
};
struct threads {
  using key = context_keys::threads;
  std::size_t value;
};
struct refresh_parallelism {
  using key = context_keys::refresh_parallelism;
  bool value;
};
struct trace {
  using key = context_keys::trace;
  static constexpr std::true_type value{};
};

namespace settings_internal {

// The option an entry of the settings' type sets, and its value. An entry
// with `key` and `value` members (the entries above, strata::option) holds
// its value; a value whose type belongs to one option (a signature list, a
// limit, a relation, a built-in scheduler, a run policy, a hand-off mode)
// is its own entry, so the settings' type spells the value alone.
template <typename Entry>
struct entry_traits {
  using key = typename Entry::key;
  static constexpr bool holds_value = true;
};
template <typename Key>
struct own_entry {
  using key = Key;
  static constexpr bool holds_value = false;
};
template <typename... S>
struct entry_traits<component_signature_list<S...>>
    : own_entry<context_keys::components> {};
template <typename... Parts>
struct entry_traits<systems<Parts...>> : own_entry<context_keys::systems> {};
template <typename... R>
struct entry_traits<resource_list<R...>> : own_entry<context_keys::resources> {
};
template <typename... H>
struct entry_traits<component_hook_list<H...>>
    : own_entry<context_keys::hooks> {};
template <std::size_t N>
struct entry_traits<fixed_limit<N>> : own_entry<context_keys::entity_limit> {};
template <>
struct entry_traits<dynamic_limit> : own_entry<context_keys::entity_limit> {};
template <bool Kill>
struct entry_traits<hierarchy_relation<Kill>>
    : own_entry<context_keys::hierarchy> {};
template <>
struct entry_traits<scheduler::sequential_t>
    : own_entry<context_keys::scheduler> {};
template <>
struct entry_traits<scheduler::atomic_counter_t>
    : own_entry<context_keys::scheduler> {};
template <>
struct entry_traits<::strata::hand_off> : own_entry<context_keys::hand_off> {};
template <>
struct entry_traits<run_policy::fixed_t> : own_entry<context_keys::run_policy> {
};
template <>
struct entry_traits<run_policy::adaptive_t>
    : own_entry<context_keys::run_policy> {};

template <typename Entry>
using key_of = typename entry_traits<Entry>::key;

// The entry for Value set under Key: Value itself when it is its own entry
// for Key, else strata::option<Key, Value> (a user's scheduler).
template <typename Key, typename Value>
constexpr auto entry_for(Value value) {
  if constexpr (requires { typename entry_traits<Value>::key; }) {
    if constexpr (std::is_same_v<key_of<Value>, Key>) {
      return value;
    } else {
      return option<Key, Value>{value};
    }
  } else {
    return option<Key, Value>{value};
  }
}

template <typename Entry>
constexpr const auto& value_of(const Entry& entry) {
  if constexpr (entry_traits<Entry>::holds_value) {
    return entry.value;
  } else {
    return entry;
  }
}

// The type of Key's value in settings of these entries.
template <typename Key, typename Defaults, typename... Entries>
struct value_type_of {
  static constexpr std::size_t index =
      index_of_v<Key, type_list<key_of<Entries>...>>;
  static constexpr auto pick() {
    if constexpr (index < sizeof...(Entries)) {
      using entry = type_at_t<index, type_list<Entries...>>;
      return std::type_identity<std::remove_cvref_t<decltype(value_of(
          std::declval<const entry&>()))>>{};
    } else {
      return std::type_identity<
          std::remove_cvref_t<decltype(Defaults::value.template get<Key>())>>{};
    }
  }
  using type = typename decltype(pick())::type;
};

}  // namespace settings_internal

namespace context_internal {

// The options of context settings, with their defaults: what
// settings_t::get<Key>() gives for an option left unset. Not part of the
// settings' type, so never spelled in a message.
struct context_defaults {
  static constexpr auto value = make_option_defaults(
      option_default<context_keys::entity_limit>(dynamic_limit{}),
      option_default<context_keys::inner_parallelism>(std::false_type{}),
      option_default<context_keys::components>(component_signature_list<>{}),
      option_default<context_keys::systems>(system_signature_list<>{}),
      option_default<context_keys::resources>(resource_list<>{}),
      option_default<context_keys::checked_access>(std::false_type{}),
      option_default<context_keys::hand_off>(hand_off::automatic),
      option_default<context_keys::scheduler>(scheduler::sequential),
      option_default<context_keys::threads>(std::size_t{0}),
      option_default<context_keys::refresh_parallelism>(true),
      option_default<context_keys::trace>(std::false_type{}),
      option_default<context_keys::hooks>(component_hook_list<>{}),
      option_default<context_keys::hierarchy>(no_hierarchy{}),
      option_default<context_keys::run_policy>(run_policy::adaptive));
};

}  // namespace context_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_SETTINGS_ENTRIES_H_
