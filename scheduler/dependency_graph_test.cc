#include "scheduler/dependency_graph.h"

#include <array>
#include <cstddef>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace {

using strata::dependency_graph;

// 0 <- 1 <- 2 (2 depends on 1, 1 on 0) and 3 alone.
constexpr dependency_graph<4> chain_of_three() {
  dependency_graph<4> g;
  g.depends[1][0] = true;
  g.depends[2][1] = true;
  return g;
}

TEST(DependencyGraphTest, ClosureFollowsDependentEdges) {
  constexpr auto before = chain_of_three().transitive_closure();
  static_assert(before[0][1] && before[0][2] && before[1][2]);
  static_assert(!before[2][0] && !before[0][3] && !before[3][0]);
  static_assert(!before[0][0]);
}

TEST(DependencyGraphTest, AcyclicGraphHasNoCycle) {
  static_assert(chain_of_three().first_node_on_cycle() == 4);
  static_assert(chain_of_three().cycle_through(0).size == 0);
}

TEST(DependencyGraphTest, TopologicalOrderPrefersDeclarationOrder) {
  dependency_graph<4> g;
  g.depends[0][2] = true;  // 0 after 2
  constexpr std::array<std::size_t, 4> expected = {1, 2, 0, 3};
  EXPECT_EQ(g.topological_order(), expected);
}

TEST(DependencyGraphTest, CycleThroughIsTheShortestInDependencyOrder) {
  // 0 -> 1 -> 2 -> 3 -> 0 and the shortcut 0 -> 3 (x -> y: x depends on y).
  constexpr auto g = [] {
    dependency_graph<5> g;
    g.depends[0][1] = g.depends[1][2] = g.depends[2][3] = true;
    g.depends[3][0] = true;
    g.depends[0][3] = true;
    return g;
  }();
  static_assert(g.first_node_on_cycle() == 0);
  constexpr auto cycle = g.cycle_through(0);
  static_assert(cycle.size == 2);
  static_assert(cycle.nodes[0] == 0 && cycle.nodes[1] == 3);
  static_assert(g.cycle_through(4).size == 0);
}

TEST(DependencyGraphTest, SelfDependencyIsACycleOfOne) {
  dependency_graph<2> g;
  g.depends[1][1] = true;
  EXPECT_EQ(g.first_node_on_cycle(), 1u);
  const auto cycle = g.cycle_through(1);
  ASSERT_EQ(cycle.size, 1u);
  EXPECT_EQ(cycle.nodes[0], 1u);
}

// Reachability by depth-first search, the reference for the model test.
template <std::size_t N>
bool reaches(const dependency_graph<N>& g, std::size_t from, std::size_t to) {
  std::vector<bool> seen(N);
  std::vector<std::size_t> stack = {from};
  while (!stack.empty()) {
    const std::size_t node = stack.back();
    stack.pop_back();
    for (std::size_t next = 0; next < N; ++next) {
      if (!g.depends[node][next] || seen[next]) continue;
      if (next == to) return true;
      seen[next] = true;
      stack.push_back(next);
    }
  }
  return false;
}

// Random graphs of N nodes against the depth-first reference: the closure,
// the first node on a cycle, and every reported cycle is a real cycle
// through its node.
template <std::size_t N>
void ExpectRandomGraphsMatchTheReference(int rounds, int max_edges,
                                         unsigned seed) {
  std::mt19937 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    dependency_graph<N> g;
    const int edges = static_cast<int>(rng() % max_edges);
    for (int e = 0; e < edges; ++e) g.depends[rng() % N][rng() % N] = true;
    const auto before = g.transitive_closure();
    std::size_t first_on_cycle = N;
    for (std::size_t a = 0; a < N; ++a) {
      for (std::size_t b = 0; b < N; ++b) {
        ASSERT_EQ(before[a][b], reaches(g, b, a)) << round;
      }
      if (first_on_cycle == N && reaches(g, a, a)) first_on_cycle = a;
    }
    ASSERT_EQ(g.first_node_on_cycle(), first_on_cycle) << round;
    for (std::size_t node = 0; node < N; ++node) {
      const auto cycle = g.cycle_through(node);
      ASSERT_EQ(cycle.size > 0, reaches(g, node, node)) << round;
      if (cycle.size == 0) continue;
      ASSERT_EQ(cycle.nodes[0], node);
      for (std::size_t i = 0; i < cycle.size; ++i) {
        ASSERT_TRUE(
            g.depends[cycle.nodes[i]][cycle.nodes[(i + 1) % cycle.size]])
            << round;
      }
    }
  }
}

TEST(DependencyGraphTest, RandomGraphsMatchTheReference) {
  ExpectRandomGraphsMatchTheReference<8>(500, 14, 20261124);
}

// The closure works on rows of 64-bit words: graphs wider than one word,
// with edges across the word boundary.
TEST(DependencyGraphTest, RandomGraphsWiderThanAWordMatchTheReference) {
  ExpectRandomGraphsMatchTheReference<70>(60, 90, 20261127);
}

// A chain across the word boundary: every node runs before every later one.
TEST(DependencyGraphTest, ChainAcrossTheWordBoundaryIsClosed) {
  dependency_graph<130> g;
  for (std::size_t i = 1; i < 130; ++i) g.depends[i][i - 1] = true;
  const auto before = g.transitive_closure();
  EXPECT_TRUE(before[0][129]);
  EXPECT_TRUE(before[63][64]);
  EXPECT_TRUE(before[64][128]);
  EXPECT_FALSE(before[129][0]);
  EXPECT_FALSE(before[64][64]);
  EXPECT_EQ(g.first_node_on_cycle(), 130u);
}

}  // namespace
