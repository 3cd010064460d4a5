// Internal to Strata: constructing a T from arguments the way a user means
// them, on every compiler Strata supports.
//
//   T* p = base_internal::construct_object<T>(where, args...);  // in place
//   T t = base_internal::make_object<T>(args...);               // by value
//
// Both use parentheses when T has a constructor taking `args`, else braces:
// an aggregate such as `struct position { float x, y; }` then works from
// `(x, y)` on compilers without parenthesized aggregate initialization
// (Clang 14), exactly as with GCC 12, which has it. Braces only where
// parentheses cannot compile, so a type with an initializer_list
// constructor still gets its ordinary constructors from (args...).
//
// One definition of the choice for every place Strata builds a component
// (chunks, sparse sets, the scratch slots of refused creations): they must
// agree, or one storage would accept arguments another rejects.
#ifndef STRATA_BASE_INTERNAL_MAKE_OBJECT_H_
#define STRATA_BASE_INTERNAL_MAKE_OBJECT_H_

#include <new>
#include <type_traits>
#include <utility>

namespace strata::base_internal {

template <typename T, typename... Args>
T* construct_object(void* where, Args&&... args) {
  if constexpr (std::is_constructible_v<T, Args...>) {
    return ::new (where) T(std::forward<Args>(args)...);
  } else {
    return ::new (where) T{std::forward<Args>(args)...};
  }
}

template <typename T, typename... Args>
T make_object(Args&&... args) {
  if constexpr (std::is_constructible_v<T, Args...>) {
    return T(std::forward<Args>(args)...);
  } else {
    return T{std::forward<Args>(args)...};
  }
}

}  // namespace strata::base_internal

#endif  // STRATA_BASE_INTERNAL_MAKE_OBJECT_H_
