#include "meta/type_list.h"

#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

using list = type_list<int, float, char>;

static_assert(size_v<list> == 3);
static_assert(size_v<type_list<>> == 0);
static_assert(std::is_same_v<type_at_t<1, list>, float>);
static_assert(index_of_v<char, list> == 2);
static_assert(index_of_v<double, list> == 3);
static_assert(contains_v<int, list>);
static_assert(!contains_v<double, list>);
static_assert(std::is_same_v<concat_t<list, type_list<double>, type_list<>>,
                             type_list<int, float, char, double>>);
static_assert(std::is_same_v<unique_t<type_list<int, float, int, char, float>>,
                             type_list<int, float, char>>);
static_assert(first_duplicate_index_v<type_list<int, float, int>> == 2);
static_assert(first_duplicate_index_v<list> == 3);
static_assert(std::is_same_v<decltype(tag_list(tag<int>, tag<char>)),
                             type_list<int, char>>);
static_assert(
    std::is_same_v<apply_t<std::tuple, list>, std::tuple<int, float, char>>);
static_assert(tag<int> == tag<int>);
static_assert(tag_value<decltype(tag<int>)>);
static_assert(!tag_value<int>);

TEST(TypeListTest, ForEachTypeVisitsInOrder) {
  std::vector<std::size_t> sizes;
  for_each_type(list{}, [&](auto t) {
    sizes.push_back(sizeof(typename decltype(t)::type));
  });
  EXPECT_EQ(sizes, (std::vector<std::size_t>{sizeof(int), sizeof(float), 1}));
}

constexpr std::size_t count_types(auto l) {
  std::size_t n = 0;
  for_each_type(l, [&](auto) { ++n; });
  return n;
}
static_assert(count_types(list{}) == 3);

// A long list stays cheap to query.
template <std::size_t I>
struct numbered {};
template <std::size_t... I>
constexpr auto make_long(std::index_sequence<I...>) {
  return type_list<numbered<I>...>{};
}
using long_list = decltype(make_long(std::make_index_sequence<200>{}));
static_assert(index_of_v<numbered<199>, long_list> == 199);
static_assert(first_duplicate_index_v<long_list> == 200);

TEST(TypeListTest, LongListLookups) {
  EXPECT_EQ((index_of_v<numbered<150>, long_list>), 150u);
}

}  // namespace
}  // namespace strata
