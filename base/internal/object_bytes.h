// Internal to Strata's containers: storage of a trivially copyable type by
// its shape (size and alignment) instead of by its type.
//
//   using stored = base_internal::stored_as_t<T>;   // object_bytes or T
//   std::vector<stored> values;                     // shared per shape
//   values.push_back(base_internal::to_stored<T>(args...));  // trivial T
//   T& t = base_internal::object_in<T>(values[i]);
//
// A container of `object_bytes<sizeof(T), alignof(T)>` is one instantiation
// for every trivially copyable type of that shape, so its growth, move and
// release code is compiled once per shape rather than once per component
// type: most of what a program with many small component types paid in
// compile time. Run time is unchanged: the bytes are moved as the type's
// trivial copy would move them (memcpy).
//
// Why this is sound: the byte array of an object_bytes provides storage for
// a T; copying an object_bytes copies the T's object representation, which
// for a trivially copyable T is its value; object_in<T> reaches the T with
// std::launder. Types that are not trivially copyable are stored as
// themselves (stored_as_t<T> is T, and object_in is the identity).
// `Key` tells apart several columns of one shape in a single type list.
#ifndef STRATA_BASE_INTERNAL_OBJECT_BYTES_H_
#define STRATA_BASE_INTERNAL_OBJECT_BYTES_H_

#include <bit>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "base/internal/make_object.h"

namespace strata::base_internal {

template <std::size_t Size, std::size_t Align, std::size_t Key = 0>
struct alignas(Align) object_bytes {
  std::byte bytes[Size];
};

template <typename T, std::size_t Key = 0>
using stored_as_t =
    std::conditional_t<std::is_trivially_copyable_v<T>,
                       object_bytes<sizeof(T), alignof(T), Key>, T>;

// The T held by `stored` (a stored_as_t<T>).
template <typename T, typename Stored>
T& object_in(Stored& stored) noexcept {
  if constexpr (std::is_same_v<std::remove_const_t<Stored>, T>) {
    return stored;
  } else {
    return *std::launder(reinterpret_cast<T*>(&stored));
  }
}
template <typename T, typename Stored>
const T& object_in(const Stored& stored) noexcept {
  if constexpr (std::is_same_v<Stored, T>) {
    return stored;
  } else {
    return *std::launder(reinterpret_cast<const T*>(&stored));
  }
}

// The array of T held by an array of stored_as_t<T> (for spans).
template <typename T, typename Stored>
T* objects_in(Stored* stored) noexcept {
  if constexpr (std::is_same_v<std::remove_const_t<Stored>,
                               std::remove_const_t<T>>) {
    return stored;
  } else {
    return reinterpret_cast<T*>(stored);
  }
}

// The bytes of a trivially copyable T constructed from `args` (with
// parentheses or braces, as make_object chooses: base/internal/make_object.h).
template <typename T, typename... Args>
requires std::is_trivially_copyable_v<T> stored_as_t<T> to_stored(
    Args&&... args) {
  return std::bit_cast<stored_as_t<T>>(
      make_object<T>(std::forward<Args>(args)...));
}

}  // namespace strata::base_internal

#endif  // STRATA_BASE_INTERNAL_OBJECT_BYTES_H_
