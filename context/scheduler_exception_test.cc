// Exceptions under the atomic_counter scheduler (2 and 8 threads): one
// subtask of `thrower` throws. The test checks the contract of
// context/context.h and scheduler/atomic_counter.h:
//   * the exception reaches the caller of step();
//   * dependents of the thrower, direct and transitive, did not run;
//   * every other system ran to completion, including one still running
//     when the exception was thrown (`independent`, which is slow) and one
//     that only shares the thrower's dependency (`sibling`); the thrower's
//     other subtasks also ran to completion (there is no cancellation);
//   * the step's refresh still ran: creations and kills requested by the
//     step function before execute_systems took effect, and the kills and
//     deferred functions of the thrower (a failed system) were discarded;
//   * the context is usable afterwards: the next steps run every system on
//     every entity.
// And the rule that makes failure deterministic: the same program, throwing
// on the same step, ends in the same state under the sequential scheduler
// and the atomic-counter one at 1, 2 and 8 threads, with the hand-off
// decisions automatic or forced either way.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"
#include "testing/timeout.h"

namespace {

using strata::entity_id;

struct marker {  // put on entities created by deferred functions
  int from_subtask = -1;
};
namespace ct {
using strata::testing::ct::position;
inline constexpr auto marker = strata::tag<::marker>;
}  // namespace ct

std::atomic<bool> armed{false};

// Counts its runs and the entities it visited; `Role` names it.
template <int Role>
struct system_base {
  // Atomics, so that the subtasks sharing the system (as const) may count.
  mutable std::atomic<int> runs{0};     // completed runs of a subtask
  mutable std::atomic<int> visited{0};  // entities visited
  template <typename Data>
  void visit(Data& data, int spin) const {
    data.for_entities([&](entity_id e) {
      volatile float sink = data.read(ct::position, e).x;
      for (int i = 0; i < spin; ++i) sink = sink + 1;
      visited.fetch_add(1, std::memory_order_relaxed);
    });
    runs.fetch_add(1, std::memory_order_relaxed);
  }
};

struct root : system_base<0> {
  template <typename Data>
  void process(Data& data) const {
    visit(data, 0);
  }
};
struct thrower : system_base<1> {
  template <typename Data>
  void process(Data& data) const {
    if (armed && data.subtask_index() == 1)
      throw std::runtime_error("thrower: subtask 1 failed");
    visit(data, 1000);
    if (armed && data.subtask_index() == 0) {
      // Work requested by a subtask that completed in the failing step: it
      // is discarded, since its system failed.
      data.for_entities([&](entity_id e) { data.kill_entity(e); });
      const int subtask = static_cast<int>(data.subtask_index());
      data.defer([subtask](auto& proxy) {
        proxy.add_component(ct::marker, proxy.create_entity(), marker{subtask});
      });
    }
  }
};
struct after_thrower : system_base<2> {
  template <typename Data>
  void process(Data& data) const {
    visit(data, 0);
  }
};
struct after_after : system_base<3> {
  template <typename Data>
  void process(Data& data) const {
    visit(data, 0);
  }
};
struct independent : system_base<4> {
  template <typename Data>
  void process(Data& data) const {
    visit(data, 20000);  // slow: still running when the thrower throws
  }
};
struct sibling : system_base<5> {
  template <typename Data>
  void process(Data& data) const {
    visit(data, 0);
  }
};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position),
    strata::component_signature::make(ct::marker).sparse());
constexpr auto split4 = strata::inner_parallelism::split_evenly(4);
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<root>)
        .read(ct::position)
        .parallelism(split4),
    strata::system_signature::make(strata::tag<thrower>)
        .read(ct::position)
        .dependencies(strata::tag<root>)
        .parallelism(split4),
    strata::system_signature::make(strata::tag<after_thrower>)
        .read(ct::position)
        .dependencies(strata::tag<thrower>)
        .parallelism(split4),
    strata::system_signature::make(strata::tag<after_after>)
        .read(ct::position)
        .dependencies(strata::tag<after_thrower>, strata::tag<sibling>)
        .parallelism(split4),
    strata::system_signature::make(strata::tag<independent>)
        .read(ct::position)
        .parallelism(split4),
    strata::system_signature::make(strata::tag<sibling>)
        .read(ct::position)
        .dependencies(strata::tag<root>)
        .parallelism(split4));

constexpr int kEntities = 16;

class SchedulerExceptionTest : public ::testing::TestWithParam<
                                   std::tuple<std::size_t, strata::hand_off>> {
};

