// No deadlock: every inner-parallelism strategy (none, split_evenly(1 / 3 /
// 64), split_evenly_per_core, split_every_n(7), fixed_threshold,
// none_below_threshold, a user strategy) under the atomic_counter scheduler
// with 1, 2, 3 and 9 threads (0, 1, 2 and 8 pool workers), on 0, 1, 3 and 100
// entities, runs to completion inside run_with_timeout (a hang fails the
// test instead of stalling it). The scenarios are ECST's hanging ones:
//   * a diamond DAG (a -> b, c -> d) whose systems all split into subtasks:
//     the scheduler's wait and each system's parallel_for wait are nested;
//     d's adapter runs its subtasks twice (two fork-joins in one task);
//   * a partial chain: execute_systems_from(x) where z depends on x and on
//     y, which is outside the chain;
//   * fewer entities than splits (3 entities with split_evenly(64)) and
//     zero entities (systems still run, as one subtask).
// Each run also checks the work was done: every system ran, and the
// subtasks of a system visited each of its entities exactly once.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"
#include "testing/timeout.h"

namespace {

using strata::entity_id;

namespace ct = strata::testing::ct;

// Role r of the systems made for strategy tag S.
template <typename S, int Role>
struct counting_system {
  mutable std::atomic<int> runs{0};  // subtasks run (any thread, as const)
  template <typename Data>
  void process(Data& data) const {
    runs.fetch_add(1, std::memory_order_relaxed);
    data.for_entities([&](entity_id e) {
      data.output() += 1 + static_cast<int>(data.read(ct::position, e).x * 0);
    });
  }
};

struct user_strategy {  // asks for far more subtasks than entities, or none
  constexpr std::size_t subtasks(std::size_t entities,
                                 std::size_t threads) const {
    return entities == 1 ? 0 : entities * 3 + threads;
  }
};

template <auto Strategy>
struct strategy_tag {};

template <auto Strategy>
constexpr auto systems_for() {
  using S = strategy_tag<Strategy>;
  using a = counting_system<S, 0>;
  using b = counting_system<S, 1>;
  using c = counting_system<S, 2>;
  using d = counting_system<S, 3>;
  using x = counting_system<S, 4>;
  using y = counting_system<S, 5>;
  using z = counting_system<S, 6>;
  auto make = [](auto tag) {
    return strata::system_signature::make(tag)
        .read(ct::position)
        .parallelism(Strategy)
        .template output<int>();
  };
  return strata::system_signatures(
      make(strata::tag<a>), make(strata::tag<b>).dependencies(strata::tag<a>),
      make(strata::tag<c>).dependencies(strata::tag<a>),
      make(strata::tag<d>).dependencies(strata::tag<b>, strata::tag<c>),
      make(strata::tag<x>), make(strata::tag<y>),
      make(strata::tag<z>).dependencies(strata::tag<x>, strata::tag<y>));
}

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position));

// Sum of the subtask outputs of a system: the entities it visited.
template <typename Proxy, typename Tag>
int visited(Proxy& proxy, Tag tag) {
  int total = 0;
  proxy.for_system_outputs(tag, [&](auto&, int count) { total += count; });
  return total;
}

