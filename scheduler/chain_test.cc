// Chain sizing on plain adjacency matrices (no signatures needed).
#include "scheduler/chain.h"

#include <array>
#include <cstddef>
#include <random>

#include "gtest/gtest.h"

namespace strata {
namespace {

// depends[i][j]: i depends on j. Diamond: 0 -> {1, 2} -> 3; 4 alone.
constexpr chain_graph<5> diamond = [] {
  chain_graph<5> g{};
  g[1][0] = g[2][0] = true;
  g[3][1] = g[3][2] = true;
  return g;
}();

constexpr std::array<bool, 5> flags(std::initializer_list<std::size_t> ids) {
  std::array<bool, 5> f{};
  for (std::size_t id : ids) f[id] = true;
  return f;
}

static_assert(chain_size(diamond, flags({0})) == 4);
static_assert(chain_size(diamond, flags({1})) == 2);   // 1 -> 3
static_assert(chain_size(diamond, flags({1, 2})) == 3);
static_assert(chain_size(diamond, flags({0, 4})) == 5);
static_assert(chain_size(diamond, flags({})) == 0);
static_assert(chain_members(diamond, flags({2})) == flags({2, 3}));
static_assert(start_set(diamond, flags({0, 1, 2, 3, 4})) == flags({0, 4}));
// Outside dependencies count as satisfied: 1 and 2 start a partial chain.
static_assert(start_set(diamond, flags({1, 2, 3})) == flags({1, 2}));
static_assert(is_closed_under_dependents(diamond, flags({1, 2, 3})));
static_assert(!is_closed_under_dependents(diamond, flags({0, 1, 3})));

// A chain of 8: each node depends on the previous one.
constexpr chain_graph<8> line = [] {
  chain_graph<8> g{};
  for (std::size_t i = 1; i < 8; ++i) g[i][i - 1] = true;
  return g;
}();
static_assert(chain_size(line, std::array<bool, 8>{true}) == 8);
static_assert(chain_size(line, [] {
                std::array<bool, 8> s{};
                s[5] = true;
                return s;
              }()) == 3);

// Breadth-first counting agrees with a brute-force reachability count, and a
// closed selected set's start set reaches exactly that set.
TEST(ChainTest, MatchesReachabilityOnRandomDags) {
  constexpr std::size_t n = 12;
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    chain_graph<n> g{};
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) g[i][j] = rng() % 4 == 0;
    }
    std::array<bool, n> starts{};
    for (bool& s : starts) s = rng() % 3 == 0;
    // reach[i]: i is a start or depends (transitively) on one.
    std::array<bool, n> reach = starts;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) reach[i] = reach[i] || (g[i][j] && reach[j]);
    }
    std::size_t expected = 0;
    for (bool r : reach) expected += r;
    EXPECT_EQ(chain_size(g, starts), expected);
    EXPECT_EQ(chain_members(g, starts), reach);
    EXPECT_TRUE(is_closed_under_dependents(g, reach));
    EXPECT_EQ(chain_size(g, start_set(g, reach)), expected);
  }
}

}  // namespace
}  // namespace strata
