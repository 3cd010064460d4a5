// The lists a system signature's type holds (scheduler/system_signature.h), one
// kind per setter and named after it (`strata::reads<c1, c2>` for read()), and
// the compile-time queries the signature answers from them.
//
// Internal: users name the setters, not these types; compilers spell them
// in messages.
#ifndef STRATA_SCHEDULER_INTERNAL_SIGNATURE_LISTS_H_
#define STRATA_SCHEDULER_INTERNAL_SIGNATURE_LISTS_H_

#include <cstddef>
#include <type_traits>

#include "meta/type_list.h"
#include "scheduler/signature_order.h"

namespace strata {

// The lists a signature's type holds, one per setter, named after it in the
// third person (read() adds `reads<...>`) and declared in namespace strata:
// compilers spell them in every note about a context made from settings
// passed by value, so they are short, and read as what the system does
// (`strata::system<movement, strata::reads<velocity>,
// strata::writes<position>>`). Not `read`/`write`: those would clash with
// the C library's functions in a program that says `using namespace strata`.
template <typename... Components>
struct reads {};
template <typename... Components>
struct writes {};
template <typename... Components>
struct reads_optional {};
template <typename... Components>
struct writes_optional {};
template <typename... Components>
struct excludes {};
template <typename... Resources>
struct reads_resource {};
template <typename... Resources>
struct writes_resource {};
template <typename... Systems>
struct depends_on {};
template <typename... Strategy>  // one
struct parallelism {};
template <typename... Output>  // one
struct outputs {};
template <typename... Components>
struct changed {};
template <typename... Components>
struct added {};
template <typename... Messages>
struct sends {};
template <typename... Messages>
struct receives {};
template <typename... Order>  // one
struct order {};

}  // namespace strata

namespace strata::system_signature {

namespace signature_internal {

// Whether T is one of the lists above (else it is a system type, in the
// flat spelling of a list of signatures: scheduler/dag.h).
template <typename T>
inline constexpr bool is_list_v = false;
template <typename... Ts>
inline constexpr bool is_list_v<reads<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<writes<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<reads_optional<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<writes_optional<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<excludes<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<reads_resource<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<writes_resource<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<depends_on<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<parallelism<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<outputs<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<changed<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<added<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<sends<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<receives<Ts...>> = true;
template <typename... Ts>
inline constexpr bool is_list_v<order<Ts...>> = true;

template <typename List>
struct list_traits;
template <template <typename...> class Kind, typename... Ts>
struct list_traits<Kind<Ts...>> {
  using items = type_list<Ts...>;
  using setter = Kind<>;  // names the setter in a report
};
template <typename List>
using items_t = typename list_traits<List>::items;

// The items of every list of the same kind as Like (one list, or none; two
// after a setter was called twice), as one type_list.
template <typename Like, typename... Lists>
using items_like_t = concat_t<
    std::conditional_t<std::is_same_v<typename list_traits<Lists>::setter,
                                      typename list_traits<Like>::setter>,
                       items_t<Lists>, type_list<>>...>;

// The single item of Items, or Default when it is empty.
template <typename Items, typename Default>
struct single_or {
  using type = Default;
};
template <typename T, typename... More, typename Default>
struct single_or<type_list<T, More...>, Default> {
  using type = T;
};

// The component and comparison of a component_order; void for others.
template <typename Order>
struct order_traits {
  using component = void;
  using compare = void;
};
template <typename Component, typename Compare>
struct order_traits<component_order<Component, Compare>> {
  using component = Component;
  using compare = Compare;
};

// Index in List of its first item that is also in Other; size_v<List> if
// none.
template <typename List, typename Other>
inline constexpr std::size_t first_shared =
    []<typename... Ts>(type_list<Ts...>) {
      constexpr bool shared[] = {contains_v<Ts, Other>..., false};
      std::size_t i = 0;
      while (i < sizeof...(Ts) && !shared[i]) ++i;
      return i;
    }(List{});

// Index in List of its first item that is not in Other; size_v<List> if
// every item is.
template <typename List, typename Other>
inline constexpr std::size_t first_not_in =
    []<typename... Ts>(type_list<Ts...>) {
      constexpr bool in[] = {contains_v<Ts, Other>..., true};
      std::size_t i = 0;
      while (i < sizeof...(Ts) && in[i]) ++i;
      return i;
    }(List{});

// Index in List of its first item that is not plain data (a message type
// must be: trivially copyable, default-constructible, a non-const object);
// size_v<List> if every item is.
template <typename List>
inline constexpr std::size_t first_not_plain =
    []<typename... Ts>(type_list<Ts...>) {
      constexpr bool plain[] = {
          (std::is_trivially_copyable_v<Ts> &&
           std::is_default_constructible_v<Ts> && std::is_object_v<Ts> &&
           !std::is_const_v<Ts>)...,
          true};
      std::size_t i = 0;
      while (i < sizeof...(Ts) && plain[i]) ++i;
      return i;
    }(List{});

}  // namespace signature_internal

}  // namespace strata::system_signature

#endif  // STRATA_SCHEDULER_INTERNAL_SIGNATURE_LISTS_H_