template <auto Strategy>
void run_strategy(const char* name) {
  static constexpr auto systems = systems_for<Strategy>();
  using S = strategy_tag<Strategy>;
  constexpr auto a = strata::tag<counting_system<S, 0>>;
  constexpr auto b = strata::tag<counting_system<S, 1>>;
  constexpr auto d = strata::tag<counting_system<S, 3>>;
  constexpr auto x = strata::tag<counting_system<S, 4>>;
  constexpr auto y = strata::tag<counting_system<S, 5>>;
  constexpr auto z = strata::tag<counting_system<S, 6>>;
  for (strata::hand_off mode :
       {strata::hand_off::automatic, strata::hand_off::always,
        strata::hand_off::never}) {
    for (std::size_t threads : {1, 2, 3, 9}) {
      for (int entities : {0, 1, 3, 100}) {
        SCOPED_TRACE(std::string(name) + " threads=" + std::to_string(threads) +
                     " entities=" + std::to_string(entities) +
                     " hand_off=" + std::to_string(static_cast<int>(mode)));
        strata::testing::run_with_timeout(std::chrono::seconds(60), name, [&] {
          auto ctx = strata::make_context(
              strata::settings()
                  .allow_inner_parallelism()
                  .component_signatures(components)
                  .system_signatures(systems)
                  .scheduler(strata::scheduler::atomic_counter)
                  .threads(threads)
                  .hand_off(mode));
          ctx.step([&](auto& proxy) {
            for (int i = 0; i < entities; ++i)
              proxy.add_component(ct::position, proxy.create_entity());
          });
          // d runs its subtasks twice: two nested fork-joins in one task.
          auto twice = strata::execution_adapter::t(d).detailed_instance(
              [](auto&, auto& executor) {
                for (int round = 0; round < 2; ++round) {
                  executor.for_subtasks(
                      [](auto& system, auto& data) { system.process(data); });
                }
              });
          auto once = strata::execution_adapter::all().for_subtasks(
              [](auto& system, auto& data) { system.process(data); });
          for (int step = 0; step < 10; ++step) {
            ctx.step([&](auto& proxy) {
              proxy.execute_systems()(twice, once);
              EXPECT_EQ(visited(proxy, a), entities);
              EXPECT_EQ(visited(proxy, b), entities);
              EXPECT_EQ(visited(proxy, d), 2 * entities);  // outputs accumulate
              EXPECT_EQ(visited(proxy, z), entities);
              const auto& inst = proxy.instance(a);
              EXPECT_GE(inst.subtask_count(), 1u);
              EXPECT_LE(inst.subtask_count(),
                        std::max<std::size_t>(entities, 1));
            });
            ctx.step([&](auto& proxy) {
              // Partial chain: z also depends on y, which does not run.
              const int y_runs = proxy.system(y).runs.load();
              proxy.execute_systems_from(x)(once);
              EXPECT_EQ(visited(proxy, x), entities);
              EXPECT_EQ(visited(proxy, z), entities);
              EXPECT_EQ(proxy.system(y).runs.load(), y_runs);
              // A chain from the middle of the diamond: d waits for b only.
              proxy.execute_systems_from(b)(twice, once);
              EXPECT_EQ(visited(proxy, d), 2 * entities);
            });
          }
          ctx.step([&](auto& proxy) {
            EXPECT_GT(proxy.system(a).runs.load(), 0);
            EXPECT_GT(proxy.system(y).runs.load(), 0);
          });
        });
      }
    }
  }
}

TEST(SchedulerDeadlockTest, None) {
  run_strategy<strata::inner_parallelism::none()>("none");
}
TEST(SchedulerDeadlockTest, SplitEvenly1) {
  run_strategy<strata::inner_parallelism::split_evenly(1)>("split_evenly(1)");
}
TEST(SchedulerDeadlockTest, SplitEvenly3) {
  run_strategy<strata::inner_parallelism::split_evenly(3)>("split_evenly(3)");
}
TEST(SchedulerDeadlockTest, SplitEvenly64) {
  run_strategy<strata::inner_parallelism::split_evenly(64)>("split_evenly(64)");
}
TEST(SchedulerDeadlockTest, SplitEvenlyPerCore) {
  run_strategy<strata::inner_parallelism::split_evenly_per_core()>(
      "split_evenly_per_core");
}
TEST(SchedulerDeadlockTest, SplitEveryN7) {
  run_strategy<strata::inner_parallelism::split_every_n(7)>("split_every_n(7)");
}
TEST(SchedulerDeadlockTest, FixedThreshold) {
  run_strategy<strata::inner_parallelism_composer::fixed_threshold(
      50, strata::inner_parallelism::split_evenly(4),
      strata::inner_parallelism::split_every_n(2))>("fixed_threshold");
}
TEST(SchedulerDeadlockTest, NoneBelowThreshold) {
  run_strategy<strata::inner_parallelism_composer::none_below_threshold(
      10, strata::inner_parallelism::split_evenly_per_core())>(
      "none_below_threshold");
}
TEST(SchedulerDeadlockTest, UserStrategy) {
  run_strategy<user_strategy{}>("user strategy");
}

}  // namespace
