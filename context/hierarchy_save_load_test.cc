// ctx.save / ctx.load (context/save_load.h) of a program that declares a
// hierarchy (context/hierarchy.h):
//   * round trip: random forests (re-parents, removals, kills with index
//     reuse) saved and loaded into a fresh context give the same state
//     hash, the same parents, children (in order) and depths, the same
//     visiting order in hierarchy order, and the same world after more
//     steps of propagation;
//   * bad relations (a parent index out of range, a cycle, a parent that is
//     not alive, children listed under the wrong parent) in intact files are
//     refused as malformed, the context loaded into unchanged;
//   * a file of a program with the other kill rule, or none, is refused as
//     written by a program with different components.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "context/context.h"
#include "context/hierarchy.h"
#include "context/hierarchy_testing.h"
#include "context/save_load.h"
#include "context/save_load_testing.h"
#include "context/state_hash.h"
#include "gtest/gtest.h"

namespace {

using strata::entity_id;
using strata::load_error;
using strata::save_load_testing::load_from_string;
using strata::save_load_testing::save_to_string;

using strata::hierarchy_testing::local_transform;
using strata::hierarchy_testing::world_transform;
namespace ct {
using strata::hierarchy_testing::ct::local;
using strata::hierarchy_testing::ct::world;
}  // namespace ct

// The entities in the order a system in hierarchy order visits them.
struct visit_order {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) { data.output().push_back(e); });
  }
};
namespace st {
inline constexpr auto propagate =
    strata::tag<strata::hierarchy_testing::propagate>;
inline constexpr auto visit_order = strata::tag<::visit_order>;
}  // namespace st

constexpr auto components =
    strata::component_signatures(strata::component_signature::make(ct::local),
                                 strata::component_signature::make(ct::world));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::propagate)
        .write(ct::world)
        .read(ct::local)
        .in_hierarchy_order(),
    strata::system_signature::make(st::visit_order)
        .read(ct::world)
        .dependencies(st::propagate)
        .parallelism(strata::inner_parallelism::none())
        .output<std::vector<entity_id>>()
        .in_hierarchy_order());
constexpr auto killing = strata::settings()
                             .component_signatures(components)
                             .system_signatures(systems)
                             .threads(1)
                             .hierarchy(strata::kill_children);
constexpr auto detaching = strata::settings()
                               .component_signatures(components)
                               .system_signatures(systems)
                               .threads(1)
                               .hierarchy(strata::detach_children);
constexpr auto flat = strata::settings()
                          .component_signatures(components)
                          .system_signatures(strata::system_signatures(
                              strata::system_signature::make(st::propagate)
                                  .write(ct::world)
                                  .read(ct::local)))
                          .threads(1);

// Runs the systems; returns the visiting order of that step.
template <typename Context>
std::vector<entity_id> run(Context& ctx) {
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  std::vector<entity_id> order;
  ctx.step([&](auto& proxy) {
    proxy.for_system_outputs(
        st::visit_order, [&](auto&, const std::vector<entity_id>& visited) {
          order.insert(order.end(), visited.begin(), visited.end());
        });
  });
  return order;
}

// The relation as the queries see it: per live entity its parent, depth
// and children in order.
template <typename Context>
std::string relation(const Context& ctx) {
  std::ostringstream out;
  ctx.for_each([&](entity_id e, const local_transform&) {
    out << to_string(e) << " <- " << to_string(ctx.parent_of(e)) << " d "
        << ctx.depth_of(e) << " :";
    for (entity_id c : ctx.children_of(e)) out << " " << to_string(c);
    out << "\n";
  });
  return out.str();
}

// A random forest after `steps` steps of re-parents, removals, kills (whole
// subtrees with kill_children) and creations that reuse killed indices.
template <typename Context>
void grow(Context& ctx, std::uint32_t seed, int steps) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  std::vector<entity_id> ids;
  for (int step = 0; step < steps; ++step) {
    ctx.step([&](auto& proxy) {
      for (int k = 0; k < 40; ++k) {
        const entity_id e = proxy.create_entity();
        proxy.add_component(ct::local, e, coordinate(rng), coordinate(rng));
        proxy.add_component(ct::world, e);
        if (!ids.empty() && rng() % 4 != 0) {
          proxy.set_parent(e, ids[rng() % ids.size()]);
        }
        ids.push_back(e);
      }
      for (int k = 0; k < 10; ++k) {
        proxy.set_parent(ids[rng() % ids.size()], ids[rng() % ids.size()]);
      }
      proxy.remove_parent(ids[rng() % ids.size()]);
      if (step % 2 == 1) proxy.kill_entity(ids[rng() % ids.size()]);
    });
    run(ctx);
  }
}