TEST_P(SchedulerExceptionTest, ThrowStopsDependentsOnlyAndContextRecovers) {
  strata::testing::run_with_timeout(std::chrono::seconds(60), "exception", [&] {
    auto ctx =
        strata::make_context(strata::settings()
                                 .allow_inner_parallelism()
                                 .component_signatures(components)
                                 .system_signatures(systems)
                                 .scheduler(strata::scheduler::atomic_counter)
                                 .threads(std::get<0>(GetParam()))
                                 .hand_off(std::get<1>(GetParam())));
    auto run_all = [](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    };
    for (int round = 0; round < 20; ++round) {
      SCOPED_TRACE("round " + std::to_string(round));
      // Fresh population: kEntities with a position.
      std::vector<entity_id> population;
      ctx.step([&](auto& proxy) {
        for (int i = 0; i < kEntities; ++i) {
          entity_id e = proxy.create_entity();
          proxy.add_component(ct::position, e);
          population.push_back(e);
        }
      });
      const std::size_t entities_before = ctx.entity_count();

      // The counters before the failing step.
      auto counters = [&](auto& proxy, auto tag) -> auto& {
        return proxy.system(tag);
      };
      int runs_before[6], visited_before[6];
      ctx.step([&](auto& proxy) {
        int k = 0;
        auto snap = [&](auto tag) {
          runs_before[k] = counters(proxy, tag).runs.load();
          visited_before[k] = counters(proxy, tag).visited.load();
          ++k;
        };
        snap(strata::tag<root>);
        snap(strata::tag<thrower>);
        snap(strata::tag<after_thrower>);
        snap(strata::tag<after_after>);
        snap(strata::tag<independent>);
        snap(strata::tag<sibling>);
      });

      entity_id created_in_step, killed_in_step = population.back();
      armed = true;
      try {
        ctx.step([&](auto& proxy) {
          created_in_step = proxy.create_entity();
          EXPECT_TRUE(proxy.kill_entity(killed_in_step));
          run_all(proxy);
          ADD_FAILURE() << "execute_systems returned normally";
        });
        ADD_FAILURE() << "step() did not throw";
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "thrower: subtask 1 failed");
      }
      armed = false;

      const int n = kEntities;  // subscribed entities during that step
      ctx.step([&](auto& proxy) {
        int k = 0;
        auto delta = [&](auto tag, int runs, int visited) {
          EXPECT_EQ(counters(proxy, tag).runs.load() - runs_before[k], runs)
              << "system " << k;
          EXPECT_EQ(counters(proxy, tag).visited.load() - visited_before[k],
                    visited)
              << "system " << k;
          ++k;
        };
        delta(strata::tag<root>, 4, n);
        delta(strata::tag<thrower>, 3, n - n / 4);  // subtask 1 threw
        delta(strata::tag<after_thrower>, 0, 0);    // dependent: not run
        delta(strata::tag<after_after>, 0, 0);      // transitive: not run
        delta(strata::tag<independent>, 4, n);      // ran to completion
        delta(strata::tag<sibling>, 4, n);

        // The refresh ran the work of exactly the systems that ran to
        // completion (context/context.h, exceptions): the step's creation
        // and kill; the thrower failed, so its subtask-0 kills and its
        // deferred creation are discarded, whatever the schedule.
        EXPECT_TRUE(proxy.alive(created_in_step));
        EXPECT_FALSE(proxy.alive(killed_in_step));
        EXPECT_EQ(proxy.entity_count(),
                  entities_before + 1 /*created*/ - 1 /*killed*/);
        EXPECT_EQ(proxy.count_entities_in(strata::tag<root>),
                  static_cast<std::size_t>(n - 1));
      });

      // Usable afterwards: everything runs on every entity.
      for (int step = 0; step < 3; ++step) {
        ctx.step([&](auto& proxy) {
          const int alive_n =
              static_cast<int>(proxy.count_entities_in(strata::tag<root>));
          const int after_before =
              proxy.system(strata::tag<after_after>).visited.load();
          run_all(proxy);
          EXPECT_EQ(proxy.system(strata::tag<after_after>).visited.load() -
                        after_before,
                    alive_n);
        });
      }
      // Clear every entity for the next round.
      ctx.step([&](auto& proxy) {
        std::vector<entity_id> all;
        for (entity_id e : proxy.instance(strata::tag<root>).subscribed())
          all.push_back(e);
        for (entity_id e : all) proxy.kill_entity(e);
        proxy.kill_entity(created_in_step);
      });
      ctx.step([&](auto& proxy) {
        EXPECT_EQ(proxy.count_entities_in(strata::tag<root>), 0u);
      });
    }
    // No marker entity: the failed thrower's deferred creations were
    // discarded every round.
    EXPECT_EQ(ctx.entity_count(), 0u);
  });
}

