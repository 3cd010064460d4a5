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
//     step function before execute_systems, and kills and deferred
//     functions requested by the subtasks that ran (the thrower's included),
//     took effect;
//   * the context is usable afterwards: the next steps run every system on
//     every entity.
// State the interrupted step leaves, as documented: everything requested
// before and during the run is applied by the refresh, nothing is rolled
// back; systems that did not run keep their previous outputs.
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
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
  std::atomic<int> runs{0};     // completed runs of a subtask
  std::atomic<int> visited{0};  // entities visited
  template <typename Data>
  void visit(Data& data, int spin) {
    data.for_entities([&](entity_id e) {
      volatile float sink = data.get(ct::position, e).x;
      for (int i = 0; i < spin; ++i) sink = sink + 1;
      visited.fetch_add(1, std::memory_order_relaxed);
    });
    runs.fetch_add(1, std::memory_order_relaxed);
  }
};

struct root : system_base<0> {
  template <typename Data>
  void process(Data& data) {
    visit(data, 0);
  }
};
struct thrower : system_base<1> {
  template <typename Data>
  void process(Data& data) {
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
  void process(Data& data) {
    visit(data, 0);
  }
};
struct after_after : system_base<3> {
  template <typename Data>
  void process(Data& data) {
    visit(data, 0);
  }
};
struct independent : system_base<4> {
  template <typename Data>
  void process(Data& data) {
    visit(data, 20000);  // slow: still running when the thrower throws
  }
};
struct sibling : system_base<5> {
  template <typename Data>
  void process(Data& data) {
    visit(data, 0);
  }
};

constexpr auto components = strata::component_signatures(
    strata::cs::make(ct::position), strata::cs::make(ct::marker).sparse());
constexpr auto split4 = strata::ips::split_evenly(4);
constexpr auto systems = strata::system_signatures(
    strata::ss::make(strata::tag<root>).read(ct::position).parallelism(split4),
    strata::ss::make(strata::tag<thrower>)
        .read(ct::position)
        .dependencies(strata::tag<root>)
        .parallelism(split4),
    strata::ss::make(strata::tag<after_thrower>)
        .read(ct::position)
        .dependencies(strata::tag<thrower>)
        .parallelism(split4),
    strata::ss::make(strata::tag<after_after>)
        .read(ct::position)
        .dependencies(strata::tag<after_thrower>, strata::tag<sibling>)
        .parallelism(split4),
    strata::ss::make(strata::tag<independent>)
        .read(ct::position)
        .parallelism(split4),
    strata::ss::make(strata::tag<sibling>)
        .read(ct::position)
        .dependencies(strata::tag<root>)
        .parallelism(split4));

constexpr int kEntities = 16;

class SchedulerExceptionTest : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SchedulerExceptionTest, ThrowStopsDependentsOnlyAndContextRecovers) {
  strata::testing::run_with_timeout(std::chrono::seconds(60), "exception", [&] {
    auto ctx =
        strata::make_context(strata::settings()
                                 .allow_inner_parallelism()
                                 .component_signatures(components)
                                 .system_signatures(systems)
                                 .scheduler(strata::scheduler::atomic_counter)
                                 .threads(GetParam()));
    auto run_all = [](auto& proxy) {
      proxy.execute_systems()(strata::sea::all().for_subtasks(
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

INSTANTIATE_TEST_SUITE_P(Threads, SchedulerExceptionTest,
                         ::testing::Values(2, 8), [](const auto& info) {
                           return "threads" + std::to_string(info.param);
                         });

}  // namespace
