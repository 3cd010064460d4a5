// A steady-state step of a program with an ordered system allocates nothing
// on the heap: keys change every step (by a system and by the step proxy),
// an entity is killed and another created with a key, and the system
// declared .ordered_by() runs split into subtasks on 2 threads. After
// warm-up steps (the order's buffers), 100 steps make zero calls to the
// global operator new, counted by //testing:allocation_counter across all
// threads.
#include <cstddef>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"

namespace {

using strata::entity_id;

struct depth {
  int value = 0;
  friend bool operator<(const depth& a, const depth& b) {
    return a.value < b.value;
  }
};
struct weight {
  float x = 0;
};
namespace ct {
inline constexpr auto depth = strata::tag<::depth>;
inline constexpr auto weight = strata::tag<::weight>;
}  // namespace ct

// Moves a few entities' keys every step.
struct sink {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](entity_id e, depth& d) {
      if (e.index() % 37 == 0) d.value = (d.value + 17) % 101;
    });
  }
};
// Accumulates in key order.
struct stack {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](weight& w, const depth& d) { w.x += d.value; });
  }
};
namespace st {
inline constexpr auto sink = strata::tag<::sink>;
inline constexpr auto stack = strata::tag<::stack>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::depth),
            strata::component_signature::make(ct::weight)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::sink).write(ct::depth),
            strata::system_signature::make(st::stack)
                .write(ct::weight)
                .read(ct::depth)
                .dependencies(st::sink)
                .parallelism(strata::inner_parallelism::split_evenly(3))
                .ordered_by(ct::depth)))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2)
        .hand_off(strata::hand_off::always);

TEST(OrderedAllocationTest, SteadyStateStepsAllocateNothing) {
  auto ctx = strata::make_context<settings>();
  std::vector<entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 1000; ++i) {
      entity_id e = proxy.create_entity();
      proxy.add_component(ct::depth, e, i % 101);
      proxy.add_component(ct::weight, e);
      ids.push_back(e);
    }
  });
  const auto step = [&](int n) {
    ctx.step([&](auto& proxy) {
      proxy.get_component(ct::depth, ids[n % 500]).value = n % 101;
      // One entity dies and one is born (its slot is reused).
      proxy.kill_entity(ids[500 + n % 500]);
      entity_id e = proxy.create_entity();
      proxy.add_component(ct::depth, e, n % 101);
      proxy.add_component(ct::weight, e);
      ids[500 + n % 500] = e;
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  };
  for (int n = 0; n < 50; ++n) step(n);
  const std::size_t before = strata::testing::allocation_count();
  for (int n = 0; n < 100; ++n) step(n);
  EXPECT_EQ(strata::testing::allocation_count() - before, 0u);
}

}  // namespace
