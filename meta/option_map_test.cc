#include "meta/option_map.h"

#include <type_traits>

#include "gtest/gtest.h"
#include "meta/testdata/window_settings.h"

namespace strata {
namespace {

struct threads_key {};
struct name_key {};

struct test_defaults {
  static constexpr auto value = make_option_defaults(
      option_default<threads_key>(1), option_default<name_key>(tag<void>));
};

constexpr option_map<test_defaults> defaults{};

static_assert(defaults.get<threads_key>() == 1);
static_assert(!defaults.is_set<threads_key>());
static_assert(!decltype(defaults)::has_option<int>());

constexpr auto with_threads = defaults.set<threads_key>(8);
static_assert(with_threads.get<threads_key>() == 8);
static_assert(with_threads.is_set<threads_key>());
static_assert(!with_threads.is_set<name_key>());
// Setting one option leaves the original map untouched.
static_assert(defaults.get<threads_key>() == 1);

// The value's type can carry the information.
constexpr auto named = with_threads.set<name_key>(tag<float>);
static_assert(
    std::is_same_v<decltype(named)::value_type<name_key>, tag_t<float>>);
static_assert(named.get<threads_key>() == 8);
// An unset option reads its default, with the default's type.
static_assert(
    std::is_same_v<decltype(with_threads)::value_type<name_key>, tag_t<void>>);

// The type holds the defaults by name and only what was set, in order: what
// keeps compiler messages and symbols short.
static_assert(std::is_same_v<std::remove_const_t<decltype(named)>,
                             option_map<test_defaults, option<threads_key, int>,
                                        option<name_key, tag_t<float>>>>);
// A key the schema lacks has a placeholder type, not a cascade of errors.
static_assert(std::is_same_v<decltype(defaults)::value_type<int>, void*>);

TEST(OptionMapTest, ValuesSurviveCopyAtRunTime) {
  auto copy = named;
  EXPECT_EQ(copy.get<threads_key>(), 8);
  EXPECT_TRUE(copy.is_set<name_key>());
}

TEST(OptionMapTest, UserSchemaHasDefaultsAndFluentSetters) {
  constexpr auto base = window::make_settings();
  static_assert(base.width_value() == 640);
  static_assert(!base.is_fullscreen());
  constexpr auto wide = base.width(1920).fullscreen();
  static_assert(wide.width_value() == 1920);
  static_assert(decltype(wide)::is_fullscreen());
  // Each setter returns a new type.
  static_assert(!std::is_same_v<decltype(base), decltype(wide)>);
  EXPECT_EQ(wide.width_value(), 1920);
}

TEST(OptionMapTest, RuntimeValueCanBeSet) {
  int runtime_threads = 3;
  auto map = defaults.set<threads_key>(runtime_threads);
  EXPECT_EQ(map.get<threads_key>(), 3);
  EXPECT_EQ(map.get<name_key>(), tag<void>);
}

}  // namespace
}  // namespace strata
