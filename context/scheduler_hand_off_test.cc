// Where the threaded scheduler runs systems when it decides by itself
// (hand_off::automatic): a step predicted too small to pay for a second
// thread runs every system on the calling thread, step after step (also on
// the steps that run by the remembered decision without predicting,
// internal/adaptive_run_policy.cc, and on the sampling steps that time them); a
// step of two independent
// systems that each take milliseconds hands one of them to the worker; and
// small systems that become heavy are noticed at the next sampling step,
// and a world that grows in one step at the step after it.
// No wall-clock threshold is asserted: the heavy systems sleep far above
// every hand-off constant, the light ones do almost nothing.
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <thread>
#include <utility>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

namespace ct = strata::testing::ct;

// Two independent systems reading position. How long a run takes is the
// test's business: the adapter sleeps in heavy steps (the subtask's
// measured work includes it).
template <std::size_t I>
struct idle_system {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([](strata::entity_id) {});
  }
};

// Never split (inner_parallelism::none()): only the outer decision, handing a
// whole system to the worker, can move a run off the calling thread.
constexpr auto pair_of_systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<idle_system<0>>)
        .read(ct::position)
        .parallelism(strata::inner_parallelism::none()),
    strata::system_signature::make(strata::tag<idle_system<1>>)
        .read(ct::position)
        .parallelism(strata::inner_parallelism::none()));

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position));

// Settings of every test here: the atomic-counter scheduler on two threads,
// deciding by itself.
template <typename Systems>
constexpr auto deciding_on_two_threads(Systems systems) {
  return strata::settings()
      .component_signatures(components)
      .system_signatures(systems)
      .scheduler(strata::scheduler::atomic_counter)
      .threads(2)
      .hand_off(strata::hand_off::automatic);
}

// How many system runs happened on a thread other than the caller's, in
// each phase of a run: `light_steps` steps of empty systems, then
// `heavy_steps` steps in which every run sleeps 5 ms.
struct off_caller_runs {
  int light = 0;
  int heavy = 0;
};
off_caller_runs runs_off_the_calling_thread(int light_steps, int heavy_steps) {
  auto ctx = strata::make_context(
      deciding_on_two_threads(pair_of_systems).allow_inner_parallelism());
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 8; ++i) {
      proxy.add_component(ct::position, proxy.create_entity());
    }
  });
  const std::thread::id caller = std::this_thread::get_id();
  const auto run_steps = [&](int steps, bool heavy) {
    std::atomic<int> elsewhere{0};
    for (int step = 0; step < steps; ++step) {
      ctx.step([&](auto& proxy) {
        proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
            [&](auto& system, auto& data) {
              if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
              system.process(data);
              if (heavy) {
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
              }
            }));
      });
    }
    return elsewhere.load();
  };
  off_caller_runs runs;
  runs.light = run_steps(light_steps, false);
  runs.heavy = run_steps(heavy_steps, true);
  return runs;
}

TEST(SchedulerHandOffTest, SmallStepsStayOnTheCallingThread) {
  // 100 steps: several sampling steps, and the ones between them that skip
  // the ranking.
  EXPECT_EQ(runs_off_the_calling_thread(100, 0).light, 0);
}

TEST(SchedulerHandOffTest, HeavyIndependentSystemsUseTheWorker) {
  // The first step measures (unknown costs run inline); from the second,
  // 5 ms of work off the critical path is far above kInlineStepNs, and the
  // caller posts one system every step, not only on sampling steps (one in
  // 32). The worker, idle and sleeping-system friendly, takes most of them;
  // a quarter leaves room for a loaded machine.
  EXPECT_GE(runs_off_the_calling_thread(0, 40).heavy, 10);
}

