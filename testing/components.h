// Component types for tests, and their tags: the plain position, velocity,
// acceleration and health that tests of every package used to redefine, each
// in its own file, identically.
//
//   strata::testing::position      {float x, y}   both 0 by default
//   strata::testing::velocity      {float x, y}   both 0 by default
//   strata::testing::acceleration  {float x, y}   both 0 by default
//   strata::testing::health        {int hp}       0 by default
//
// Each is an aggregate (`position{1.f, 2.f}`, or add_component(ct::position,
// e, 1.f, 2.f)), trivially copyable, and equality-comparable (defaulted
// operator==) so tests can compare them with EXPECT_EQ. Their tags live in
// `strata::testing::ct` (ct::position is `strata::tag<position>`): a test
// that uses only these writes `namespace ct = strata::testing::ct;`, one that
// adds its own components declares them in its own `ct` beside
// `using strata::testing::ct::position;` and the like.
//
// A test that needs another shape on purpose (a component that is not
// default-constructible, move-only, counts its destructions, is empty...)
// defines its own type: these are only the common, boring ones.
#ifndef STRATA_TESTING_COMPONENTS_H_
#define STRATA_TESTING_COMPONENTS_H_

#include "meta/tag.h"

namespace strata::testing {

struct position {
  float x = 0, y = 0;
  friend bool operator==(const position&, const position&) = default;
};
struct velocity {
  float x = 0, y = 0;
  friend bool operator==(const velocity&, const velocity&) = default;
};
struct acceleration {
  float x = 0, y = 0;
  friend bool operator==(const acceleration&, const acceleration&) = default;
};
struct health {
  int hp = 0;
  friend bool operator==(const health&, const health&) = default;
};

// Component tags.
namespace ct {
inline constexpr auto position = strata::tag<strata::testing::position>;
inline constexpr auto velocity = strata::tag<strata::testing::velocity>;
inline constexpr auto acceleration = strata::tag<strata::testing::acceleration>;
inline constexpr auto health = strata::tag<strata::testing::health>;
}  // namespace ct

}  // namespace strata::testing

#endif  // STRATA_TESTING_COMPONENTS_H_
