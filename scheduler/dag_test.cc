#include "scheduler/dag.h"

#include <array>
#include <cstddef>
#include <deque>
#include <type_traits>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

using strata::testing::position;
using strata::testing::velocity;
struct color {};

namespace ct {
using strata::testing::ct::acceleration;
using strata::testing::ct::position;
using strata::testing::ct::velocity;
inline constexpr auto color = strata::tag<::color>;
}  // namespace ct

struct a {};
struct b {};
struct c {};
struct d {};
struct e {};
struct f {};

namespace st {
inline constexpr auto a = strata::tag<::a>;
inline constexpr auto b = strata::tag<::b>;
inline constexpr auto c = strata::tag<::c>;
inline constexpr auto d = strata::tag<::d>;
inline constexpr auto e = strata::tag<::e>;
inline constexpr auto f = strata::tag<::f>;
}  // namespace st

using strata::system_signature::make;

// Diamond: a -> {b, c} -> d; e independent (touches only color).
constexpr auto diamond = strata::system_signatures(
    make(st::a).write(ct::acceleration),
    make(st::b).read(ct::acceleration).write(ct::velocity).dependencies(st::a),
    make(st::c).read(ct::acceleration).dependencies(st::a),
    make(st::d)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::b, st::c),
    make(st::e).write(ct::color));
using diamond_list = std::remove_const_t<decltype(diamond)>;

static_assert(diamond_list::count == 5);
static_assert(diamond_list::id(st::d) == 3);
static_assert(diamond_list::runs_before(0, 3));  // a before d
static_assert(!diamond_list::runs_before(3, 0));
static_assert(!diamond_list::runs_before(1, 2));  // b, c unordered
static_assert(!diamond_list::ordered(1, 2));
static_assert(!diamond_list::ordered(4, 0));  // e is independent
static_assert(diamond_list::dependencies_of<3> ==
              std::array<std::size_t, 2>{1, 2});
static_assert(diamond_list::dependents_of<0> ==
              std::array<std::size_t, 2>{1, 2});
static_assert(diamond_list::dependents_of<3>.size() == 0);
static_assert(diamond_list::start_nodes ==
              std::array<bool, 5>{true, false, false, false, true});
static_assert(diamond_list::chain_size(std::array<std::size_t, 1>{0}) == 4);
static_assert(diamond_list::chain_size(std::array<std::size_t, 1>{1}) == 2);
static_assert(diamond_list::chain_size(std::array<std::size_t, 2>{1, 4}) == 3);
static_assert(diamond_list::chain_size_of_all() == 5);
static_assert(diamond_list::topological_order ==
              std::array<std::size_t, 5>{0, 1, 2, 3, 4});

// The signature keeps what was declared.
using d_signature = diamond_list::signature_at<3>;
static_assert(
    std::is_same_v<d_signature::read_types, strata::type_list<::velocity>>);
static_assert(
    std::is_same_v<d_signature::write_types, strata::type_list<::position>>);
static_assert(std::is_same_v<d_signature::output_type, strata::no_output>);
static_assert(!d_signature::has_output);

// Declared out of order: topological order follows dependencies.
constexpr auto reversed =
    strata::system_signatures(make(st::c).dependencies(st::b),
                              make(st::b).dependencies(st::a), make(st::a));
using reversed_list = std::remove_const_t<decltype(reversed)>;
static_assert(reversed_list::topological_order ==
              std::array<std::size_t, 3>{2, 1, 0});
static_assert(reversed_list::runs_before(2, 0));

struct contact_list {
  int count;
};
struct split_in_two {
  int parts = 2;
};
constexpr auto with_output = make(st::f)
                                 .read(ct::position)
                                 .parallelism(split_in_two{3})
                                 .output<contact_list>();
static_assert(decltype(with_output)::has_output);
static_assert(std::is_same_v<decltype(with_output)::output_type, contact_list>);
static_assert(with_output.parallelism_strategy().parts == 3);

// A long chain: every system depends on the previous one.
template <std::size_t I>
struct link {};

template <std::size_t... I>
constexpr auto make_chain(std::index_sequence<I...>) {
  return strata::system_signatures([] {
    if constexpr (I == 0) {
      return make(strata::tag<link<0>>).write(ct::position);
    } else {
      return make(strata::tag<link<I>>)
          .write(ct::position)
          .dependencies(strata::tag<link<I - 1>>);
    }
  }()...);
}
constexpr auto chain = make_chain(std::make_index_sequence<48>{});
using chain_list = std::remove_const_t<decltype(chain)>;
static_assert(chain_list::runs_before(0, 47));
static_assert(chain_list::chain_size(std::array<std::size_t, 1>{40}) == 8);
static_assert(chain_list::topological_order[47] == 47);

