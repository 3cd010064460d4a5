#include "base/internal/make_object.h"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "gtest/gtest.h"

namespace strata::base_internal {
namespace {

struct point {  // an aggregate: braces on Clang 14, parentheses on GCC 12
  float x = 0;
  float y = 0;
};

struct counted {  // a constructor from (int)
  explicit counted(int n) : n(n) {}
  int n;
};

// An initializer_list constructor must not win over the ordinary one for
// (args...): braces are used only where parentheses cannot compile.
struct sizes {
  sizes(std::size_t count, int value) : count(count), value(value) {}
  sizes(std::initializer_list<int> values) : count(values.size()) {}
  std::size_t count;
  int value = -1;
};

TEST(MakeObjectTest, AggregatesFromTheirMembers) {
  const point p = make_object<point>(1.f, 2.f);
  EXPECT_EQ(p.x, 1.f);
  EXPECT_EQ(p.y, 2.f);
  const point origin = make_object<point>();
  EXPECT_EQ(origin.x, 0.f);
}

TEST(MakeObjectTest, ConstructorsWithParentheses) {
  EXPECT_EQ(make_object<counted>(7).n, 7);
  const sizes s = make_object<sizes>(std::size_t{3}, 9);
  EXPECT_EQ(s.count, 3u);  // not the two-element initializer list
  EXPECT_EQ(s.value, 9);
  EXPECT_EQ(make_object<std::string>(std::size_t{3}, 'a'), "aaa");
}

TEST(MakeObjectTest, ConstructsInPlace) {
  alignas(point) unsigned char storage[sizeof(point)];
  point* p = construct_object<point>(storage, 3.f, 4.f);
  EXPECT_EQ(static_cast<void*>(p), static_cast<void*>(storage));
  EXPECT_EQ(p->x, 3.f);
  EXPECT_EQ(p->y, 4.f);
  alignas(sizes) unsigned char more[sizeof(sizes)];
  sizes* s = construct_object<sizes>(more, std::size_t{2}, 5);
  EXPECT_EQ(s->count, 2u);
  EXPECT_EQ(s->value, 5);
  s->~sizes();
}

}  // namespace
}  // namespace strata::base_internal