TEST(SchedulerHandOffTest, DecisionsFollowSystemsThatBecomeHeavy) {
  // 100 light steps: the costs are known and tiny, the call runs by its
  // remembered inline decision. Then each run takes 5 ms: a sampling step
  // (at most 32 steps later) times the call, finds it over its budget and
  // forgets the decision; the next step measures every system, the
  // predictions jump, and the caller starts posting. Over 70 heavy steps,
  // at least 36 come after that.
  const off_caller_runs runs = runs_off_the_calling_thread(100, 70);
  EXPECT_EQ(runs.light, 0);
  EXPECT_GE(runs.heavy, 10);
}

// Systems whose runs cost a fixed time per entity (spinning, so that the
// cost model sees exactly that): cheap on a small world, heavy once the
// world grows.
constexpr auto kPerEntity = std::chrono::microseconds(1);
template <std::size_t I>
struct per_entity_system {
  template <typename Data>
  void process(Data& data) const {
    const auto until = std::chrono::steady_clock::now() +
                       kPerEntity * static_cast<int>(data.slice_entity_count());
    while (std::chrono::steady_clock::now() < until) {
    }
  }
};
constexpr auto pair_of_per_entity_systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<per_entity_system<0>>)
        .read(ct::position)
        .parallelism(strata::inner_parallelism::none()),
    strata::system_signature::make(strata::tag<per_entity_system<1>>)
        .read(ct::position)
        .parallelism(strata::inner_parallelism::none()));

TEST(SchedulerHandOffTest, DecisionsFollowAWorldThatGrows) {
  // 8 entities: 8 us per system, a step the scheduler runs inline and then
  // keeps running inline by its remembered decision, without predicting
  // (internal/adaptive_run_policy.cc). Right after a sampling step, the world
  // grows to 8008 entities in one step: 8 ms per system. The growth is
  // seen at that step's refresh, so the next step decides again and hands
  // one system to the worker, although the next sampling step (which would
  // also catch it, by timing the call) is more than 7 steps away.
  auto ctx =
      strata::make_context(deciding_on_two_threads(pair_of_per_entity_systems));
  // The adaptive policy's sampling period (internal/adaptive_run_policy.h).
  constexpr std::uint64_t kCostSampleSteps =
      strata::context_internal::cost_model::kCostSampleSteps;
  const auto add_entities = [&](int count) {
    ctx.step([&](auto& proxy) {
      for (int i = 0; i < count; ++i) {
        proxy.add_component(ct::position, proxy.create_entity());
      }
    });
  };
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  const auto update = [&] {
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [&](auto& system, auto& data) {
            if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
            system.process(data);
          }));
    });
  };
  add_entities(8);
  // Settle: wait for a whole sampling period that runs every system on the
  // calling thread. A sanitizer's first runs, or a preemption during a
  // sampling step, can time a light step as heavy and post it until the
  // next sample; a scheduler that never settles inline fails here.
  constexpr int kMaximumPeriods = 20;
  bool settled = false;
  for (int period = 0; period < kMaximumPeriods && !settled; ++period) {
    // Align: the next step is the first after a sampling step.
    while (ctx.step_count() % kCostSampleSteps != 1) update();
    const int before = elsewhere.load();
    for (std::uint64_t step = 0; step < kCostSampleSteps; ++step) {
      update();
    }
    settled = elsewhere.load() == before;
  }
  ASSERT_TRUE(settled) << "light steps kept leaving the calling thread";
  ASSERT_EQ(ctx.step_count() % kCostSampleSteps, 1u);
  const int before_growth = elsewhere.load();
  add_entities(8000);
  for (int step = 0; step < 7; ++step) update();
  static_assert(7 + 1 < kCostSampleSteps);
  // Six of the seven steps decide with the grown world and post a system;
  // one taken by the worker suffices (a loaded machine may leave the
  // posted one to the caller).
  EXPECT_GE(elsewhere.load() - before_growth, 1);
}

// How long a run of pair_of_systems sleeps: `on_caller` on the calling
// thread, `elsewhere` on any other.
struct run_sleeps {
  std::chrono::microseconds on_caller;
  std::chrono::microseconds elsewhere;
};

