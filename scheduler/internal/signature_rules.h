// The rules of one system signature (scheduler/system_signature.h), each a
// one-screen report (meta/diagnostic.h) named by the setter that breaks
// it. The rules of a list of signatures are in scheduler/dag.h.
//
// Internal: the signature's setters name these.
#ifndef STRATA_SCHEDULER_INTERNAL_SIGNATURE_RULES_H_
#define STRATA_SCHEDULER_INTERNAL_SIGNATURE_RULES_H_

#include "meta/diagnostic.h"

namespace strata {

namespace diagnostic {

template <typename System, typename Component>
inline constexpr bool component_in_read_and_write = [] {
  static_assert(always_false<System, Component>,
                "a system signature lists a component in both read() and "
                "write(); write() already allows reading: remove it from "
                "read() (system and component are named above)");
  return false;
}();

template <typename System, typename Setter>
inline constexpr bool signature_setter_used_twice = [] {
  static_assert(always_false<System, Setter>,
                "a system signature calls the same setter twice (read, write, "
                "read_optional, write_optional, exclude, read_resource, "
                "write_resource, dependencies, parallelism, output, changed, "
                "added, sends or receives, named above); put every item in "
                "one call");
  return false;
}();

template <typename System, typename Repeated>
inline constexpr bool tag_repeated_in_signature_list = [] {
  static_assert(always_false<System, Repeated>,
                "a system signature repeats a tag or type inside one list "
                "(read(), write(), dependencies(), sends<>()...); list each "
                "once (both are named above)");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool component_in_two_access_lists = [] {
  static_assert(always_false<System, Component>,
                "a system signature lists a component in two of read(), "
                "write(), read_optional(), write_optional() and exclude(); "
                "keep it in one (system and component are named above)");
  return false;
}();

template <typename System, typename Resource>
inline constexpr bool resource_read_and_written = [] {
  static_assert(always_false<System, Resource>,
                "a system signature declares a resource with both "
                "read_resource<T>() and write_resource<T>(); "
                "write_resource already allows reading (system and resource "
                "are named above)");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool change_filter_on_component_not_required = [] {
  static_assert(always_false<System, Component>,
                "a system signature's changed() or added() names a component "
                "that is not in its read() or write(); list the component "
                "there, before the filter (system and component are named "
                "above)");
  return false;
}();

template <typename System, typename Message>
inline constexpr bool message_type_not_plain_data = [] {
  static_assert(always_false<System, Message>,
                "sends<T>() / receives<T>(): a message type must be plain "
                "data, trivially copyable and default-constructible (messages "
                "are copied into reused buffers and dropped at the refresh "
                "without destructors); send an id or an index instead of an "
                "owning member (system and message type are named above)");
  return false;
}();

template <typename System>
inline constexpr bool system_depends_on_itself = [] {
  static_assert(always_false<System>,
                "a system lists itself in dependencies(); a system cannot run "
                "after itself");
  return false;
}();

template <typename System>
inline constexpr bool two_orders_in_signature = [] {
  static_assert(always_false<System>,
                "a system signature declares two orders (ordered_by() and "
                "in_hierarchy_order(), or one of them twice); a system "
                "visits its entities in one order: keep one (the system is "
                "named above)");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool order_component_not_required = [] {
  static_assert(always_false<System, Component>,
                "a system signature's ordered_by() names a component that is "
                "not in its read() or write(); every entity of the system "
                "needs the key: list the component there, before "
                "ordered_by() (system and component are named above)");
  return false;
}();

template <typename System, typename Component, typename Compare>
inline constexpr bool order_compare_not_usable = [] {
  static_assert(always_false<System, Component, Compare>,
                "ordered_by(ct::x, compare): compare must be a stateless "
                "callable (an empty, default-constructible type, such as "
                "strata::order_by_member<&T::m> or a lambda without "
                "captures) taking (const T&, const T&) of the component and "
                "returning bool; without one, the component needs an "
                "operator< (system, component and comparator are named "
                "above)");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool order_component_not_copyable = [] {
  static_assert(always_false<System, Component>,
                "ordered_by(ct::x): the order keeps a copy of each entity's "
                "key to find the keys that changed, so the component must be "
                "copy-constructible and copy-assignable; order by a small "
                "copyable component that holds the key (system and "
                "component are named above)");
  return false;
}();

}  // namespace diagnostic

}  // namespace strata

#endif  // STRATA_SCHEDULER_INTERNAL_SIGNATURE_RULES_H_
