// What every program that includes strata.h parses of the standard library:
// none of the headers below, each of which brings far more than Strata uses
// (docs/ARCHITECTURE.md, "Only the standard library a header uses"). The
// headers make text only when a caller asks for it (see
// base/internal/dependent_string.h), and a caller that includes <string>
// itself, here after them, gets the same text as before.
#include "strata.h"

#if defined(__GLIBCXX__)
#if defined(_GLIBCXX_STRING)
#error "a header strata.h reaches includes <string>; make its text in a .cc"
#endif
#if defined(_GLIBCXX_ATOMIC)
#error "a header strata.h reaches includes <atomic>; use atomic_value.h"
#endif
#if defined(_GLIBCXX_MEMORY)
#error "a header strata.h reaches includes <memory>; use owned_ptr.h"
#endif
#if defined(_GLIBCXX_OSTREAM)
#error "a header strata.h reaches includes <ostream>; declare against <iosfwd>"
#endif
#if defined(_GLIBCXX_FUNCTIONAL) || defined(_GLIBCXX_ALGORITHM) || \
    defined(_GLIBCXX_ITERATOR)
#error \
    "a header strata.h reaches includes <functional>, <algorithm> or <iterator>; use standard_parts.h"
#endif
#if defined(_GLIBCXX_MUTEX) || defined(_GLIBCXX_UNORDERED_MAP)
#error "a header strata.h reaches includes <mutex> or <unordered_map>"
#endif
#endif  // __GLIBCXX__

#include <string>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(IncludedStandardHeadersTest, CallersThatIncludeStringGetTheText) {
  const entity_id id = entity_id::combine(7, 2);
  EXPECT_EQ(to_string(id), "7@2");
  EXPECT_EQ(to_string(entity_id::null()), "null");
  EXPECT_EQ(to_string(entity_handle(id)), "handle(7@2)");
  EXPECT_EQ(describe_strategy(inner_parallelism_composer::none_below_threshold(
                10, inner_parallelism::split_evenly(3))),
            "fixed_threshold(10, split_evenly(3), none)");
  EXPECT_EQ(default_parallelism{}.describe(), "context default");
  static_assert(describable_strategy<inner_parallelism::none_t>);
}

}  // namespace
}  // namespace strata
