// Internal to //context: how the settings' setters (context/settings.h)
// report misuse: Strata's messages for an option set twice or a setter
// given the wrong kind of value, and the checked key each setter names.
#ifndef STRATA_CONTEXT_INTERNAL_SETTINGS_CHECKS_H_
#define STRATA_CONTEXT_INTERNAL_SETTINGS_CHECKS_H_

#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename Option>
inline constexpr bool context_option_set_twice = [] {
  static_assert(always_false<Option>,
                "context settings: an option is set twice in the settings "
                "chain (its key is named above); set each option once");
  return false;
}();

template <typename Given>
inline constexpr bool not_component_signatures = [] {
  static_assert(always_false<Given>,
                "settings().component_signatures(x): x must come from "
                "strata::component_signatures(...)");
  return false;
}();

template <typename Given>
inline constexpr bool not_resources = [] {
  static_assert(always_false<Given>,
                "settings().resources(x): x must come from "
                "strata::resources(strata::resource<T>...)");
  return false;
}();

template <typename Given>
inline constexpr bool not_hierarchy_relation = [] {
  static_assert(always_false<Given>,
                "settings().hierarchy(x): x must be strata::kill_children or "
                "strata::detach_children (context/hierarchy.h)");
  return false;
}();

template <typename Given>
inline constexpr bool not_system_signatures = [] {
  static_assert(always_false<Given>,
                "settings().system_signatures(x): x must come from "
                "strata::system_signatures(...)");
  return false;
}();

}  // namespace diagnostic

namespace settings_internal {

// A context settings key, checked: naming once<Key, SetKeys> (SetKeys: the
// keys set so far) reports context_option_set_twice<Key> if Key is among
// them. A variable of the key and the keys only, named in each setter: a
// helper member function would add a note that spells the whole settings
// type (meta/diagnostic.h).
template <typename Key>
struct key {};
template <typename Key, typename SetKeys>
inline constexpr key<Key> once = [] {
  if constexpr (contains_v<Key, SetKeys>) {
    diagnostic::report(diagnostic::context_option_set_twice<Key>);
  }
  return key<Key>{};
}();

}  // namespace settings_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_SETTINGS_CHECKS_H_
