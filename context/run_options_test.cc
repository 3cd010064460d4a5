// Run options (context/run_options.h): what a program picks at run time
// beside named settings overrides the settings, and a scheduler chosen at
// run time runs as the scheduler of that name.
#include "context/run_options.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#include "context/context.h"
#include "testing/allocation_counter.h"
#include "testing/components.h"

namespace {

using strata::testing::position;
using strata::testing::velocity;
namespace ct = strata::testing::ct;

// Where each subtask of a step ran, in the order they ran.
struct subtask_log {
  std::mutex mutex;
  std::vector<std::thread::id> threads;
  std::vector<std::size_t> subtasks;
  // How long each subtask sleeps after its loop: long enough, in the test
  // that looks for a worker, for one to wake and take a subtask even on a
  // loaded machine (the caller would otherwise finish them all first).
  std::chrono::microseconds linger{0};
};

// Moves every entity by its velocity and notes where each subtask ran
// (the log is a test probe, guarded by its mutex).
struct integrate {
  explicit integrate(subtask_log* log) : log(log) {}
  subtask_log* log;
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x;
      p.y += v.y * p.x;
    });
    if (log->linger.count() > 0) std::this_thread::sleep_for(log->linger);
    std::lock_guard lock(log->mutex);
    log->threads.push_back(std::this_thread::get_id());
    log->subtasks.push_back(data.subtask_index());
  }
};
// Follows integrate: reads what it wrote.
struct damp {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](const position& p, velocity& v) {
      v.x = v.x * 0.5f + p.y * 0.001f;
    });
  }
};

namespace st {
inline constexpr auto integrate = strata::tag<::integrate>;
inline constexpr auto damp = strata::tag<::damp>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::integrate)
        .parallelism(strata::inner_parallelism::split_evenly(4))
        .read(ct::velocity)
        .write(ct::position),
    strata::system_signature::make(st::damp)
        .parallelism(strata::inner_parallelism::split_evenly(4))
        .read(ct::position)
        .write(ct::velocity)
        .dependencies(st::integrate));

constexpr auto parallel_settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(components)
        .system_signatures(systems)
        .scheduler(strata::scheduler::atomic_counter)
        .threads(1);
constexpr auto sequential_settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(components)
        .system_signatures(systems)
        .scheduler(strata::scheduler::sequential)
        .threads(1);

template <typename Context>
void populate(Context& ctx, int count) {
  ctx.step([count](auto& proxy) {
    for (int i = 0; i < count; ++i) {
      const strata::entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, static_cast<float>(i));
      proxy.add_component(ct::velocity, e, 1.f + static_cast<float>(i % 7),
                          0.25f);
    }
  });
}

template <typename Context>
void run_steps(Context& ctx, int steps) {
  for (int i = 0; i < steps; ++i) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  }
}

template <typename Context>
std::vector<position> positions(const Context& ctx) {
  std::vector<position> out;
  ctx.for_each([&](const position& p) { out.push_back(p); });
  return out;
}

TEST(RunOptionsTest, ThreadsOverrideTheSettings) {
  subtask_log log;
  auto defaults = strata::make_context<parallel_settings>(
      strata::system_arguments(st::integrate, &log));
  EXPECT_EQ(defaults.thread_count(), 1u);
  auto three = strata::make_context<parallel_settings>(
      strata::system_arguments(st::integrate, &log),
      strata::run_options().threads(3));
  EXPECT_EQ(three.thread_count(), 3u);
}

TEST(RunOptionsTest,
     SequentialChosenAtRunTimeRunsEverySubtaskInOrderOnTheCaller) {
  subtask_log log;
  auto ctx = strata::make_context<parallel_settings>(
      strata::system_arguments(st::integrate, &log),
      strata::run_options()
          .threads(4)
          .scheduler(strata::scheduler_kind::sequential)
          .hand_off(strata::hand_off::always));
  populate(ctx, 4000);
  run_steps(ctx, 20);
  ASSERT_EQ(log.subtasks.size(), 20u * 4u);
  for (std::size_t i = 0; i < log.subtasks.size(); ++i) {
    EXPECT_EQ(log.subtasks[i], i % 4) << "subtask order at " << i;
    EXPECT_EQ(log.threads[i], std::this_thread::get_id()) << "at " << i;
  }
}

