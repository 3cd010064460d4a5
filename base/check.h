// Run-time checks with a message that tells the user what went wrong.
//
// STRATA_CHECK(condition, message) is always on: it guards API boundaries
// where bad input would otherwise corrupt state (a value outside a fixed
// set's range, a stale entity handle). On failure it prints
//   strata: check failed: <condition>: <message> [file:line]
// to stderr and aborts; death tests match on that text. The failure path
// never throws (noexcept), so a check adds no exception edge to the code
// around it: a callable that checks stays free of handlers, and small
// enough for the compiler to inline it into a loop.
//
// STRATA_DCHECK is the same check compiled out under NDEBUG, for invariants
// on hot paths that tests exercise in debug builds.
//
// Thread-safety: safe from any thread (writes one line to stderr, then aborts).
#ifndef STRATA_BASE_CHECK_H_
#define STRATA_BASE_CHECK_H_

#include <string_view>

namespace strata::base_internal {

[[noreturn]] void CheckFailed(const char* condition, std::string_view message,
                              const char* file, int line) noexcept;

}  // namespace strata::base_internal

#define STRATA_CHECK(condition, message)                                       \
  (__builtin_expect(static_cast<bool>(condition), 1)                           \
       ? static_cast<void>(0)                                                  \
       : ::strata::base_internal::CheckFailed(#condition, (message), __FILE__, \
                                              __LINE__))

#ifdef NDEBUG
#define STRATA_DCHECK(condition, message) static_cast<void>(0)
#else
#define STRATA_DCHECK(condition, message) STRATA_CHECK(condition, message)
#endif

#endif  // STRATA_BASE_CHECK_H_