TEST(HierarchySaveLoadTest, RandomForestsRoundTrip) {
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(seed);
    auto original = strata::make_context<killing>();
    grow(original, seed, 3 + seed);
    const std::string bytes = save_to_string(original);
    auto loaded = strata::make_context<killing>();
    ASSERT_EQ(load_from_string(loaded, bytes), load_error::none);
    EXPECT_EQ(loaded.state_hash(), original.state_hash());
    EXPECT_EQ(relation(loaded), relation(original));
    EXPECT_NE(relation(loaded).find(" d 2 "), std::string::npos);
    // The same visits in the same order, and the same world after more
    // steps (with changes to the relation on both sides).
    EXPECT_EQ(run(loaded), run(original));
    grow(original, seed + 100, 2);
    grow(loaded, seed + 100, 2);
    EXPECT_EQ(loaded.state_hash(), original.state_hash());
    EXPECT_EQ(relation(loaded), relation(original));
    EXPECT_EQ(run(loaded), run(original));
    // Saving the loaded world gives the same bytes.
    run(original);
    run(loaded);
    EXPECT_EQ(save_to_string(loaded), save_to_string(original));
  }
}

TEST(HierarchySaveLoadTest, DetachingProgramsRoundTripToo) {
  auto original = strata::make_context<detaching>();
  grow(original, 9, 6);
  auto loaded = strata::make_context<detaching>();
  ASSERT_EQ(load_from_string(loaded, save_to_string(original)),
            load_error::none);
  EXPECT_EQ(loaded.state_hash(), original.state_hash());
  EXPECT_EQ(relation(loaded), relation(original));
  EXPECT_EQ(run(loaded), run(original));
}

// A world whose file ends with a known relation: a (index 0) <- b (1) <- c
// (2), and index 3 dead. Its last 48 bytes: level count 3; level 1: size
// 1, (1, 0); level 2: size 1, (2, 1); children: 1 (a's), 2 (b's).
std::string chain_file() {
  auto ctx = strata::make_context<killing>();
  ctx.step([](auto& proxy) {
    entity_id ids[4];
    for (entity_id& e : ids) {
      e = proxy.create_entity();
      proxy.add_component(ct::local, e, 1.0, 2.0);
      proxy.add_component(ct::world, e);
    }
    proxy.set_parent(ids[1], ids[0]);
    proxy.set_parent(ids[2], ids[1]);
    proxy.kill_entity(ids[3]);
  });
  return save_to_string(ctx);
}

// `bytes` with the u32 at `from_end` bytes before the end set to `value`,
// the checksum fixed (an intact file).
std::string with_u32(std::string bytes, std::size_t from_end,
                     std::uint32_t value) {
  std::memcpy(bytes.data() + bytes.size() - from_end, &value, 4);
  const std::uint64_t checksum =
      XXH3_64bits(bytes.data() + 40, bytes.size() - 40);
  std::memcpy(bytes.data() + 32, &checksum, 8);
  return bytes;
}

TEST(HierarchySaveLoadTest, BadRelationsAreRefused) {
  const std::string bytes = chain_file();
  auto into = strata::make_context<killing>();
  grow(into, 3, 3);
  const std::uint64_t hash = into.state_hash();
  const std::string before = relation(into);
  // The file as written loads (the offsets below are right).
  {
    auto check = strata::make_context<killing>();
    ASSERT_EQ(load_from_string(check, bytes), load_error::none);
    ASSERT_EQ(with_u32(bytes, 28, 0), bytes);
    ASSERT_EQ(with_u32(bytes, 4, 2), bytes);
  }
  const struct {
    const char* what;
    std::size_t from_end;
    std::uint32_t value;
  } corruptions[] = {
      {"parent out of range", 28, 1000},
      {"child out of range", 32, 1000},
      {"parent not alive", 28, 3},
      {"child not alive", 16, 3},
      {"own parent", 12, 2},
      {"cycle b <- c <- b", 28, 2},
      {"entity twice", 16, 1},
      {"child listed under the wrong parent", 8, 2},
      {"child listed twice", 4, 1},
      {"more levels than entities", 48, 1000},
  };
  for (const auto& corruption : corruptions) {
    SCOPED_TRACE(corruption.what);
    EXPECT_EQ(load_from_string(
                  into, with_u32(bytes, corruption.from_end, corruption.value)),
              load_error::malformed);
    EXPECT_EQ(into.state_hash(), hash);
    EXPECT_EQ(relation(into), before);
  }
}

TEST(HierarchySaveLoadTest, AFileOfAnotherRelationIsRefused) {
  auto detached = strata::make_context<detaching>();
  grow(detached, 5, 2);
  auto without = strata::make_context<flat>();
  without.step([](auto& proxy) {
    proxy.add_component(ct::local, proxy.create_entity(), 1.0, 1.0);
  });
  auto into = strata::make_context<killing>();
  EXPECT_EQ(load_from_string(into, save_to_string(detached)),
            load_error::different_components);
  EXPECT_EQ(load_from_string(into, save_to_string(without)),
            load_error::different_components);
}

}  // namespace
