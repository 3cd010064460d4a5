// data.get / data.try_get by id of a component the system requires: while
// every live entity is the system's, the proxy checks only the id's version
// (context/data_proxy.h, alive_with). These cases must still find nothing:
// stale and null ids, an entity created in the step without the component
// (alive, not yet the system's), and one whose component was removed in the
// step.
#include <gtest/gtest.h>

#include <vector>

#include "context/context.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::testing::position;
namespace ct = strata::testing::ct;

std::vector<entity_id> probes;  // set while no system runs

// For each probe id: 1 if try_get finds its position, else 0; where it
// does, get must agree.
struct prober {
  template <typename Data>
  void process(Data& data) const {
    for (const entity_id id : probes) {
      position* p = data.try_get(ct::position, id);
      if (p != nullptr) {
        EXPECT_EQ(&data.get(ct::position, id), p);
      }
      data.output().push_back(p != nullptr ? 1 : 0);
    }
  }
};

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position),
            strata::component_signature::make(ct::velocity)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<prober>)
                .write(ct::position)
                .output<std::vector<int>>()));

// Runs the prober on `ids` in a step that first calls before(proxy).
template <typename Context, typename Before>
std::vector<int> probe(Context& ctx, std::vector<entity_id> ids,
                       Before before) {
  probes = std::move(ids);
  std::vector<int> found;
  ctx.step([&](auto& proxy) {
    before(proxy);
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [&](auto& system, auto& data) {
          system.process(data);
          found = data.output();
        }));
  });
  return found;
}
const auto nothing = [](auto&) {};

// `count` entities with position, made in one step.
template <typename Context>
std::vector<entity_id> create_with_position(Context& ctx, int count) {
  std::vector<entity_id> made;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < count; ++i) {
      made.push_back(proxy.create_entity());
      proxy.add_component(ct::position, made.back());
    }
  });
  return made;
}

TEST(RequiredByIdTest, EveryEntityTheSystemsStillRefusesStaleAndNullIds) {
  auto ctx = strata::make_context<settings>();
  const std::vector<entity_id> e = create_with_position(ctx, 3);
  ctx.step([&](auto& proxy) { proxy.kill_entity(e[0]); });
  entity_id reused;
  ctx.step([&](auto& proxy) {
    reused = proxy.create_entity();
    proxy.add_component(ct::position, reused);
  });
  ASSERT_EQ(reused.index(), e[0].index());  // e[0] is stale, not dead
  // Every live entity (3) is the prober's.
  const entity_id past_end = entity_id::combine(100, 0);
  EXPECT_EQ(
      probe(ctx, {e[0], e[1], reused, entity_id::null(), past_end}, nothing),
      (std::vector<int>{0, 1, 1, 0, 0}));
}

TEST(RequiredByIdTest, EntitiesWithoutTheComponentAreRefused) {
  auto ctx = strata::make_context<settings>();
  const std::vector<entity_id> e = create_with_position(ctx, 3);
  // Created in the step, alive but lacking position.
  entity_id bare;
  EXPECT_EQ(probe(ctx, {e[0]},
                  [&](auto& proxy) {
                    bare = proxy.create_entity();
                    proxy.add_component(ct::velocity, bare);
                    probes.push_back(bare);
                  }),
            (std::vector<int>{1, 0}));
  // After the refresh: still not the system's.
  EXPECT_EQ(probe(ctx, {e[0], bare}, nothing), (std::vector<int>{1, 0}));
  // Removed in the step, while another entity gains it.
  EXPECT_EQ(probe(ctx, {e[1], e[2], bare},
                  [&](auto& proxy) {
                    proxy.remove_component(ct::position, e[1]);
                    proxy.add_component(ct::position, bare);
                  }),
            (std::vector<int>{0, 1, 1}));
  // Every live entity but e[1] is the prober's.
  EXPECT_EQ(probe(ctx, {e[0], e[1], e[2], bare}, nothing),
            (std::vector<int>{1, 0, 1, 1}));
  // A removal alone, with every other live entity the system's.
  EXPECT_EQ(
      probe(ctx, {e[0], e[1], e[2], bare},
            [&](auto& proxy) { proxy.add_component(ct::position, e[1]); }),
      (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(
      probe(ctx, {e[0], e[1], e[2], bare},
            [&](auto& proxy) { proxy.remove_component(ct::position, e[2]); }),
      (std::vector<int>{1, 1, 0, 1}));
}

}  // namespace
