// A steady-state step of a program with a hierarchy allocates nothing on
// the heap: re-parenting (set_parent from the step proxy and from a
// system), remove_parent, and a system in hierarchy order split into
// subtasks on 2 threads, after warm-up steps (queue and level capacities),
// make zero calls to the global operator new over 100 steps, counted by
// //testing:allocation_counter across all threads.
#include <cstddef>
#include <vector>

#include "context/context.h"
#include "context/hierarchy.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"

namespace {

using strata::entity_id;

struct offset {
  float x = 0;
};
struct placed {
  float x = 0;
};
struct wanted_parent {
  entity_id parent;
};
namespace ct {
inline constexpr auto offset = strata::tag<::offset>;
inline constexpr auto placed = strata::tag<::placed>;
inline constexpr auto wanted = strata::tag<wanted_parent>;
}  // namespace ct

struct propagate {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, placed& p, const offset& o) {
      const placed* up = data.parent(ct::placed, e);
      p.x = (up ? up->x : 0) + o.x;
    });
  }
};
// Each step, every entity with a wanted parent asks for it (a no-op once
// granted, a move when the test changed the wish).
struct adopter {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const wanted_parent& w) {
      data.set_parent(e, w.parent);
    });
  }
};
namespace st {
inline constexpr auto propagate = strata::tag<::propagate>;
inline constexpr auto adopter = strata::tag<::adopter>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::offset, ct::placed),
            strata::component_signature::make(ct::wanted)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::propagate)
                .write(ct::placed)
                .read(ct::offset)
                .parallelism(strata::inner_parallelism::split_evenly(3))
                .in_hierarchy_order(),
            strata::system_signature::make(st::adopter).read(ct::wanted)))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2)
        .hand_off(strata::hand_off::always)
        .hierarchy(strata::kill_children);

TEST(HierarchyAllocationTest, SteadyStateStepsAllocateNothing) {
  auto ctx = strata::make_context<settings>();
  std::vector<entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 300; ++i) {
      entity_id e = proxy.create_entity();
      proxy.add_component(ct::offset, e, 1.f);
      proxy.add_component(ct::placed, e);
      if (i >= 3) proxy.set_parent(e, ids[i / 3 - 1]);
      ids.push_back(e);
    }
    for (int i = 200; i < 300; i += 10) {
      proxy.add_component(ct::wanted, ids[i], wanted_parent{ids[i % 7]});
    }
  });
  const auto step = [&](int n) {
    ctx.step([&](auto& proxy) {
      // Two moves and back: the same shape every other step.
      const entity_id a = ids[250 + n % 2], b = ids[150 + n % 2];
      proxy.set_parent(a, ids[n % 2 == 0 ? 10 : 11]);
      proxy.remove_parent(b);
      proxy.set_parent(b, ids[40]);
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  };
  for (int n = 0; n < 50; ++n) step(n);
  const std::size_t before = strata::testing::allocation_count();
  for (int n = 0; n < 100; ++n) step(n);
  EXPECT_EQ(strata::testing::allocation_count() - before, 0u);
  EXPECT_EQ(ctx.get(ct::placed, ids[0]).x, 1.f);
}

}  // namespace
