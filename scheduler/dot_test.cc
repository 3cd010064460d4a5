// Strategies describe themselves (built-ins, composers, the default, user
// strategies with and without describe()), and system_graph_dot() writes the
// exact DOT of small system lists, quoting what needs quoting.
#include "scheduler/dot.h"

#include <cstddef>
#include <string>
#include <string_view>

#include "gtest/gtest.h"

// Named (not anonymous) so that type_name<T>() spells the unnamed types the
// same way under GCC and Clang.
namespace dot_test {

struct position {
  static constexpr std::string_view name = "position";
};
struct velocity {
  static constexpr std::string_view name = "velocity";
};
struct mass {};  // unnamed: shown as its type name

namespace ct {
inline constexpr auto position = strata::tag<dot_test::position>;
inline constexpr auto velocity = strata::tag<dot_test::velocity>;
inline constexpr auto mass = strata::tag<dot_test::mass>;
}  // namespace ct

struct contacts {
  static constexpr std::string_view name = "contacts";
};

struct push {
  static constexpr std::string_view name = "push";
};
struct move {
  static constexpr std::string_view name = "move";
};
struct collide {
  static constexpr std::string_view name = "collide";
};
struct drift {};  // unnamed: "dot_test::drift", a quoted id

namespace st {
inline constexpr auto push = strata::tag<dot_test::push>;
inline constexpr auto move = strata::tag<dot_test::move>;
inline constexpr auto collide = strata::tag<dot_test::collide>;
inline constexpr auto drift = strata::tag<dot_test::drift>;
}  // namespace st

// A user strategy without describe(): the graph still works.
struct halves {
  constexpr std::size_t subtasks(std::size_t, std::size_t) const { return 2; }
};
// A user strategy that describes itself, with characters DOT must escape.
struct labelled {
  constexpr std::size_t subtasks(std::size_t, std::size_t) const { return 3; }
  std::string describe() const { return "three \"equal\" parts \\ more"; }
};
// describe() that makes no string: treated as no describe().
struct odd_describe {
  constexpr std::size_t subtasks(std::size_t, std::size_t) const { return 1; }
  int describe() const { return 7; }
};

}  // namespace dot_test

