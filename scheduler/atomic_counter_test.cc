// The atomic-counter scheduler driven directly: a system list, a thread pool
// and a run_system callable, no context.
#include "scheduler/atomic_counter.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "scheduler/dag.h"
#include "scheduler/sequential.h"
#include "testing/timeout.h"
#include "threading/task_group.h"
#include "threading/thread_pool.h"

namespace strata {
namespace {

struct a {};
struct b {};
struct c {};
struct d {};
struct e {};
struct f {};

using system_signature::make;

// a -> {b, c} -> d -> f; e alone.
constexpr auto systems =
    system_signatures(make(tag<a>), make(tag<b>).dependencies(tag<a>),
                      make(tag<c>).dependencies(tag<a>),
                      make(tag<d>).dependencies(tag<b>, tag<c>), make(tag<e>),
                      make(tag<f>).dependencies(tag<d>));
using list = std::remove_const_t<decltype(systems)>;
constexpr std::size_t kSystems = list::count;

constexpr std::array<bool, kSystems> all = [] {
  std::array<bool, kSystems> flags{};
  for (bool& flag : flags) flag = true;
  return flags;
}();
constexpr auto everything = list::chain(all);
constexpr auto from_b =
    list::chain(list::as_flags(std::array<std::size_t, 1>{1}));

// Records what ran, and checks at each start that every selected dependency
// has finished.
struct recorder {
  std::array<std::atomic<int>, kSystems> runs{};
  std::array<std::atomic<bool>, kSystems> finished{};
  std::atomic<int> violations{0};

