#include "base/internal/flat_tuple.h"

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace strata::base_internal {
namespace {

struct empty {};
struct other_empty {};

TEST(FlatTupleTest, DefaultConstructionValueInitializesEveryElement) {
  flat_tuple<int, double, std::string> t;
  EXPECT_EQ(get<0>(t), 0);
  EXPECT_EQ(get<1>(t), 0.0);
  EXPECT_EQ(get<2>(t), "");
}

TEST(FlatTupleTest, InPlaceConstructionForwardsOneArgumentPerElement) {
  auto owned = std::make_unique<int>(7);
  flat_tuple<int, std::unique_ptr<int>, std::vector<int>> t(
      std::in_place, 3, std::move(owned), std::vector<int>{1, 2});
  EXPECT_EQ(get<0>(t), 3);
  ASSERT_NE(get<1>(t), nullptr);
  EXPECT_EQ(*get<1>(t), 7);
  EXPECT_EQ(owned, nullptr);  // moved, not copied
  EXPECT_EQ(get<2>(t), (std::vector<int>{1, 2}));
}

TEST(FlatTupleTest, GetByIndexAndByTypeReachTheSameElement) {
  flat_tuple<int, float, char> t(std::in_place, 1, 2.f, 'c');
  get<float>(t) = 5.f;
  EXPECT_EQ(get<1>(t), 5.f);
  get<2>(t) = 'd';
  EXPECT_EQ(get<char>(t), 'd');
  const auto& view = t;
  EXPECT_EQ(get<int>(view), 1);
  static_assert(std::is_same_v<decltype(get<0>(view)), const int&>);
  static_assert(std::is_same_v<decltype(get<0>(std::move(t))), int&&>);
}

TEST(FlatTupleTest, RepeatedTypesAreDistinctElements) {
  flat_tuple<int, int, int> t(std::in_place, 1, 2, 3);
  get<1>(t) += 10;
  EXPECT_EQ(get<0>(t), 1);
  EXPECT_EQ(get<1>(t), 12);
  EXPECT_EQ(get<2>(t), 3);
}

TEST(FlatTupleTest, ApplyPassesEveryElementInOrder) {
  flat_tuple<int, std::string, int> t(std::in_place, 1, "two", 3);
  std::string seen = t.apply([](int& a, std::string& b, int& c) {
    a = 10;
    return std::to_string(c) + b;
  });
  EXPECT_EQ(seen, "3two");
  EXPECT_EQ(get<0>(t), 10);  // by reference
  const auto& view = t;
  EXPECT_EQ(view.apply([](const auto&... e) { return sizeof...(e); }), 3u);
  EXPECT_EQ(flat_tuple<>{}.apply([](auto&&... e) { return sizeof...(e); }), 0u);
}

TEST(FlatTupleTest, AppendKeepsElementsAndAddsNewOnesAtTheEnd) {
  constexpr flat_tuple<int, char> two(std::in_place, 1, 'x');
  constexpr auto four = append(two, 2.5, 4);
  static_assert(std::is_same_v<std::remove_const_t<decltype(four)>,
                               flat_tuple<int, char, double, int>>);
  static_assert(get<0>(four) == 1 && get<1>(four) == 'x');
  static_assert(get<2>(four) == 2.5 && get<3>(four) == 4);
  EXPECT_EQ(decltype(four)::size, 4u);
}

TEST(FlatTupleTest, EmptyElementsTakeNoRoom) {
  static_assert(sizeof(flat_tuple<int, empty, other_empty>) == sizeof(int));
  static_assert(std::is_empty_v<flat_tuple<empty, other_empty>>);
  flat_tuple<empty, int, empty> t(std::in_place, empty{}, 4, empty{});
  EXPECT_NE(static_cast<void*>(&get<0>(t)), static_cast<void*>(&get<2>(t)))
      << "two elements of one empty type must stay distinct objects";
  EXPECT_EQ(get<1>(t), 4);
}

TEST(FlatTupleTest, CopyMoveAndTrivialityAreTheElements) {
  static_assert(std::is_trivially_copyable_v<flat_tuple<int, double, empty>>);
  static_assert(
      !std::is_copy_constructible_v<flat_tuple<std::unique_ptr<int>>>);
  static_assert(std::is_nothrow_move_constructible_v<
                flat_tuple<std::unique_ptr<int>, std::vector<int>>>);
  flat_tuple<std::vector<int>> a(std::in_place, std::vector<int>{1, 2, 3});
  flat_tuple<std::vector<int>> b = a;
  get<0>(b).push_back(4);
  EXPECT_EQ(get<0>(a).size(), 3u);
  flat_tuple<std::vector<int>> c = std::move(b);
  EXPECT_EQ(get<0>(c).size(), 4u);
}

// A flat_tuple of structural types is itself usable as a template argument,
// which compile-time option maps rely on.
template <flat_tuple<int, char> Value>
constexpr int first_of() {
  return get<0>(Value);
}
static_assert(first_of<flat_tuple<int, char>(std::in_place, 9, 'a')>() == 9);

}  // namespace
}  // namespace strata::base_internal
