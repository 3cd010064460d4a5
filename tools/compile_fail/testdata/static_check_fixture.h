// A tiny header with a compile-time rule, used to test cc_compile_fail_test.
#ifndef STRATA_TOOLS_COMPILE_FAIL_TESTDATA_STATIC_CHECK_FIXTURE_H_
#define STRATA_TOOLS_COMPILE_FAIL_TESTDATA_STATIC_CHECK_FIXTURE_H_

#include <type_traits>

template <typename T>
constexpr T twice(T value) {
  static_assert(std::is_integral_v<T>, "only integral types are allowed here");
  return value * 2;
}

#endif  // STRATA_TOOLS_COMPILE_FAIL_TESTDATA_STATIC_CHECK_FIXTURE_H_
