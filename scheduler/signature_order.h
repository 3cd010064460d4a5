// The orders a system signature may declare (scheduler/system_signature.h):
// `.in_hierarchy_order()` (parents before children) and
// `.ordered_by(ct::x, compare)`, with the comparisons ordered_by takes:
//
//   strata::system_signature::make(st::draw).read(ct::sprite)
//       .ordered_by(ct::sprite, strata::order_by_member<&sprite::depth>);
//
// `order_by_less` (the default) compares with the component's operator<,
// `order_by_member<&T::m>` with a member's; any stateless callable
// bool(const T&, const T&) that is a strict weak order will do. Empty
// literal types; nothing here costs run time.
#ifndef STRATA_SCHEDULER_SIGNATURE_ORDER_H_
#define STRATA_SCHEDULER_SIGNATURE_ORDER_H_

namespace strata {

// The order .in_hierarchy_order() gives (an item of
// strata::order<...>).
struct hierarchy_order {};

// The order .ordered_by(ct::x, compare) gives (an item of
// strata::order<...>).
template <typename Component, typename Compare>
struct component_order {};

// ordered_by's default comparison: the component's own operator<.
struct order_by_less {
  template <typename T>
  requires requires(const T& a) { a < a; }
  constexpr bool operator()(const T& a, const T& b) const { return a < b; }
};

// ordered_by's comparison by one member: order_by_member<&draw::depth>.
template <auto Member>
struct order_by_member_t {
  template <typename T>
  requires requires(const T& a) { a.*Member < a.*Member; }
  constexpr bool operator()(const T& a, const T& b) const {
    return a.*Member < b.*Member;
  }
};
template <auto Member>
inline constexpr order_by_member_t<Member> order_by_member{};

}  // namespace strata

#endif  // STRATA_SCHEDULER_SIGNATURE_ORDER_H_