std::string param_name(
    const ::testing::TestParamInfo<SchedulerExceptionTest::ParamType>& info) {
  const char* const modes[] = {"automatic", "always", "never"};
  return "threads" + std::to_string(std::get<0>(info.param)) + "_" +
         modes[static_cast<int>(std::get<1>(info.param))];
}

INSTANTIATE_TEST_SUITE_P(
    Threads, SchedulerExceptionTest,
    ::testing::Combine(::testing::Values(std::size_t{2}, std::size_t{9}),
                       ::testing::Values(strata::hand_off::automatic,
                                         strata::hand_off::always,
                                         strata::hand_off::never)),
    param_name);

// ---------------------------------------------------------------------------
// The same program under every schedule ends in the same state.

// Kills every entity whose value is a multiple of 7 and defers a creation
// for each; on armed steps its subtask 1 throws (subtask 0 has then already
// asked for kills and creations, which the failure discards).
struct culler {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const strata::testing::health& h) {
      if (armed && data.subtask_index() == 1) {
        throw std::runtime_error("culler failed");  // after subtask 0's work
      }
      if (h.hp % 7 == 0) {
        data.kill_entity(e);
        data.defer([hp = h.hp](auto& proxy) {
          proxy.add_component(strata::testing::ct::health,
                              proxy.create_entity(), hp + 1);
        });
      }
    });
  }
};
// Ages every entity (runs after culler: skipped when culler throws).
struct ager {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](strata::testing::health& h) { h.hp += 5; });
  }
};
// Independent of both: always runs, defers work every step.
struct spawner {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](const strata::testing::position& p) {
      if (static_cast<int>(p.x) % 5 == 0) {
        data.defer([x = p.x](auto& proxy) {
          const entity_id e = proxy.create_entity();
          proxy.add_component(strata::testing::ct::health, e,
                              static_cast<int>(x) % 11);
        });
      }
    });
  }
};

constexpr auto same_state_components = strata::component_signatures(
    strata::component_signature::make(strata::testing::ct::position),
    strata::component_signature::make(strata::testing::ct::health));
constexpr auto same_state_systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<culler>)
        .read(strata::testing::ct::health)
        .parallelism(strata::inner_parallelism::split_evenly(3)),
    strata::system_signature::make(strata::tag<ager>)
        .write(strata::testing::ct::health)
        .dependencies(strata::tag<culler>)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()),
    strata::system_signature::make(strata::tag<spawner>)
        .read(strata::testing::ct::position)
        .parallelism(strata::inner_parallelism::split_evenly(2)));

// (index, hp) of every entity with health, in index order, after 30 steps
// of which steps 10 and 20 throw.
template <typename Settings>
std::vector<std::pair<std::uint32_t, int>> final_state(
    const Settings& settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 200; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(strata::testing::ct::position, e,
                          static_cast<float>(i), 0.f);
      proxy.add_component(strata::testing::ct::health, e, i % 13);
    }
  });
  for (int step = 1; step <= 30; ++step) {
    armed = step % 10 == 0;
    try {
      ctx.step([](auto& proxy) {
        proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
            [](auto& system, auto& data) { system.process(data); }));
      });
      EXPECT_FALSE(armed) << "step " << step << " should have thrown";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(armed) << "step " << step << ": " << e.what();
    }
    armed = false;
  }
  std::vector<std::pair<std::uint32_t, int>> state;
  ctx.for_each([&](entity_id e, const strata::testing::health& h) {
    state.emplace_back(e.index(), h.hp);
  });
  return state;
}

TEST(SchedulerExceptionTest, AThrowEndsInTheSameStateUnderEverySchedule) {
  strata::testing::run_with_timeout(
      std::chrono::seconds(120), "same state", [&] {
        constexpr auto base = strata::settings()
                                  .allow_inner_parallelism()
                                  .component_signatures(same_state_components)
                                  .system_signatures(same_state_systems);
        const auto reference = final_state(
            base.scheduler(strata::scheduler::sequential).threads(1));
        ASSERT_GT(reference.size(), 100u);
        for (strata::hand_off mode :
             {strata::hand_off::automatic, strata::hand_off::always,
              strata::hand_off::never}) {
          for (std::size_t threads : {1, 2, 3, 9}) {
            SCOPED_TRACE("threads=" + std::to_string(threads) +
                         " hand_off=" + std::to_string(static_cast<int>(mode)));
            EXPECT_EQ(
                final_state(base.scheduler(strata::scheduler::atomic_counter)
                                .threads(threads)
                                .hand_off(mode)),
                reference);
          }
        }
      });
}

}  // namespace
