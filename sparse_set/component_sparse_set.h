// A sparse set of entity ids carrying one or more component arrays.
//
//   strata::component_sparse_set<Id, T...>
//
// A versioned_sparse_set<Id> (dense ids + paginated, versioned sparse array)
// plus one std::vector per component type, all kept in lockstep: the
// components of the id at dense position p are at position p of every array.
// Erase is swap-and-pop on every array; sort permutes every array in place
// through the sparse array.
// A trivially copyable T is kept in a vector of bytes of its shape
// (base/internal/object_bytes.h), which every such type of that size and
// alignment shares: the vector's code is compiled once per shape, not once
// per component type. Nothing else changes (data() is still a span of T).
//
// Requirements on T: move-constructible and move-assignable without throwing
// (checked at compile time), so that erase and sort can never leave the arrays
// out of step. T need not be default-constructible or copyable.
//
// Contract:
//   * emplace(id, ...): constructs the components in place. A null id, a
//     tombstone id, or an id whose index already has components in this set
//     (any version) is a STRATA_CHECK failure; nothing is constructed then.
//     If a constructor throws, the set is unchanged.
//   * erase(id): no-op returning false unless contains(id).
//   * get(id): STRATA_CHECK failure unless contains(id) (a stale id never
//     reaches another entity's data); try_get(id) returns nullptr instead.
//
// Complexity: as versioned_sparse_set; emplace/erase also move one element
// per array. each(): O(size), touching only dense arrays. sort(): O(n log n)
// compares plus at most n swaps per array. Iterating several sets together:
// for_each_in_all() (for_each_in_all.h).
//
// Iterators, pointers and references: emplace invalidates every pointer and
// reference into the set (vectors may reallocate). erase(id) invalidates
// references to id's components and to the last element's (it is moved into
// id's place). sort/sort_as/clear invalidate all references to components.
// Inside each() the callback must not emplace or erase in the set.
//
// Thread-safety: not thread-safe for writes; concurrent const calls on one
// set are safe. Mutating different components of different entities through
// get() from several threads is safe (distinct objects).
#ifndef STRATA_SPARSE_SET_COMPONENT_SPARSE_SET_H_
#define STRATA_SPARSE_SET_COMPONENT_SPARSE_SET_H_

#include <concepts>
#include <cstddef>
#include <limits>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/internal/object_bytes.h"
#include "base/internal/standard_parts.h"
#include "base/internal/trivial_vector.h"
#include "base/versioned_id.h"
#include "sparse_set/versioned_sparse_set.h"

namespace strata {

namespace sparse_set_internal {

template <typename U, typename... T>
inline constexpr std::size_t count_of =
    (static_cast<std::size_t>(std::is_same_v<U, T>) + ... + 0);

template <typename U, typename... T>
constexpr std::size_t index_of_type() {
  std::size_t index = 0;
  const bool found = ((std::is_same_v<U, T> ? true : (++index, false)) || ...);
  return found ? index : static_cast<std::size_t>(-1);
}

}  // namespace sparse_set_internal

template <versioned_id Id, typename... T>
class component_sparse_set {
  static_assert(sizeof...(T) > 0,
                "component_sparse_set needs at least one component type");
  static_assert((std::is_object_v<T> && ...) && (!std::is_const_v<T> && ...),
                "component_sparse_set: components must be non-const objects");
  static_assert((std::is_nothrow_move_constructible_v<T> && ...),
                "component_sparse_set: components must be nothrow "
                "move-constructible (erase and sort move them)");
  static_assert((std::is_nothrow_move_assignable_v<T> && ...),
                "component_sparse_set: components must be nothrow "
                "move-assignable (erase and sort move them)");

  template <std::size_t I>
  using nth = std::tuple_element_t<I, std::tuple<T...>>;
  // The array of one component type's values (see data_).
  template <typename U>
  using values_of = std::conditional_t<
      std::is_trivially_copyable_v<U>,
      base_internal::trivial_vector<base_internal::stored_as_t<U>>,
      std::vector<U>>;

 public:
  using id_type = Id;
  using id_set_type = versioned_sparse_set<Id>;
  using size_type = std::size_t;
  static constexpr std::size_t component_count = sizeof...(T);

  component_sparse_set() = default;

  // Single component: constructs T from `args` in place.
  template <typename... Args>
  requires(sizeof...(T) == 1 && std::constructible_from<nth<0>, Args...>) nth<0>
  &emplace(Id id, Args&&... args) {
    check_new(id);
    append<0>(std::forward<Args>(args)...);
    commit_or_rollback(id, 1);
    return value<0>(size() - 1);
  }

  // Several components: constructs each T from the matching value.
  template <typename... U>
  requires(sizeof...(T) > 1 && sizeof...(U) == sizeof...(T) &&
           (std::constructible_from<T, U> &&
            ...)) std::tuple<T&...> emplace(Id id, U&&... values) {
    return emplace(id, std::piecewise_construct,
                   std::forward_as_tuple(std::forward<U>(values))...);
  }

