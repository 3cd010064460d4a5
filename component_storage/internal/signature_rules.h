// The rules of component signatures (component_storage/component_signature.h),
// each a one-screen report (meta/diagnostic.h) named by the call that breaks
// it: `component_signature::make(...)` and its setters for one signature,
// `component_signatures(...)` and the list's `id` for the list.
//
// Internal: the signatures' builders name these.
#ifndef STRATA_COMPONENT_STORAGE_INTERNAL_SIGNATURE_RULES_H_
#define STRATA_COMPONENT_STORAGE_INTERNAL_SIGNATURE_RULES_H_

#include "meta/diagnostic.h"

namespace strata {

namespace diagnostic {

template <typename Component>
inline constexpr bool component_in_two_signatures = [] {
  static_assert(always_false<Component>,
                "a component type appears in two component signatures (or "
                "twice in one); each component is stored by exactly one "
                "signature: remove the repeat (the type is named above)");
  return false;
}();

template <typename Component>
inline constexpr bool component_listed_twice_in_signature = [] {
  static_assert(always_false<Component>,
                "component_signature::make(...) lists the same component "
                "twice; list each "
                "component once (the type is named above)");
  return false;
}();

template <typename Components>
inline constexpr bool storage_chosen_twice = [] {
  static_assert(always_false<Components>,
                "component signature: the storage is chosen twice (e.g. "
                ".sparse().hash_map()); choose one storage per signature");
  return false;
}();

template <typename Components>
inline constexpr bool layout_chosen_twice = [] {
  static_assert(always_false<Components>,
                "component signature: the layout is chosen twice (.aos() / "
                ".soa()); choose it once");
  return false;
}();

template <typename Components>
inline constexpr bool serializer_chosen_twice = [] {
  static_assert(always_false<Components>,
                "component signature: .serialize_with(...) is given twice; "
                "choose one serializer per signature");
  return false;
}();

template <typename Component>
inline constexpr bool unknown_component = [] {
  static_assert(always_false<Component>,
                "this component is not stored by any component signature; "
                "add it to strata::component_signatures(...) (the type is "
                "named above)");
  return false;
}();

}  // namespace diagnostic

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_INTERNAL_SIGNATURE_RULES_H_
