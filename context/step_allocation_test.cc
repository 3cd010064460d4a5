// A steady-state step() allocates nothing on the heap. A particle-like DAG
// (six systems, inner parallelism with several strategies, std::vector
// outputs cleared and refilled every run, an output read by a dependent)
// runs under the atomic_counter scheduler with 2 and 4 threads. After
// warm-up steps (queue blocks, vector capacities), 100 steps with no entity
// creation or destruction must make exactly zero calls to the global
// operator new, counted by //testing:allocation_counter across all
// threads. A sequential-scheduler run is checked too. The systems use both
// iteration styles (for_entities + get, typed for_each), an exclusion
// filter, an optional component, a resource, and a system that defers a
// function with a 64-byte capture every run.
//
// Creating and destroying entities reaches a steady state too: a cycle of
// one step that creates entities (joining the systems) and one that kills
// them all (the refresh's kill phase: its queue, the systems' erasures,
// the components' destruction, the ids' reclaim) allocates nothing once
// the first cycles have sized the buffers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"
#include "testing/components.h"
#include "testing/timeout.h"

namespace {

using strata::entity_id;

struct life {
  float seconds = 0;
};
namespace ct {
using strata::testing::ct::acceleration;
using strata::testing::ct::position;
using strata::testing::ct::velocity;
inline constexpr auto life = strata::tag<::life>;
}  // namespace ct

constexpr float kDt = 0.01f;

struct accelerate {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](strata::testing::velocity& v,
                     const strata::testing::acceleration& a) {
      v.x += a.x * kDt;
      v.y += a.y * kDt;
    });
  }
};
struct move {
  template <typename Data>
  void process(Data& data) const {
    data.for_each(
        [](strata::testing::position& p, const strata::testing::velocity& v) {
          p.x += v.x * kDt;
          p.y += v.y * kDt;
        });
  }
};
// A resource every step updates.
struct clock {
  float now = 0;
  std::size_t deferred_runs = 0;
};
// Entities without life (excluded), life read optionally: counts them, and
// defers a 64-byte capture every run that updates the clock resource (a
// system that splits writes a resource only through the refresh).
struct census {
  template <typename Data>
  void process(Data& data) const {
    std::size_t ageless = 0;
    data.for_each([&](entity_id e, const strata::testing::position&) {
      ageless += data.try_read(ct::life, e) == nullptr;
    });
    if (data.subtask_index() == 0) {
      std::array<float, 16> payload{};  // 64 bytes
      payload[0] = static_cast<float>(ageless);
      data.defer([payload](auto& proxy) {
        clock& c = proxy.template resource<clock>();
        c.now += kDt;
        c.deferred_runs += payload[0] >= 0 ? 1 : 0;
      });
    }
  }
};
struct age {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](life& l) { l.seconds += kDt; });
  }
};
// Entities outside a box: a per-subtask vector output, refilled each run.
struct bounds {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      const auto& p = data.read(ct::position, e);
      if (p.x > 1 || p.y > 1) data.output().push_back(e);
    });
  }
};
// Reads bounds' outputs; counts them into its member (one subtask).
struct report {
  std::size_t outside = 0;
  template <typename Data>
  void process(Data& data) {
    std::size_t n = 0;
    data.for_previous_outputs(
        strata::tag<bounds>,
        [&](auto&, const std::vector<entity_id>& out) { n += out.size(); });
    outside = n;
  }
};
// A "render" pass: every subtask fills its own vector of vertices.
struct render {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      const auto& p = data.read(ct::position, e);
      data.output().push_back(p.x + data.read(ct::life, e).seconds);
      data.output().push_back(p.y);
    });
  }
};

namespace st {
inline constexpr auto accelerate = strata::tag<::accelerate>;
inline constexpr auto move = strata::tag<::move>;
inline constexpr auto age = strata::tag<::age>;
inline constexpr auto bounds = strata::tag<::bounds>;
inline constexpr auto report = strata::tag<::report>;
inline constexpr auto render = strata::tag<::render>;
inline constexpr auto census = strata::tag<::census>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity,
                                      ct::acceleration),
    strata::component_signature::make(ct::life).sparse());
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::accelerate)
        .read(ct::acceleration)
        .write(ct::velocity)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()),
    strata::system_signature::make(st::move)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::accelerate)
        .parallelism(strata::inner_parallelism::split_every_n(256)),
    strata::system_signature::make(st::age).write(ct::life).parallelism(
        strata::inner_parallelism::split_evenly(3)),
    strata::system_signature::make(st::bounds)
        .read(ct::position)
        .dependencies(st::move)
        .parallelism(strata::inner_parallelism::split_evenly_per_core())
        .output<std::vector<entity_id>>(),
    strata::system_signature::make(st::report)
        .dependencies(st::bounds)
        .parallelism(strata::inner_parallelism::none()),
    strata::system_signature::make(st::render)
        .read(ct::position, ct::life)
        .dependencies(st::move, st::age)
        .parallelism(strata::inner_parallelism_composer::none_below_threshold(
            100, strata::inner_parallelism::split_evenly(4)))
        .output<std::vector<float>>(),
    strata::system_signature::make(st::census)
        .read(ct::position)
        .exclude(ct::acceleration)
        .read_optional(ct::life)
        .write_resource<clock>()
        .dependencies(st::move, st::age)
        .parallelism(strata::inner_parallelism::split_evenly(2)));