// The same options with atomic_counter chosen hand subtasks to workers: the
// scheduler option is what made the run above sequential.
TEST(RunOptionsTest, AtomicCounterChosenAtRunTimeUsesTheWorkers) {
  subtask_log log;
  log.linger = std::chrono::milliseconds(2);
  auto ctx = strata::make_context<parallel_settings>(
      strata::system_arguments(st::integrate, &log),
      strata::run_options()
          .threads(4)
          .scheduler(strata::scheduler_kind::atomic_counter)
          .hand_off(strata::hand_off::always));
  populate(ctx, 4000);
  bool on_a_worker = false;
  for (int step = 0; step < 200 && !on_a_worker; ++step) {
    run_steps(ctx, 1);
    for (std::thread::id id : log.threads) {
      on_a_worker |= id != std::this_thread::get_id();
    }
  }
  EXPECT_TRUE(on_a_worker);
}

TEST(RunOptionsTest, EverySchedulerChoiceEndsInTheSameState) {
  subtask_log reference_log;
  auto reference = strata::make_context<sequential_settings>(
      strata::system_arguments(st::integrate, &reference_log));
  populate(reference, 3000);
  run_steps(reference, 30);
  const std::vector<position> expected = positions(reference);
  for (strata::scheduler_kind kind : {strata::scheduler_kind::sequential,
                                      strata::scheduler_kind::atomic_counter}) {
    for (std::size_t threads : {1u, 2u, 4u}) {
      subtask_log log;
      auto ctx = strata::make_context<parallel_settings>(
          strata::system_arguments(st::integrate, &log),
          strata::run_options().threads(threads).scheduler(kind));
      populate(ctx, 3000);
      run_steps(ctx, 30);
      EXPECT_EQ(positions(ctx), expected)
          << "threads " << threads << ", scheduler "
          << (kind == strata::scheduler_kind::sequential ? "sequential"
                                                         : "atomic_counter");
    }
  }
}

TEST(RunOptionsDeathTest, AtomicCounterOnASequentialContextFailsNamingTheFix) {
  subtask_log log;
  EXPECT_DEATH(strata::make_context<sequential_settings>(
                   strata::system_arguments(st::integrate, &log),
                   strata::run_options().scheduler(
                       strata::scheduler_kind::atomic_counter)),
               "choose strata::scheduler::atomic_counter in the settings");
}

constexpr auto fixed_settings = strata::settings()
                                    .fixed_entity_limit<64>()
                                    .component_signatures(components)
                                    .system_signatures(systems);

TEST(RunOptionsDeathTest, ReservingEntitiesUnderAFixedLimitFails) {
  subtask_log log;
  EXPECT_DEATH(strata::make_context<fixed_settings>(
                   strata::system_arguments(st::integrate, &log),
                   strata::run_options().reserve_entities(32)),
               "the settings' entity limit is fixed");
}

// Reserved entities are made without growing the storages: fewer
// allocations than the same creations without a reservation.
TEST(RunOptionsTest, ReservedEntitiesNeedNoGrowth) {
  const auto allocations_for = [](strata::run_options options) {
    subtask_log log;
    auto ctx = strata::make_context<parallel_settings>(
        strata::system_arguments(st::integrate, &log), options);
    const std::size_t before = strata::testing::allocation_count();
    populate(ctx, 5000);
    return strata::testing::allocation_count() - before;
  };
  const std::size_t reserved =
      allocations_for(strata::run_options().reserve_entities(5000));
  const std::size_t growing = allocations_for(strata::run_options());
  EXPECT_LT(reserved, growing);
}

}  // namespace
