// Compile-time lists of types, the vocabulary of Strata's signatures.
//
// `type_list<Ts...>` is an empty literal type; everything here is evaluated by
// the compiler and costs nothing at run time. Operations:
//   size_v<L>, type_at_t<I, L>, index_of_v<T, L> (size_v<L> if absent),
//   contains_v<T, L>, concat_t<L...>, unique_t<L> (first occurrence kept),
//   first_duplicate_index_v<L> (size_v<L> if none), for_each_type<L>(f)
//   calling f(tag<T>) for each T in order, and tag_list(tags...) to build a
//   list from tag values.
// Lookups are O(size) template instantiations; lists of a few hundred types
// compile quickly.
#ifndef STRATA_META_TYPE_LIST_H_
#define STRATA_META_TYPE_LIST_H_

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "meta/tag.h"

namespace strata {

template <typename... Ts>
struct type_list {
  static constexpr std::size_t size = sizeof...(Ts);
};

template <typename L>
inline constexpr bool is_type_list_v = false;
template <typename... Ts>
inline constexpr bool is_type_list_v<type_list<Ts...>> = true;

template <typename L>
inline constexpr std::size_t size_v = L::size;

namespace type_list_internal {

template <std::size_t I, typename L>
struct type_at;
template <std::size_t I, typename... Ts>
struct type_at<I, type_list<Ts...>> {
  using type = std::tuple_element_t<I, std::tuple<Ts...>>;
};

template <typename T, typename... Ts>
constexpr std::size_t index_of() {
  constexpr bool matches[] = {std::is_same_v<T, Ts>..., false};
  for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
    if (matches[i]) return i;
  }
  return sizeof...(Ts);
}

template <typename T, typename L>
struct index_of_impl;
template <typename T, typename... Ts>
struct index_of_impl<T, type_list<Ts...>> {
  static constexpr std::size_t value = index_of<T, Ts...>();
};

template <typename... Ls>
struct concat;
template <>
struct concat<> {
  using type = type_list<>;
};
template <typename... Ts>
struct concat<type_list<Ts...>> {
  using type = type_list<Ts...>;
};
template <typename... Ts, typename... Us, typename... Rest>
struct concat<type_list<Ts...>, type_list<Us...>, Rest...> {
  using type = typename concat<type_list<Ts..., Us...>, Rest...>::type;
};

template <typename Done, typename Rest>
struct unique;
template <typename... Done>
struct unique<type_list<Done...>, type_list<>> {
  using type = type_list<Done...>;
};
template <typename... Done, typename T, typename... Rest>
struct unique<type_list<Done...>, type_list<T, Rest...>> {
  using type = typename unique<
      std::conditional_t<(std::is_same_v<T, Done> || ...), type_list<Done...>,
                         type_list<Done..., T>>,
      type_list<Rest...>>::type;
};

template <typename L>
struct first_duplicate;
template <typename... Ts>
struct first_duplicate<type_list<Ts...>> {
  static constexpr std::size_t compute() {
    constexpr std::size_t first_index[] = {index_of<Ts, Ts...>()..., 0};
    for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
      if (first_index[i] != i) return i;
    }
    return sizeof...(Ts);
  }
  static constexpr std::size_t value = compute();
};

}  // namespace type_list_internal

template <std::size_t I, typename L>
using type_at_t = typename type_list_internal::type_at<I, L>::type;

template <typename T, typename L>
inline constexpr std::size_t index_of_v =
    type_list_internal::index_of_impl<T, L>::value;

template <typename T, typename L>
inline constexpr bool contains_v = index_of_v<T, L> < size_v<L>;

template <typename... Ls>
using concat_t = typename type_list_internal::concat<Ls...>::type;

template <typename L>
using unique_t = typename type_list_internal::unique<type_list<>, L>::type;

// Index of the first type that already appeared earlier in L; size_v<L> if
// all types are distinct.
template <typename L>
inline constexpr std::size_t first_duplicate_index_v =
    type_list_internal::first_duplicate<L>::value;

template <typename... Ts, typename F>
constexpr void for_each_type(type_list<Ts...>, F&& f) {
  (f(tag<Ts>), ...);
}

template <tag_value... Tags>
constexpr auto tag_list(Tags...) {
  return type_list<tag_type<Tags>...>{};
}

// Applies a template to a list's elements: apply_t<std::tuple, L>.
template <template <typename...> class F, typename L>
struct apply;
template <template <typename...> class F, typename... Ts>
struct apply<F, type_list<Ts...>> {
  using type = F<Ts...>;
};
template <template <typename...> class F, typename L>
using apply_t = typename apply<F, L>::type;

}  // namespace strata

#endif  // STRATA_META_TYPE_LIST_H_