// The `i`th entity of a test world: every entity moves, four in five
// accelerate, two in three have a life.
template <typename Proxy>
entity_id create_test_entity(Proxy& proxy, int i) {
  const entity_id e = proxy.create_entity();
  const float f = static_cast<float>(i % 97) / 50.f;
  proxy.add_component(ct::position, e, f, f / 2);
  proxy.add_component(ct::velocity, e, 1.f, 0.5f);
  if (i % 5 != 0) proxy.add_component(ct::acceleration, e, 0.1f, 0.2f);
  if (i % 3 != 0) proxy.add_component(ct::life, e);
  return e;
}

// `runs`: how many times each step runs the systems (every run of a step
// keeps its deferred functions in subtask states of its own).
template <typename Settings>
void expect_steady_state_allocates_nothing(const Settings& settings,
                                           int runs = 1) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 2000; ++i) create_test_entity(proxy, i);
  });
  auto frame = [runs](auto& proxy) {
    for (int run = 0; run < runs; ++run) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    }
  };
  for (int i = 0; i < 50; ++i) ctx.step(frame);  // warm-up
  const std::size_t before = strata::testing::allocation_count();
  for (int i = 0; i < 100; ++i) ctx.step(frame);
  const std::size_t after = strata::testing::allocation_count();
  EXPECT_EQ(after - before, 0u) << "heap allocations in 100 steady steps";
  ctx.step([runs](auto& proxy) {
    EXPECT_GT(proxy.system(st::report).outside, 0u);
    std::size_t vertices = 0;
    proxy.for_system_outputs(
        st::render, [&](auto&, const auto& out) { vertices += out.size(); });
    EXPECT_EQ(vertices, 2 * proxy.count_entities_in(st::render));
    EXPECT_EQ(proxy.count_entities_in(st::census), 400u);
    EXPECT_EQ(proxy.template resource<clock>().deferred_runs,
              150u * static_cast<unsigned>(runs));
  });
}

constexpr auto base = strata::settings()
                          .dynamic_entity_limit(4096)
                          .resources(strata::resources(strata::resource<clock>))
                          .allow_inner_parallelism()
                          .component_signatures(components)
                          .system_signatures(systems);

TEST(StepAllocationTest, AtomicCounterTwoThreads) {
  strata::testing::run_with_timeout(std::chrono::seconds(60), "2 threads", [] {
    expect_steady_state_allocates_nothing(
        base.scheduler(strata::scheduler::atomic_counter).threads(2));
  });
}

TEST(StepAllocationTest, AtomicCounterFourThreads) {
  strata::testing::run_with_timeout(std::chrono::seconds(60), "4 threads", [] {
    expect_steady_state_allocates_nothing(
        base.scheduler(strata::scheduler::atomic_counter).threads(4));
  });
}

TEST(StepAllocationTest, Sequential) {
  expect_steady_state_allocates_nothing(
      base.scheduler(strata::scheduler::sequential).threads(2));
}

TEST(StepAllocationTest, TwoRunsPerStep) {
  strata::testing::run_with_timeout(std::chrono::seconds(60), "two runs", [] {
    expect_steady_state_allocates_nothing(
        base.scheduler(strata::scheduler::atomic_counter).threads(2), 2);
  });
}

// One step creates `count` entities, the next kills them all; both run
// the systems. The first cycles size every buffer.
template <typename Settings>
void expect_create_kill_cycle_allocates_nothing(const Settings& settings) {
  constexpr int count = 2000;
  auto ctx = strata::make_context(settings);
  std::vector<entity_id> ids;
  ids.reserve(count);
  const auto run_systems = [](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };
  const auto cycle = [&] {
    ctx.step([&](auto& proxy) {
      ids.clear();
      for (int i = 0; i < count; ++i) {
        ids.push_back(create_test_entity(proxy, i));
      }
      run_systems(proxy);
    });
    ctx.step([&](auto& proxy) {
      EXPECT_EQ(proxy.count_entities_in(st::move), std::size_t{count});
      for (const entity_id e : ids) proxy.kill_entity(e);
      run_systems(proxy);
    });
  };
  for (int i = 0; i < 10; ++i) cycle();  // warm-up
  const std::size_t before = strata::testing::allocation_count();
  for (int i = 0; i < 50; ++i) cycle();
  const std::size_t after = strata::testing::allocation_count();
  EXPECT_EQ(after - before, 0u) << "heap allocations in 50 create/kill cycles";
  ctx.step([](auto& proxy) {
    EXPECT_EQ(proxy.count_entities_in(st::move), 0u);
    EXPECT_EQ(proxy.count_entities_in(st::census), 0u);
  });
}

TEST(StepAllocationTest, CreateKillCycleSequential) {
  expect_create_kill_cycle_allocates_nothing(
      base.scheduler(strata::scheduler::sequential).threads(2));
}

TEST(StepAllocationTest, CreateKillCycleTwoThreads) {
  strata::testing::run_with_timeout(std::chrono::seconds(60), "cycle", [] {
    expect_create_kill_cycle_allocates_nothing(
        base.scheduler(strata::scheduler::atomic_counter).threads(2));
  });
}

}  // namespace
