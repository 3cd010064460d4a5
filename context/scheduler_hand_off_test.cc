// Where the threaded scheduler runs systems when it decides by itself
// (hand_off::automatic): a step predicted too small to pay for a second
// thread runs every system on the calling thread, step after step (also on
// the steps that skip the ranking, system_runner.h's too_small_for_threads,
// and on the sampling steps that re-measure); a step of two independent
// systems that each take milliseconds hands one of them to the worker.
// No wall-clock threshold is asserted: the heavy systems sleep far above
// every hand-off constant, the light ones do almost nothing.
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

namespace ct = strata::testing::ct;

// Two independent systems reading position; `heavy` ones sleep on every run.
template <bool Heavy, std::size_t I>
struct sleeper_system {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([](strata::entity_id) {});
    if constexpr (Heavy) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
};

// Never split (ips::none()): only the outer decision, handing a whole
// system to the worker, can move a run off the calling thread.
template <bool Heavy>
constexpr auto pair_of_systems = strata::system_signatures(
    strata::ss::make(strata::tag<sleeper_system<Heavy, 0>>)
        .read(ct::position)
        .parallelism(strata::ips::none()),
    strata::ss::make(strata::tag<sleeper_system<Heavy, 1>>)
        .read(ct::position)
        .parallelism(strata::ips::none()));

constexpr auto components =
    strata::component_signatures(strata::cs::make(ct::position));

// Steps `steps` times; returns how many system runs happened on a thread
// other than the caller's.
template <bool Heavy>
int runs_off_the_calling_thread(int steps) {
  auto ctx =
      strata::make_context(strata::settings()
                               .allow_inner_parallelism()
                               .component_signatures(components)
                               .system_signatures(pair_of_systems<Heavy>)
                               .scheduler(strata::scheduler::atomic_counter)
                               .threads(2)
                               .hand_off(strata::hand_off::automatic));
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 8; ++i) {
      proxy.add_component(ct::position, proxy.create_entity());
    }
  });
  std::atomic<int> elsewhere{0};
  const std::thread::id caller = std::this_thread::get_id();
  for (int step = 0; step < steps; ++step) {
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(
          strata::sea::all().for_subtasks([&](auto& system, auto& data) {
            if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
            system.process(data);
          }));
    });
  }
  return elsewhere.load();
}

TEST(SchedulerHandOffTest, SmallStepsStayOnTheCallingThread) {
  // 100 steps: several sampling steps, and the ones between them that skip
  // the ranking.
  EXPECT_EQ(runs_off_the_calling_thread</*Heavy=*/false>(100), 0);
}

TEST(SchedulerHandOffTest, HeavyIndependentSystemsUseTheWorker) {
  // The first step measures (unknown costs run inline); from the second,
  // 5 ms of work off the critical path is far above kInlineStepNs, and the
  // caller posts one system every step, not only on sampling steps (one in
  // 32). The worker, idle and sleeping-system friendly, takes most of them;
  // a quarter leaves room for a loaded machine.
  EXPECT_GE(runs_off_the_calling_thread</*Heavy=*/true>(40), 10);
}

}  // namespace
