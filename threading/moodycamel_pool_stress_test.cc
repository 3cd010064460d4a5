// thread_pool_stress_test's scenarios on moodycamel_pool (and
// moodycamel_group on it): many threads post at once, tasks spawn tasks
// (fire-and-forget posts, group runs into their own group), fork-join nests
// from workers and from other threads, and the
// pool is destroyed while posted chains are still spawning. Pools of 0, 1, 2,
// 8 and 64 workers (64 oversubscribes any CI machine, which is the point).
//
// The shape of the work is a deterministic tree: a node's kind and fan-out
// come from a hash of its key, its children's keys from its own, and the
// roots' keys from a fixed seed. So the number of task executions is known
// in advance (count_nodes), whatever the threads do. Every execution gets an
// id when it is created and bumps its own slot when it runs: a task lost, run
// twice, or never created shows up as a wrong slot or a wrong total; a lost
// wake-up or a deadlock as the timeout.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "testing/timeout.h"
#include "threading/internal/moodycamel_pool.h"

namespace strata::threading_internal {
namespace {

using namespace std::chrono_literals;
using ::strata::testing::run_with_timeout;

constexpr std::uint64_t kSeed = 0x5eed'2024'0001ULL;
constexpr int kPostingThreads = 4;
constexpr int kRootsPerThread = 96;
constexpr int kRootDepth = 5;
constexpr std::size_t kMaxExecutions = 1u << 20;

std::uint64_t mix(std::uint64_t x) noexcept {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t child_key(std::uint64_t key, int i) noexcept {
  return mix(key ^ (static_cast<std::uint64_t>(i + 1) << 40));
}

// How a node spawns its children. Every kind makes `fanout` children, each
// one task execution at depth - 1.
enum class kind {
  leaf,   // nothing
  post,   // plain posts: nobody waits for them
  group,  // moodycamel_group::run each child, then wait
  chain,  // a group chain: each child runs the next into the group
};

struct shape {
  kind how;
  int fanout;
};

shape shape_of(std::uint64_t key, int depth) noexcept {
  if (depth == 0) return {kind::leaf, 0};
  const std::uint64_t r = mix(key);
  const auto how = static_cast<kind>(r % 4);
  if (how == kind::leaf) return {kind::leaf, 0};
  return {how, 1 + static_cast<int>((r >> 8) % 4)};
}

std::size_t count_nodes(std::uint64_t key, int depth) {
  const shape s = shape_of(key, depth);
  std::size_t n = 1;
  for (int i = 0; i < s.fanout; ++i) {
    n += count_nodes(child_key(key, i), depth - 1);
  }
  return n;
}

struct world {
  explicit world(moodycamel_pool& p) : pool(p), runs(kMaxExecutions) {}

  std::size_t new_ids(std::size_t n) {
    return next_id.fetch_add(n, std::memory_order_relaxed);
  }

  moodycamel_pool& pool;
  std::vector<std::atomic<std::uint8_t>> runs;
  std::atomic<std::size_t> next_id{0};
  std::atomic<bool> overflow{false};
};

void run_node(world& w, std::uint64_t key, int depth, std::size_t id);

// One link of a `chain` node: runs child i, then adds link i + 1 to the
// group (a group task spawning into its own group).
void run_link(world& w, moodycamel_group& group, std::uint64_t parent,
              int depth, int i, int fanout, std::size_t id) {
  run_node(w, child_key(parent, i), depth - 1, id);
  if (i + 1 < fanout) {
    const std::size_t next = w.new_ids(1);
    group.run([&w, &group, parent, depth, i, fanout, next] {
      run_link(w, group, parent, depth, i + 1, fanout, next);
    });
  }
}

void run_node(world& w, std::uint64_t key, int depth, std::size_t id) {
  if (id >= kMaxExecutions) {
    w.overflow.store(true, std::memory_order_relaxed);
  } else {
    w.runs[id].fetch_add(1, std::memory_order_relaxed);
  }
  const shape s = shape_of(key, depth);
  switch (s.how) {
    case kind::leaf:
      return;
    case kind::post:
      for (int i = 0; i < s.fanout; ++i) {
        const std::size_t child = w.new_ids(1);
        w.pool.post([&w, k = child_key(key, i), depth, child] {
          run_node(w, k, depth - 1, child);
        });
      }
      return;
    case kind::group: {
      moodycamel_group group(w.pool);
      for (int i = 0; i < s.fanout; ++i) {
        const std::size_t child = w.new_ids(1);
        group.run([&w, k = child_key(key, i), depth, child] {
          run_node(w, k, depth - 1, child);
        });
      }
      group.wait();
      return;
    }
    case kind::chain: {
      moodycamel_group group(w.pool);
      const std::size_t first = w.new_ids(1);
      group.run([&w, &group, key, depth, fanout = s.fanout, first] {
        run_link(w, group, key, depth, 0, fanout, first);
      });
      group.wait();
      return;
    }
  }
}

std::uint64_t root_key(int thread, int root) {
  return mix(kSeed ^ (static_cast<std::uint64_t>(thread) << 32) ^
             static_cast<std::uint64_t>(root));
}

std::size_t expected_executions() {
  std::size_t n = 0;
  for (int t = 0; t < kPostingThreads; ++t) {
    for (int r = 0; r < kRootsPerThread; ++r) {
      n += count_nodes(root_key(t, r), kRootDepth);
    }
  }
  return n;
}

class MoodycamelPoolStressTest : public ::testing::TestWithParam<std::size_t> {
};

INSTANTIATE_TEST_SUITE_P(Workers, MoodycamelPoolStressTest,
                         ::testing::Values(0u, 1u, 2u, 8u, 64u),
                         [](const auto& info) {
                           return std::to_string(info.param) + "_workers";
                         });

// Posting threads alternate between running a root on themselves (nested
// fork-join from a thread that is not a worker) and posting it
// (fire-and-forget, so the pool's destructor may find it still spawning);
// their last roots are always posted, right before the pool is destroyed.
TEST_P(MoodycamelPoolStressTest, EveryTaskRunsExactlyOnce) {
  const std::size_t expected = expected_executions();
  ASSERT_LT(expected, kMaxExecutions);
  RecordProperty("task_executions", static_cast<int>(expected));
  auto pool = std::make_unique<moodycamel_pool>(GetParam());
  world w(*pool);
  run_with_timeout(
      120s, "MoodycamelPoolStressTest.EveryTaskRunsExactlyOnce", [&] {
        std::vector<std::thread> posters;
        for (int t = 0; t < kPostingThreads; ++t) {
          posters.emplace_back([&w, t] {
            for (int r = 0; r < kRootsPerThread; ++r) {
              const std::uint64_t key = root_key(t, r);
              const std::size_t id = w.new_ids(1);
              if (r % 2 == 0 && r + 2 < kRootsPerThread) {
                run_node(w, key, kRootDepth, id);
              } else {
                w.pool.post(
                    [&w, key, id] { run_node(w, key, kRootDepth, id); });
              }
            }
          });
        }
        for (std::thread& t : posters) t.join();
        pool.reset();  // Runs everything posted, including what is still
                       // spawning.
      });
  EXPECT_FALSE(w.overflow.load());
  EXPECT_EQ(w.next_id.load(), expected);
  std::size_t never = 0;
  std::size_t twice = 0;
  for (std::size_t i = 0; i < expected && i < kMaxExecutions; ++i) {
    const std::uint8_t n = w.runs[i].load(std::memory_order_relaxed);
    never += n == 0;
    twice += n > 1;
  }
  EXPECT_EQ(never, 0u);
  EXPECT_EQ(twice, 0u);
}

// Waves of posts from several threads at once into a pool whose workers
// have just run dry: each wave's posts race with workers that are spinning,
// deciding to park or parking. Only the workers run the tasks (the posting
// threads wait on a counter without helping), so a wake-up lost in that race
// leaves a task behind and hangs the wave.
TEST_P(MoodycamelPoolStressTest, NoLostWakeUpWhileWorkersGoToSleep) {
  if (GetParam() == 0) GTEST_SKIP() << "nothing but helpers would run tasks";
  moodycamel_pool pool(GetParam());
  constexpr int kWaves = 3000;
  constexpr int kThreads = 3;
  std::atomic<int> ran{0};
  run_with_timeout(120s, "NoLostWakeUpWhileWorkersGoToSleep", [&] {
    std::vector<std::thread> posters;
    for (int t = 0; t < kThreads; ++t) {
      posters.emplace_back([&pool, &ran, t] {
        std::uint64_t r = mix(kSeed + static_cast<std::uint64_t>(t));
        for (int wave = 0; wave < kWaves; ++wave) {
          std::atomic<int> left{1 + static_cast<int>(r % 3)};
          const int tasks = left.load();
          for (int i = 0; i < tasks; ++i) {
            pool.post([&ran, &left] {
              ran.fetch_add(1, std::memory_order_relaxed);
              left.fetch_sub(1, std::memory_order_release);
            });
          }
          while (left.load(std::memory_order_acquire) != 0) {
            std::this_thread::yield();
          }
          // Pause for 0 to 60 us: spans the workers' spin limit, so the
          // next wave finds them spinning, parking or parked.
          r = mix(r);
          const auto pause = std::chrono::nanoseconds(r % 60'000);
          const auto until = std::chrono::steady_clock::now() + pause;
          while (std::chrono::steady_clock::now() < until) {
          }
        }
      });
    }
    for (std::thread& t : posters) t.join();
  });
  int expected = 0;
  for (int t = 0; t < kThreads; ++t) {
    std::uint64_t r = mix(kSeed + static_cast<std::uint64_t>(t));
    for (int wave = 0; wave < kWaves; ++wave) {
      expected += 1 + static_cast<int>(r % 3);
      r = mix(r);
    }
  }
  EXPECT_EQ(ran.load(), expected);
}

// A waiter asleep in help_until_zero must be woken by a post from another
// thread. Each wave, the group's one task blocks until a task X has run, and
// X is posted by a second thread after 0 to 60 us (spanning the spin limit).
// Whichever of the worker and the waiter does not take the blocking task
// must run X: the waiter through a helper's wake-up, or the worker through
// a parked worker's. A lost wake-up of either kind hangs the wave.
TEST(MoodycamelPoolStressTest, NoLostWakeUpOfSleepingHelpers) {
  moodycamel_pool pool(1);
  constexpr int kWaves = 1000;
  run_with_timeout(120s, "NoLostWakeUpOfSleepingHelpers", [&] {
    std::uint64_t r = mix(kSeed);
    for (int wave = 0; wave < kWaves; ++wave) {
      std::atomic<bool> x_ran{false};
      moodycamel_group group(pool);
      group.run([&x_ran] {
        while (!x_ran.load(std::memory_order_acquire)) {
          std::this_thread::yield();
        }
      });
      r = mix(r);
      const auto pause = std::chrono::nanoseconds(r % 60'000);
      std::thread poster([&pool, &x_ran, pause] {
        const auto until = std::chrono::steady_clock::now() + pause;
        while (std::chrono::steady_clock::now() < until) {
        }
        pool.post([&x_ran] { x_ran.store(true, std::memory_order_release); });
      });
      group.wait();
      poster.join();
    }
  });
}

}  // namespace
}  // namespace strata::threading_internal