  template <auto Selected>
  void run(std::size_t id) {
    for (std::size_t dep = 0; dep < kSystems; ++dep) {
      if (Selected[dep] && list::graph.depends[id][dep] &&
          !finished[dep].load(std::memory_order_acquire)) {
        violations.fetch_add(1);
      }
    }
    runs[id].fetch_add(1);
    finished[id].store(true, std::memory_order_release);
  }
};

class AtomicCounterTest : public ::testing::TestWithParam<std::size_t> {};

TEST_P(AtomicCounterTest, RunsEverySelectedSystemOnceAfterItsDependencies) {
  testing::run_with_timeout(std::chrono::seconds(60), "atomic_counter", [&] {
    thread_pool pool(GetParam());
    for (int round = 0; round < 200; ++round) {
      recorder r;
      scheduler::atomic_counter_t::execute<list, everything>(
          pool, [&](std::size_t id) { r.run<everything>(id); });
      for (std::size_t i = 0; i < kSystems; ++i) EXPECT_EQ(r.runs[i], 1);
      EXPECT_EQ(r.violations, 0);
    }
  });
}

TEST_P(AtomicCounterTest, APartialChainTreatsOutsideDependenciesAsSatisfied) {
  static_assert(from_b == std::array<bool, kSystems>{false, true, false, true,
                                                     false, true});
  testing::run_with_timeout(std::chrono::seconds(60), "partial chain", [&] {
    thread_pool pool(GetParam());
    recorder r;
    // d also depends on c, which is not selected: d must still run.
    scheduler::atomic_counter_t::execute<list, from_b>(
        pool, [&](std::size_t id) { r.run<from_b>(id); });
    EXPECT_EQ(r.runs,
              (std::array<std::atomic<int>, kSystems>{0, 1, 0, 1, 0, 1}));
    EXPECT_EQ(r.violations, 0);
  });
}

TEST_P(AtomicCounterTest, AThrowingSystemStopsItsDependentsOnly) {
  testing::run_with_timeout(std::chrono::seconds(60), "exceptions", [&] {
    thread_pool pool(GetParam());
    recorder r;
    EXPECT_THROW((scheduler::atomic_counter_t::execute<list, everything>(
                     pool,
                     [&](std::size_t id) {
                       if (id == 1) throw std::runtime_error("b failed");
                       r.run<everything>(id);
                     })),
                 std::runtime_error);
    EXPECT_EQ(r.runs[0], 1);  // a
    EXPECT_EQ(r.runs[2], 1);  // c
    EXPECT_EQ(r.runs[4], 1);  // e: independent
    EXPECT_EQ(r.runs[3], 0);  // d waits for b
    EXPECT_EQ(r.runs[5], 0);  // f waits for d
    // The pool stays usable.
    recorder again;
    scheduler::atomic_counter_t::execute<list, everything>(
        pool, [&](std::size_t id) { again.run<everything>(id); });
    for (std::size_t i = 0; i < kSystems; ++i) EXPECT_EQ(again.runs[i], 1);
  });
}

TEST_P(AtomicCounterTest, SystemsThatForkAndJoinDoNotDeadlock) {
  testing::run_with_timeout(std::chrono::seconds(60), "nested fork-join", [&] {
    thread_pool pool(GetParam());
    std::atomic<int> items{0};
    for (int round = 0; round < 50; ++round) {
      scheduler::atomic_counter_t::execute<list, everything>(
          pool, [&](std::size_t) {
            parallel_for(pool, 4, [&](std::size_t) { items.fetch_add(1); });
          });
    }
    EXPECT_EQ(items, 50 * 4 * static_cast<int>(kSystems));
  });
}

INSTANTIATE_TEST_SUITE_P(Workers, AtomicCounterTest,
                         ::testing::Values(0, 1, 2, 8));

// hand_off::automatic decides from the predicted work off the critical path
// (a -> {b, c} -> d -> f; e alone).
constexpr std::int64_t kMillisecond = 1'000'000;

TEST(AtomicCounterHandOffTest, AStepThatIsOneLongChainRunsOnTheCallingThread) {
  thread_pool pool(2);
  // a, b, d, f: 1 ms each; c: 1 us; e: kHandOffNs, worth a hand-off on its
  // own. Off the critical path: e + c, below kInlineStepNs.
  constexpr std::int64_t e_ns = hand_off_policy::kHandOffNs;
  const auto predict = [](std::size_t id) -> std::int64_t {
    return id == 2 ? 1'000 : id == 4 ? e_ns : kMillisecond;
  };
  static_assert(e_ns + 1'000 < hand_off_policy::kInlineStepNs);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  std::atomic<int> runs{0};
  scheduler::atomic_counter_t::execute<list, everything>(
      pool,
      [&](std::size_t) {
        runs.fetch_add(1);
        if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
      },
      predict, hand_off::automatic);
  EXPECT_EQ(runs.load(), static_cast<int>(kSystems));
  EXPECT_EQ(elsewhere.load(), 0);
}

TEST(AtomicCounterHandOffTest, WorkBesideTheCriticalPathGoesToAnotherThread) {
  testing::run_with_timeout(std::chrono::seconds(60), "rendezvous", [&] {
    thread_pool pool(1);
    // e (1 ms) beside the chain a -> b -> d -> f (1 ms each): worth a
    // thread. a and e wait for each other, which only two threads can do;
    // inline, each would give up after its bounded wait.
    const auto predict = [](std::size_t) { return kMillisecond; };
    std::array<std::atomic<bool>, kSystems> started{};
    std::atomic<int> met{0};
    const auto meet = [&](std::size_t self, std::size_t other) {
      started[self].store(true);
      const auto give_up =
          std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!started[other].load()) {
        if (std::chrono::steady_clock::now() > give_up) return;
        std::this_thread::yield();
      }
      met.fetch_add(1);
    };
    scheduler::atomic_counter_t::execute<list, everything>(
        pool,
        [&](std::size_t id) {
          if (id == 0) meet(0, 4);
          if (id == 4) meet(4, 0);
        },
        predict, hand_off::automatic);
    EXPECT_EQ(met.load(), 2);
  });
}

// The sequential scheduler runs the same selection in topological order.
TEST(SequentialTest, RunsTheSelectionInTopologicalOrder) {
  thread_pool pool(0);
  std::vector<std::size_t> order;
  scheduler::sequential_t::execute<list, everything>(
      pool, [&](std::size_t id) { order.push_back(id); });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  order.clear();
  scheduler::sequential_t::execute<list, from_b>(
      pool, [&](std::size_t id) { order.push_back(id); });
  EXPECT_EQ(order, (std::vector<std::size_t>{1, 3, 5}));
}

}  // namespace
}  // namespace strata