  // Constructs component I from the elements of the I-th tuple, in place.
  template <typename... Tuples>
  requires(sizeof...(Tuples) == sizeof...(T)) std::tuple<T&...> emplace(
      Id id, std::piecewise_construct_t, Tuples&&... args) {
    check_new(id);
    std::size_t constructed = 0;
    try {
      emplace_piecewise(std::index_sequence_for<T...>{}, constructed,
                        std::forward<Tuples>(args)...);
    } catch (...) {
      pop_back_first(constructed);
      throw;
    }
    commit_or_rollback(id, sizeof...(T));
    return components_at(size() - 1);
  }

  // Swap-and-pop on the ids and every array; false (no-op) unless contains(id).
  bool erase(Id id) noexcept {
    const size_type position = ids_.find(id);
    if (position == id_set_type::npos) return false;
    move_last_into(position, std::index_sequence_for<T...>{});
    ids_.erase(id);
    return true;
  }

  bool contains(Id id) const noexcept { return ids_.contains(id); }
  size_type find(Id id) const noexcept { return ids_.find(id); }
  size_type index_of(Id id) const { return ids_.index_of(id); }

  // The single component of `id`; STRATA_CHECK failure unless contains(id).
  nth<0>& get(Id id) requires(sizeof...(T) == 1) {
    return value<0>(checked_position(id));
  }
  const nth<0>& get(Id id) const requires(sizeof...(T) == 1) {
    return value<0>(checked_position(id));
  }
  // Component I (by position in T...) of `id`.
  template <std::size_t I>
  nth<I>& get(Id id) {
    return value<I>(checked_position(id));
  }
  template <std::size_t I>
  const nth<I>& get(Id id) const {
    return value<I>(checked_position(id));
  }
  // Component of type U of `id`; U must appear exactly once in T...
  template <typename U>
  requires(sparse_set_internal::count_of<U, T...> == 1) U& get(Id id) {
    return get<sparse_set_internal::index_of_type<U, T...>()>(id);
  }
  template <typename U>
  requires(sparse_set_internal::count_of<U, T...> ==
           1) const U& get(Id id) const {
    return get<sparse_set_internal::index_of_type<U, T...>()>(id);
  }
  // All components of `id`.
  std::tuple<T&...> get_all(Id id) {
    return components_at(checked_position(id));
  }
  std::tuple<const T&...> get_all(Id id) const {
    return components_at(checked_position(id));
  }

  // Pointer to component I of `id`, or nullptr unless contains(id).
  template <std::size_t I = 0>
  nth<I>* try_get(Id id) noexcept {
    const size_type position = ids_.find(id);
    return position == id_set_type::npos ? nullptr : &value<I>(position);
  }
  template <std::size_t I = 0>
  const nth<I>* try_get(Id id) const noexcept {
    const size_type position = ids_.find(id);
    return position == id_set_type::npos ? nullptr : &value<I>(position);
  }

  // Calls f(id, T&...) for every element, in dense order.
  template <typename F>
  void each(F&& f) {
    each_impl(*this, f, std::index_sequence_for<T...>{});
  }
  // Calls f(id, const T&...) for every element, in dense order.
  template <typename F>
  void each(F&& f) const {
    each_impl(*this, f, std::index_sequence_for<T...>{});
  }

  // References to the components at a dense position (< size()).
  std::tuple<T&...> components_at(size_type position) noexcept {
    return components_at_impl(*this, position, std::index_sequence_for<T...>{});
  }
  std::tuple<const T&...> components_at(size_type position) const noexcept {
    return components_at_impl(*this, position, std::index_sequence_for<T...>{});
  }

  // Destroys every component; keeps capacity and pages.
  void clear() noexcept {
    data_.apply([](auto&... values) { (values.clear(), ...); });
    ids_.clear();
  }

  void reserve(size_type n) {
    ids_.reserve(n);
    data_.apply([n](auto&... values) { (values.reserve(n), ...); });
  }

  void shrink_to_fit() {
    ids_.shrink_to_fit();
    data_.apply([](auto&... values) { (values.shrink_to_fit(), ...); });
  }

  // Sorts by `compare`, a strict weak order on ids; components follow.
  template <typename Compare = std::less<Id>>
  void sort(Compare compare = Compare{}) {
    ids_.sort(std::move(compare), data_swapper());
  }

  // Sorts by component I: `compare(const nth<I>&, const nth<I>&)`.
  template <std::size_t I = 0, typename Compare = std::less<nth<I>>>
  void sort_by_data(Compare compare = Compare{}) {
    ids_.sort_by_position(
        [this, &compare](size_type a, size_type b) {
          return compare(std::as_const(value<I>(a)),
                         std::as_const(value<I>(b)));
        },
        data_swapper());
  }

