// Determinism of result: on random DAGs (generated at compile time, see
// context/random_dag_testing.h) with random entity churn from the step and
// from systems (kills and deferred create / add / remove / kill), every
// inner-parallelism strategy (automatic() and one subtask per entity
// included), and one step in four running every system again (by
// execute_systems, or by a detailed_instance calling for_subtasks twice),
// both schedulers with 0, 1, 2, 3, 8, 16 and 64 workers (1 to 65 threads),
// the atomic_counter scheduler with every hand-off mode, and on external
// executors (strata::run_on), leave exactly the state the sequential
// scheduler leaves on one thread: the same entities (index and version),
// the same component values, the same subscriptions (in the same order) and
// the same system outputs. The systems' data flow is
// order-sensitive (each hashes what it reads, writes hash-derived values and
// outputs a sum its dependents mix in), so running a system before one of its
// dependencies changes the result. A digest is compared after every step so a
// divergence names its step.
//
// Length (scheduler_determinism_testing.h): a short run of one churn seed
// in `bazel test`; `tools/stress.sh --long` (STRATA_STRESS_STEPS and
// STRATA_STRESS_SEEDS) runs more steps and seeds.
#include <chrono>
#include <cstddef>
#include <string>

#include "context/scheduler_determinism_testing.h"
#include "gtest/gtest.h"
#include "testing/executors.h"
#include "testing/timeout.h"

namespace strata::determinism_testing {
namespace {

// The sequential run, checked for an interesting population.
run_result reference_run(const run_length& length) {
  run_result reference = sequential_run(length, 1);
  EXPECT_GT(reference.second.entities.size(), 20u)
      << "the churn should keep a population alive";
  return reference;
}

// Runs `run_once` (under a timeout) and compares it with `reference` step by
// step, so a divergence names its first step.
template <typename RunOnce>
void expect_same_run(const run_length& length, const run_result& reference,
                     RunOnce run_once) {
  run_result result;
  strata::testing::run_with_timeout(
      std::chrono::seconds(length.from_environment ? 86400 : 120),
      "determinism run", [&] { result = run_once(); });
  ASSERT_EQ(result.first.size(), reference.first.size());
  for (std::size_t step = 0; step < reference.first.size(); ++step) {
    ASSERT_EQ(result.first[step], reference.first[step])
        << "state diverged after step " << step;
  }
  EXPECT_TRUE(result.second == reference.second);
}

// On the context's own thread pool: both schedulers with 0, 1, 2, 3, 8, 16
// and 64 workers; atomic_counter also with the hand-off decisions forced
// both ways (left to the cost model above).
template <typename Dag>
void check_on_thread_pools(const run_length& length) {
  const run_result reference = reference_run(length);
  for (std::size_t threads : {1, 2, 3, 4, 9, 17, 65}) {
    if (threads > 1) {
      SCOPED_TRACE("sequential, threads=" + std::to_string(threads));
      expect_same_run(length, reference,
                      [&] { return sequential_run(length, threads); });
    }
    SCOPED_TRACE("atomic_counter, threads=" + std::to_string(threads));
    expect_same_run(length, reference, [&] {
      return run<Dag>(length, base_settings<Dag>()
                                  .scheduler(strata::scheduler::atomic_counter)
                                  .threads(threads));
    });
  }
  for (strata::hand_off mode :
       {strata::hand_off::always, strata::hand_off::never}) {
    for (std::size_t threads : {3, 9}) {
      SCOPED_TRACE("atomic_counter, threads=" + std::to_string(threads) +
                   ", hand_off=" + std::to_string(static_cast<int>(mode)));
      expect_same_run(length, reference, [&] {
        return run<Dag>(length,
                        base_settings<Dag>()
                            .scheduler(strata::scheduler::atomic_counter)
                            .threads(threads)
                            .hand_off(mode));
      });
    }
  }
}

// On an engine's job system (strata::run_on): a real one with 1 and 3
// threads, and one that runs every job inline while claiming 2 threads.
template <typename Dag>
void check_on_executors(const run_length& length) {
  const run_result reference = reference_run(length);
  auto check_on = [&](strata::executor& jobs, const std::string& name) {
    SCOPED_TRACE("atomic_counter on " + name);
    expect_same_run(length, reference, [&] {
      return run<Dag>(length,
                      base_settings<Dag>()
                          .scheduler(strata::scheduler::atomic_counter)
                          .hand_off(strata::hand_off::always),
                      strata::run_on(jobs));
    });
  };
  for (std::size_t threads : {1, 3}) {
    strata::testing::threads_executor jobs(threads);
    check_on(jobs, std::to_string(threads) + " executor threads");
    EXPECT_GT(jobs.jobs_run(), 0u) << "the executor was not used";
  }
  strata::testing::inline_executor inline_jobs(2);
  check_on(inline_jobs, "an inline executor");
  EXPECT_GT(inline_jobs.jobs_run(), 0u) << "the executor was not used";
}

// The generated DAGs really are interesting: parallel branches, edges, and
// written components (checked at compile time).
template <typename Dag>
constexpr bool interesting() {
  std::size_t writes = 0, unordered = 0;
  for (std::size_t i = 0; i < Dag::count; ++i) {
    for (bool w : Dag::spec.writes[i]) writes += w;
    for (std::size_t j = i + 1; j < Dag::count; ++j)
      unordered += !Dag::spec.ordered(i, j);
  }
  return writes >= Dag::count / 2 && unordered >= Dag::count &&
         Dag::edge_count() >= Dag::count;
}

static_assert(interesting<dag>());

#if STRATA_DETERMINISM_ON_EXECUTORS
TEST(SchedulerDeterminismTest, RandomDagOnExecutors) {
  for (const run_length& length : run_lengths()) {
    SCOPED_TRACE("churn seed " + std::to_string(length.seed) + ", " +
                 std::to_string(length.steps) + " steps");
    check_on_executors<dag>(length);
  }
}
#else
TEST(SchedulerDeterminismTest, RandomDagOnThreadPools) {
  for (const run_length& length : run_lengths()) {
    SCOPED_TRACE("churn seed " + std::to_string(length.seed) + ", " +
                 std::to_string(length.steps) + " steps");
    check_on_thread_pools<dag>(length);
  }
}
#endif

}  // namespace
}  // namespace strata::determinism_testing
