#include "component_storage/component_signature.h"

#include <array>
#include <type_traits>

#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

using strata::testing::health;
using strata::testing::position;
using strata::testing::velocity;
struct color {
  int rgba;
};
struct circle {
  float radius;
};
struct name {
  const char* text;
};

namespace ct {
using strata::testing::ct::health;
using strata::testing::ct::position;
using strata::testing::ct::velocity;
inline constexpr auto color = strata::tag<::color>;
inline constexpr auto circle = strata::tag<::circle>;
inline constexpr auto name = strata::tag<::name>;
}  // namespace ct

struct my_selector {
  template <typename Limit, typename... Components>
  using chunk = void;
};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity),
    strata::component_signature::make(ct::color, ct::circle).aos(),
    strata::component_signature::make(ct::health).sparse(),
    strata::component_signature::make(ct::name).storage(my_selector{}));

using list = std::remove_const_t<decltype(components)>;

static_assert(list::count == 6);
static_assert(list::signature_count == 4);
static_assert(list::id(ct::position) == 0);
static_assert(list::id(ct::velocity) == 1);
static_assert(list::id(ct::health) == 4);
static_assert(list::stores<::circle>);
static_assert(!list::stores<int>);
static_assert(list::signature_index_of<::circle>() == 1);
static_assert(list::signature_index_of<::name>() == 3);
static_assert(list::ids(strata::type_list<::health, ::position>{}) ==
              std::array<std::size_t, 2>{4, 0});

using first = strata::type_at_t<0, list::signature_types>;
using second = strata::type_at_t<1, list::signature_types>;
using third = strata::type_at_t<2, list::signature_types>;
using fourth = strata::type_at_t<3, list::signature_types>;
static_assert(
    std::is_same_v<first::storage_type, strata::storage::contiguous_buffer>);
static_assert(!first::is_aos);
static_assert(second::is_aos);
static_assert(std::is_same_v<third::storage_type, strata::storage::sparse>);
static_assert(std::is_same_v<fourth::storage_type, my_selector>);
static_assert(std::is_same_v<first::component_types,
                             strata::type_list<::position, ::velocity>>);

TEST(ComponentSignatureTest, IdsAreUsableAtRunTime) {
  EXPECT_EQ(list::id(ct::circle), 3u);
  EXPECT_EQ(list::id_of<::name>(), 5u);
}

TEST(ComponentSignatureTest, LargeListHasDenseIds) {
  // 64 components in 16 signatures of 4.
  constexpr auto big = []<std::size_t... G>(std::index_sequence<G...>) {
    return strata::component_signatures(
        []<std::size_t g>(std::integral_constant<std::size_t, g>) {
          return strata::component_signature::make(
              strata::tag<std::array<char, 4 * g + 1>>,
              strata::tag<std::array<char, 4 * g + 2>>,
              strata::tag<std::array<char, 4 * g + 3>>,
              strata::tag<std::array<char, 4 * g + 4>>);
        }(std::integral_constant<std::size_t, G>{})...);
  }
  (std::make_index_sequence<16>{});
  using big_list = std::remove_const_t<decltype(big)>;
  static_assert(big_list::count == 64);
  static_assert(big_list::id_of<std::array<char, 64>>() == 63);
  EXPECT_EQ((big_list::id_of<std::array<char, 30>>()), 29u);
}

}  // namespace