namespace strata {
namespace {

using namespace ::dot_test;

static_assert(describable_strategy<inner_parallelism::none_t>);
static_assert(describable_strategy<default_parallelism>);
static_assert(describable_strategy<labelled>);
static_assert(!describable_strategy<halves>);
static_assert(!describable_strategy<odd_describe>);

TEST(DescribeStrategyTest, BuiltInsDescribeThemselves) {
  EXPECT_EQ(describe_strategy(inner_parallelism::none()), "none");
  EXPECT_EQ(describe_strategy(inner_parallelism::split_evenly(4)),
            "split_evenly(4)");
  EXPECT_EQ(describe_strategy(inner_parallelism::split_evenly_per_core()),
            "split_evenly_per_core");
  EXPECT_EQ(describe_strategy(inner_parallelism::split_every_n(4096)),
            "split_every_n(4096)");
  EXPECT_EQ(describe_strategy(default_parallelism{}), "context default");
  EXPECT_EQ(inner_parallelism::split_evenly(2).describe(), "split_evenly(2)");
}

TEST(DescribeStrategyTest, ComposersComposeTheirPartsDescriptions) {
  EXPECT_EQ(
      describe_strategy(inner_parallelism_composer::fixed_threshold(
          16384, inner_parallelism::split_evenly_per_core(),
          inner_parallelism::split_every_n(4096))),
      "fixed_threshold(16384, split_evenly_per_core, split_every_n(4096))");
  EXPECT_EQ(describe_strategy(inner_parallelism_composer::none_below_threshold(
                2048, inner_parallelism::split_evenly_per_core())),
            "fixed_threshold(2048, split_evenly_per_core, none)");
  // Nested.
  EXPECT_EQ(
      describe_strategy(inner_parallelism_composer::fixed_threshold(
          100,
          inner_parallelism_composer::none_below_threshold(
              1000, inner_parallelism::split_evenly(8)),
          inner_parallelism::split_evenly(2))),
      "fixed_threshold(100, fixed_threshold(1000, split_evenly(8), none), "
      "split_evenly(2))");
}

TEST(DescribeStrategyTest, UserStrategiesWithAndWithoutDescribe) {
  EXPECT_EQ(describe_strategy(halves{}), "custom strategy");
  EXPECT_EQ(describe_strategy(odd_describe{}), "custom strategy");
  EXPECT_EQ(describe_strategy(labelled{}), "three \"equal\" parts \\ more");
  // Composed with built-ins, on either side.
  EXPECT_EQ(describe_strategy(inner_parallelism_composer::fixed_threshold(
                10, halves{}, labelled{})),
            "fixed_threshold(10, custom strategy, three \"equal\" parts \\ "
            "more)");
  EXPECT_EQ(describe_strategy(
                inner_parallelism_composer::none_below_threshold(64, halves{})),
            "fixed_threshold(64, custom strategy, none)");
}

TEST(SystemGraphDotTest, ExactTextOfASmallGraph) {
  constexpr auto systems = system_signatures(
      system_signature::make(st::push)
          .write(ct::velocity)
          .parallelism(inner_parallelism::split_evenly_per_core()),
      system_signature::make(st::move)
          .read(ct::velocity, ct::mass)
          .write(ct::position)
          .dependencies(st::push)
          .parallelism(inner_parallelism_composer::none_below_threshold(
              2048, inner_parallelism::split_every_n(512))),
      system_signature::make(st::collide)
          .read(ct::position)
          .dependencies(st::move)
          .output<contacts>()
          .parallelism(halves{}),
      system_signature::make(st::drift)
          .read(ct::position)
          .dependencies(st::move, st::push));
  EXPECT_EQ(
      system_graph_dot(systems),
      "digraph systems {\n"
      "  rankdir=LR;\n"
      "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#e8eefc\", "
      "fontname=\"Helvetica\", fontsize=10];\n"
      "  push [label=\"push\\nwrites: velocity\\nsplit: "
      "split_evenly_per_core\"];\n"
      "  move [label=\"move\\nreads: velocity, dot_test::mass\\nwrites: "
      "position\\nsplit: fixed_threshold(2048, split_every_n(512), none)\"];\n"
      "  collide [label=\"collide\\nreads: position\\noutput: contacts\\n"
      "split: custom strategy\", fillcolor=\"#fff3d6\"];\n"
      "  \"dot_test::drift\" [label=\"dot_test::drift\\nreads: position\\n"
      "split: context default\"];\n"
      "  push -> move;\n"
      "  move -> collide;\n"
      "  push -> \"dot_test::drift\";\n"
      "  move -> \"dot_test::drift\";\n"
      "}\n");
}

TEST(SystemGraphDotTest, EmptyListAndOptions) {
  dot_options options;
  options.graph_name = "my game";
  options.comment = "first line\n\nthird line\n";
  // (The empty list is what settings() defaults to.)
  EXPECT_EQ(system_graph_dot(system_signature_list<>{}, options),
            "// first line\n"
            "//\n"
            "// third line\n"
            "digraph \"my game\" {\n"
            "  rankdir=LR;\n"
            "  node [shape=box, style=\"rounded,filled\", "
            "fillcolor=\"#e8eefc\", fontname=\"Helvetica\", fontsize=10];\n"
            "}\n");
}

struct quoted {
  static constexpr std::string_view name = "say \"hi\"";
};
struct keyword {
  static constexpr std::string_view name = "Node";
};
struct digits {
  static constexpr std::string_view name = "2nd";
};
struct plain {
  static constexpr std::string_view name = "_plain_2";
};

TEST(SystemGraphDotTest, QuotesIdsAndEscapesLabels) {
  constexpr auto systems = system_signatures(
      system_signature::make(tag<quoted>).parallelism(labelled{}),
      system_signature::make(tag<keyword>).dependencies(tag<quoted>),
      system_signature::make(tag<digits>).dependencies(tag<keyword>),
      system_signature::make(tag<plain>).dependencies(tag<digits>));
  dot_options options;
  options.graph_name = "strict";
  const std::string dot = system_graph_dot(systems, options);
  EXPECT_EQ(dot.substr(0, dot.find('\n')), "digraph \"strict\" {");
  const std::string body = dot.substr(dot.find("fontsize=10];\n") + 14);
  EXPECT_EQ(body,
            "  \"say \\\"hi\\\"\" [label=\"say \\\"hi\\\"\\nsplit: three "
            "\\\"equal\\\" parts \\\\ more\"];\n"
            "  \"Node\" [label=\"Node\\nsplit: context default\"];\n"
            "  \"2nd\" [label=\"2nd\\nsplit: context default\"];\n"
            "  _plain_2 [label=\"_plain_2\\nsplit: context default\"];\n"
            "  \"say \\\"hi\\\"\" -> \"Node\";\n"
            "  \"Node\" -> \"2nd\";\n"
            "  \"2nd\" -> _plain_2;\n"
            "}\n");
}

}  // namespace
}  // namespace strata
