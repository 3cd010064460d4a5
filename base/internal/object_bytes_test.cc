#include "base/internal/object_bytes.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"

namespace strata::base_internal {
namespace {

struct point {
  float x, y;
};
struct span2 {
  std::int32_t first, last;
};
struct wide {
  double v;
};

// Types of one shape share a stored type, so a container of them is one
// instantiation; other shapes, keys and non-trivial types do not.
static_assert(std::is_same_v<stored_as_t<point>, stored_as_t<span2>>);
static_assert(!std::is_same_v<stored_as_t<point>, stored_as_t<wide>>);
static_assert(!std::is_same_v<stored_as_t<point, 0>, stored_as_t<point, 1>>);
static_assert(std::is_same_v<stored_as_t<std::string>, std::string>);
static_assert(sizeof(stored_as_t<wide>) == sizeof(wide) &&
              alignof(stored_as_t<wide>) == alignof(wide));

TEST(ObjectBytes, ValuesSurviveCopiesAndReallocation) {
  std::vector<stored_as_t<point>> values;
  for (int i = 0; i < 1000; ++i) {
    values.push_back(to_stored<point>(float(i), -float(i)));
  }
  values[3] = values[999];
  for (int i = 0; i < 1000; ++i) {
    const point& p = object_in<point>(values[i]);
    EXPECT_EQ(p.x, i == 3 ? 999.f : float(i));
    EXPECT_EQ(p.y, i == 3 ? -999.f : -float(i));
  }
  object_in<point>(values[5]).y = 42.f;
  EXPECT_EQ(objects_in<point>(values.data())[5].y, 42.f);
}

TEST(ObjectBytes, NonTrivialTypesAreStoredAsThemselves) {
  std::string s = "kept";
  EXPECT_EQ(&object_in<std::string>(s), &s);
  EXPECT_EQ(objects_in<std::string>(&s), &s);
}

}  // namespace
}  // namespace strata::base_internal
