// Internal to Strata: a tuple that is cheap to compile.
//
//   base_internal::flat_tuple<A, B, C> t;            // value-initialized
//   base_internal::flat_tuple<int, float> u(std::in_place, 1, 2.f);
//   base_internal::get<1>(u) = 3.f;                  // by index
//   base_internal::get<float>(u);                    // by type (unique)
//   u.apply([](int& i, float& f) { ... });           // every element
//
// Why not std::tuple: libstdc++'s tuple is a recursive chain of _Tuple_impl
// bases whose every constructor is guarded by a conjunction of traits over
// all elements, so a tuple of N elements costs O(N) class instantiations
// and O(N) constraint checks per constructor, and std::apply and
// std::tuple_cat add index machinery per call. Strata keeps its chunks,
// signatures and option maps in tuples whose size is the user's component
// or system count: in a 64-component program that machinery was the
// largest single cost of compiling the context. Here each element is one
// leaf base `tuple_leaf<I, T>`; the tuple derives from all of them at once
// (one instantiation per element, depth one), `get` is a derived-to-base
// conversion found by deduction, and `apply` expands the leaves in place.
//
// Deliberately small: no converting or allocator constructors, no
// comparisons, no tuple_size/tuple_element protocol (so no structured
// bindings). Empty elements take no room ([[no_unique_address]]). Copy,
// move, triviality and constexpr-ness are the elements'. A flat_tuple of
// structural types is a structural type. Not for user-facing APIs: those
// return std::tuple, which users can bind and compare.
#ifndef STRATA_BASE_INTERNAL_FLAT_TUPLE_H_
#define STRATA_BASE_INTERNAL_FLAT_TUPLE_H_

#include <cstddef>
#include <utility>

namespace strata::base_internal {

// Element I of a flat_tuple. `value` is public so that a flat_tuple of
// structural types stays structural (usable as a template argument).
template <std::size_t I, typename T>
struct tuple_leaf {
  tuple_leaf() = default;
  template <typename U>
  constexpr explicit tuple_leaf(std::in_place_t, U&& init)
      : value(std::forward<U>(init)) {}

  [[no_unique_address]] T value{};
};

template <typename Indices, typename... Ts>
struct flat_tuple_base;

template <std::size_t... Is, typename... Ts>
struct flat_tuple_base<std::index_sequence<Is...>, Ts...>
    : tuple_leaf<Is, Ts>... {
  flat_tuple_base() = default;
  // One argument per element, each forwarded to its element's constructor.
  template <typename... Args>
  requires(sizeof...(Args) ==
           sizeof...(Ts)) constexpr explicit flat_tuple_base(std::in_place_t,
                                                             Args&&... args)
      : tuple_leaf<Is, Ts>(std::in_place, std::forward<Args>(args))... {}

  // f(element 0, element 1, ...).
  template <typename F>
  constexpr decltype(auto) apply(F&& f) & {
    return std::forward<F>(f)(static_cast<tuple_leaf<Is, Ts>&>(*this).value...);
  }
  template <typename F>
  constexpr decltype(auto) apply(F&& f) const& {
    return std::forward<F>(f)(
        static_cast<const tuple_leaf<Is, Ts>&>(*this).value...);
  }
};

template <typename... Ts>
struct flat_tuple : flat_tuple_base<std::index_sequence_for<Ts...>, Ts...> {
  using flat_tuple_base<std::index_sequence_for<Ts...>, Ts...>::flat_tuple_base;
  static constexpr std::size_t size = sizeof...(Ts);
};

// Element I. The leaf type is deduced from the tuple's bases, so no
// recursion and no per-index helper is instantiated.
template <std::size_t I, typename T>
constexpr T& get(tuple_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}
template <std::size_t I, typename T>
constexpr const T& get(const tuple_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}
template <std::size_t I, typename T>
constexpr T&& get(tuple_leaf<I, T>&& leaf) noexcept {
  return static_cast<T&&>(leaf.value);
}

// The element of type T; ill-formed (ambiguous) unless exactly one element
// has type T.
template <typename T, std::size_t I>
constexpr T& get(tuple_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}
template <typename T, std::size_t I>
constexpr const T& get(const tuple_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}

// A flat_tuple of `tuple`'s elements followed by `values`: what
// std::tuple_cat(tuple, std::tuple(values...)) would give, for appending to
// a compile-time option map.
template <typename... Ts, typename... Us>
constexpr flat_tuple<Ts..., Us...> append(const flat_tuple<Ts...>& tuple,
                                          Us... values) {
  return tuple.apply([&](const Ts&... elements) {
    return flat_tuple<Ts..., Us...>(std::in_place, elements..., values...);
  });
}

}  // namespace strata::base_internal

#endif  // STRATA_BASE_INTERNAL_FLAT_TUPLE_H_