  // Gives this set the order of `other` (a sparse set, or any range of Id);
  // ids absent from `other` come after the rest. Components follow their ids.
  template <typename Other>
  void sort_as(const Other& other) {
    if constexpr (requires { other.ids(); }) {
      ids_.sort_as(other.ids(), data_swapper());
    } else {
      ids_.sort_as(other, data_swapper());
    }
  }

  size_type size() const noexcept { return ids_.size(); }
  bool empty() const noexcept { return ids_.empty(); }

  const id_set_type& id_set() const noexcept { return ids_; }
  std::span<const Id> ids() const noexcept { return ids_.ids(); }
  template <std::size_t I = 0>
  std::span<nth<I>> data() noexcept {
    auto& values = base_internal::get<I>(data_);
    return {base_internal::objects_in<nth<I>>(values.data()), values.size()};
  }
  template <std::size_t I = 0>
  std::span<const nth<I>> data() const noexcept {
    const auto& values = base_internal::get<I>(data_);
    return {base_internal::objects_in<const nth<I>>(values.data()),
            values.size()};
  }

 private:
  void check_new(Id id) const {
    STRATA_CHECK(!id.is_null(), "cannot add components to the null id");
    STRATA_CHECK(!id.has_tombstone_version(),
                 "cannot add components to an id with the tombstone version");
    STRATA_CHECK(
        !ids_.contains_index(id.index()),
        "emplace: this entity index already has components in this set");
  }

  size_type checked_position(Id id) const {
    const size_type position = ids_.find(id);
    STRATA_CHECK(position != id_set_type::npos,
                 "get: id not in this component set (stale or never added)");
    return position;
  }

  template <std::size_t... I, typename... Tuples>
  void emplace_piecewise(std::index_sequence<I...>, std::size_t& constructed,
                         Tuples&&... args) {
    (
        [&] {
          std::apply(
              [this](auto&&... a) {
                this->template append<I>(std::forward<decltype(a)>(a)...);
              },
              std::forward<Tuples>(args));
          ++constructed;
        }(),
        ...);
  }

  // Pops the last element of the first `count` arrays.
  void pop_back_first(std::size_t count) noexcept {
    data_.apply([count](auto&... values) {
      std::size_t i = 0;
      ((i++ < count ? values.pop_back() : void()), ...);
    });
  }

  // Every array has grown by one; insert the id, or undo on failure.
  void commit_or_rollback(Id id, std::size_t constructed) {
    try {
      ids_.insert(id);
    } catch (...) {
      pop_back_first(constructed);
      throw;
    }
  }

  // Erase's swap-and-pop. The move is typed (not a copy of the stored
  // bytes): a byte copy may alias anything, and the compiler would reload
  // the id set's pages after it.
  template <std::size_t... I>
  void move_last_into(size_type position, std::index_sequence<I...>) noexcept {
    const size_type last = size() - 1;
    if (position != last) {
      ((value<I>(position) = std::move(value<I>(last))), ...);
    }
    (base_internal::get<I>(data_).pop_back(), ...);
  }

  auto data_swapper() noexcept {
    return [this](size_type a, size_type b) {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        using std::swap;
        (swap(value<I>(a), value<I>(b)), ...);
      }
      (std::index_sequence_for<T...>{});
    };
  }

  template <typename Self, typename F, std::size_t... I>
  static void each_impl(Self& self, F& f, std::index_sequence<I...>) {
    const Id* const ids = self.ids_.data();
    const size_type n = self.ids_.size();
    for (size_type pos = 0; pos < n; ++pos) {
      f(ids[pos], self.template value<I>(pos)...);
    }
  }

  // Component I at a dense position.
  template <std::size_t I>
  nth<I>& value(size_type position) noexcept {
    return base_internal::object_in<nth<I>>(
        base_internal::get<I>(data_)[position]);
  }
  template <std::size_t I>
  const nth<I>& value(size_type position) const noexcept {
    return base_internal::object_in<nth<I>>(
        base_internal::get<I>(data_)[position]);
  }

  // Constructs component I at the end of its array.
  template <std::size_t I, typename... Args>
  void append(Args&&... args) {
    auto& values = base_internal::get<I>(data_);
    if constexpr (std::is_trivially_copyable_v<nth<I>>) {
      values.push_back(
          base_internal::to_stored<nth<I>>(std::forward<Args>(args)...));
    } else {
      values.emplace_back(std::forward<Args>(args)...);
    }
  }

  template <typename Self, std::size_t... I>
  static auto components_at_impl(Self& self, size_type position,
                                 std::index_sequence<I...>) noexcept {
    return std::tuple<decltype(self.template value<I>(position))...>(
        self.template value<I>(position)...);
  }

  id_set_type ids_;
  // A trivially copyable component is stored as bytes of its shape
  // (base/internal/object_bytes.h) in a trivial_vector, whose memory code is
  // compiled once (base/internal/trivial_vector.h); others in a std::vector.
  base_internal::flat_tuple<values_of<T>...> data_;
};

}  // namespace strata

#endif  // STRATA_SPARSE_SET_COMPONENT_SPARSE_SET_H_