// Disconnected: no dependencies, disjoint components.
constexpr auto disconnected = strata::system_signatures(
    make(st::a).write(ct::position), make(st::b).write(ct::velocity),
    make(st::c).read(ct::color), make(st::d).read(ct::color));
using disconnected_list = std::remove_const_t<decltype(disconnected)>;
static_assert(disconnected_list::chain_size(std::array<std::size_t, 1>{2}) ==
              1);
static_assert(disconnected_list::chain_size_of_all() == 4);

// A 32-system random DAG (edges only to lower ids, so acyclic), checked
// against a run-time BFS below.
constexpr std::size_t kRandom = 32;
constexpr bool random_edge(std::size_t i, std::size_t j) {
  std::size_t h = i * 2654435761u + j * 40503u + 7;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return j < i && h % 5 == 0;
}
template <std::size_t I>
struct node {};

template <std::size_t I, std::size_t... J>
constexpr auto random_signature(std::index_sequence<J...>) {
  using deps = strata::concat_t<std::conditional_t<
      random_edge(I, J), strata::type_list<node<J>>, strata::type_list<>>...>;
  return []<typename... Ds>(strata::type_list<Ds...>) {
    return make(strata::tag<node<I>>).dependencies(strata::tag<Ds>...);
  }(deps{});
}
template <std::size_t... I>
constexpr auto make_random(std::index_sequence<I...>) {
  return strata::system_signatures(
      random_signature<I>(std::make_index_sequence<kRandom>{})...);
}
constexpr auto random_dag = make_random(std::make_index_sequence<kRandom>{});
using random_list = std::remove_const_t<decltype(random_dag)>;

std::vector<bool> reachable_by_bfs(const std::vector<std::size_t>& starts) {
  std::vector<bool> seen(kRandom, false);
  std::deque<std::size_t> queue;
  for (std::size_t s : starts) {
    seen[s] = true;
    queue.push_back(s);
  }
  while (!queue.empty()) {
    std::size_t node = queue.front();
    queue.pop_front();
    for (std::size_t i = 0; i < kRandom; ++i) {
      if (random_edge(i, node) && !seen[i]) {
        seen[i] = true;
        queue.push_back(i);
      }
    }
  }
  return seen;
}

TEST(DagTest, RandomDagReachabilityMatchesBfs) {
  std::size_t edges = 0;
  for (std::size_t a = 0; a < kRandom; ++a) {
    const std::vector<bool> reach = reachable_by_bfs({a});
    for (std::size_t b = 0; b < kRandom; ++b) {
      edges += random_edge(b, a);
      EXPECT_EQ(random_list::runs_before(a, b), a != b && reach[b])
          << "from " << a << " to " << b;
      EXPECT_EQ(random_list::graph.depends[b][a], random_edge(b, a));
    }
  }
  EXPECT_GT(edges, 40u);  // the DAG is not trivially sparse
}

TEST(DagTest, RandomDagChainSizesMatchBfs) {
  for (std::size_t a = 0; a < kRandom; ++a) {
    for (std::size_t b = a; b < kRandom; b += 5) {
      const std::vector<bool> reach = reachable_by_bfs({a, b});
      std::size_t expected = 0;
      for (bool r : reach) expected += r;
      EXPECT_EQ(random_list::chain_size(std::array<std::size_t, 2>{a, b}),
                expected);
    }
  }
}

TEST(DagTest, RandomDagTopologicalOrderRespectsEveryEdge) {
  std::array<std::size_t, kRandom> position_of{};
  for (std::size_t p = 0; p < kRandom; ++p) {
    position_of[random_list::topological_order[p]] = p;
  }
  for (std::size_t i = 0; i < kRandom; ++i) {
    for (std::size_t j = 0; j < kRandom; ++j) {
      if (random_edge(i, j)) {
        EXPECT_LT(position_of[j], position_of[i]);
      }
    }
  }
}

TEST(DagTest, DependencyListsMatchAtRunTime) {
  EXPECT_EQ(diamond_list::dependencies_of<3>.size(), 2u);
  EXPECT_EQ(diamond_list::chain_size(std::array<std::size_t, 1>{2}), 2u);
}

struct all_stored {
  template <typename T>
  static constexpr bool stores = true;
};
static_assert((strata::check_components_stored(all_stored{}, diamond), true));

}  // namespace

// A program may declare no system yet (every check passes on an empty
// list, the message check included).
TEST(DagTest, EmptySignatureList) {
  constexpr auto empty = strata::system_signatures();
  static_assert(std::remove_const_t<decltype(empty)>::count == 0);
  EXPECT_EQ(std::remove_const_t<decltype(empty)>::count, 0u);
}
