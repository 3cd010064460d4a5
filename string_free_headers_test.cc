// The headers below, which every program including strata.h parses, do not
// include <string> (see base/internal/dependent_string.h): they make text
// only when a caller asks for it, and a caller that includes <string>
// itself, here after them, gets the same text as before. strata.h is not
// listed: the context's atomics still bring <string> through <atomic>.
#include "base/versioned_id.h"
#include "context/trace.h"
#include "entity/entity_handle.h"
#include "entity/entity_id.h"
#include "entity/entity_storage.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/system_signature.h"

#if defined(__GLIBCXX__) && defined(_GLIBCXX_STRING)
#error "a header above includes <string>; make its text in a .cc file"
#endif

#include <string>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(StringFreeHeadersTest, CallersThatIncludeStringGetTheText) {
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