// Steps of pair_of_systems, `phases` after one another (each: a number of
// steps and the sleeps of its runs): how many runs of the last `window`
// steps happened off the calling thread.
int off_caller_runs_at_the_end(
    std::initializer_list<std::pair<int, run_sleeps>> phases, int window) {
  auto ctx = strata::make_context(deciding_on_two_threads(pair_of_systems));
  ctx.step([](auto& proxy) {
    proxy.add_component(ct::position, proxy.create_entity());
  });
  int steps = 0;
  for (const auto& phase : phases) steps += phase.first;
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  int step = 0;
  for (const auto& phase : phases) {
    // Not a structured binding: Clang 14 cannot capture one in a lambda.
    const run_sleeps& sleeps = phase.second;
    for (int i = 0; i < phase.first; ++i, ++step) {
      const bool counted = step >= steps - window;
      ctx.step([&](auto& proxy) {
        proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
            [&](auto& system, auto& data) {
              system.process(data);
              const bool off = std::this_thread::get_id() != caller;
              if (off && counted) elsewhere.fetch_add(1);
              std::this_thread::sleep_for(off ? sleeps.elsewhere
                                              : sleeps.on_caller);
            }));
      });
    }
  }
  return elsewhere.load();
}
int off_caller_runs_at_the_end(int steps, int window,
                               std::chrono::microseconds sleep_on_caller,
                               std::chrono::microseconds sleep_elsewhere) {
  return off_caller_runs_at_the_end(
      {{steps, run_sleeps{sleep_on_caller, sleep_elsewhere}}}, window);
}

TEST(SchedulerHandOffTest, ThreadsThatDoNotPayAreDropped) {
  // What the predictions cannot see (a worker slow to wake, a busy core):
  // here a run takes 10 ms off the calling thread and 1 ms on it. Each
  // system is predicted in milliseconds, so the scheduler posts one every
  // step; the probes (every 32nd call to decide runs inline, timed) find
  // the step 5x faster inline, and after the second the call runs inline
  // (internal/adaptive_run_policy.cc), its sampled runs far within their
  // budget (the threaded mean). Without the probes every one of the last
  // 100 steps would post a system (about 100 runs off the calling thread).
  EXPECT_LT(off_caller_runs_at_the_end(200, 100, std::chrono::milliseconds(1),
                                       std::chrono::milliseconds(10)),
            50);
}

TEST(SchedulerHandOffTest, ThreadsComeBackAfterATransientLoss) {
  // 100 steps whose runs take 10 ms off the calling thread and 1 ms on it
  // (threads lose: the call is remembered inline, with a budget of the
  // threaded mean, ~10 ms), then runs of 3 ms wherever they run (threads
  // pay; an inline step, 6 ms, stays within the budget, so only the
  // decision's lifetime can end it). A decision lasts about
  // kRecheckNs of inline steps (here ~50 calls of 2 ms);
  // the recheck's fresh runs bring the threads back. With a fixed 1024
  // calls, no run of the last 60 steps would leave the calling thread.
  using std::chrono::milliseconds;
  EXPECT_GE(off_caller_runs_at_the_end(
                {{100, run_sleeps{milliseconds(1), milliseconds(10)}},
                 {160, run_sleeps{milliseconds(3), milliseconds(3)}}},
                60),
            20);
}

TEST(SchedulerHandOffTest, ThreadsThatPayAreKept) {
  // The same with 5 ms per run wherever it runs: on two threads a step
  // takes 5 ms plus wake-ups, inline 10 ms (sleeps: a loaded machine
  // delays wake-ups, not the sleeping), so the probes confirm the threads
  // and the worker keeps taking one system a step (a third of the last 60
  // steps leaves room for a loaded machine).
  EXPECT_GE(off_caller_runs_at_the_end(130, 60, std::chrono::milliseconds(5),
                                       std::chrono::milliseconds(5)),
            20);
}

}  // namespace
