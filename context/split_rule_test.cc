// The split rule (context/data_proxy.h) from the side of what stays
// allowed: a system that may split reads read() components of any entity by
// id while its subtasks run at once, and receives the system object as
// const; a system that never splits keeps random write access. The
// rejected accesses are the split_* compile-fail tests (context/BUILD.bazel).
#include <type_traits>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::testing::position;
using strata::testing::velocity;
namespace ct = strata::testing::ct;

struct leader {
  entity_id id;
};
namespace lt {
inline constexpr auto leader = strata::tag<::leader>;
}  // namespace lt

// Moves each follower by its leader's velocity, read by id: velocity is
// read_optional(), so no subtask writes it while others read.
struct follow {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](position& p, const leader& l) {
      if (const velocity* v = data.try_read(ct::velocity, l.id)) {
        p.x += v->x;
        p.y += v->y;
      }
    });
  }
};
// Never splits: writes other entities by id, and its own member.
struct push_leaders {
  int pushed = 0;
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](const leader& l) {
      if (velocity* v = data.try_get(ct::velocity, l.id)) {
        v->y += 1;
        ++pushed;
      }
    });
  }
};
namespace st {
inline constexpr auto follow = strata::tag<::follow>;
inline constexpr auto push_leaders = strata::tag<::push_leaders>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity),
            strata::component_signature::make(lt::leader)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::push_leaders)
                .read(lt::leader)
                .write_optional(ct::velocity)
                .parallelism(strata::inner_parallelism::none()),
            strata::system_signature::make(st::follow)
                .read(lt::leader)
                .write(ct::position)
                .read_optional(ct::velocity)
                .dependencies(st::push_leaders)
                .parallelism(strata::inner_parallelism::split_evenly(4))))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(4);

TEST(SplitRuleTest, SplitSystemsReadAndNeverSplitSystemsWriteOtherEntities) {
  auto ctx = strata::make_context<settings>();
  constexpr int kLeaders = 8;
  constexpr int kFollowers = 4000;
  std::vector<entity_id> followers;
  ctx.step([&](auto& proxy) {
    std::vector<entity_id> leaders;
    for (int i = 0; i < kLeaders; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::velocity, e, static_cast<float>(i), 0.f);
      leaders.push_back(e);
    }
    for (int i = 0; i < kFollowers; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, 0.f);
      proxy.add_component(lt::leader, e, leaders[i % kLeaders]);
      followers.push_back(e);
    }
  });
  for (int step = 0; step < 3; ++step) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) {
            constexpr bool shared =
                std::is_const_v<std::remove_reference_t<decltype(system)>>;
            static_assert(
                shared == std::is_same_v<std::remove_cvref_t<decltype(system)>,
                                         follow>,
                "a split system's subtasks get const system&");
            system.process(data);
          }));
    });
  }
  ctx.step([&](auto& proxy) {
    EXPECT_EQ(proxy.system(st::push_leaders).pushed, 3 * kFollowers);
  });
  for (int i = 0; i < kFollowers; ++i) {
    const position& p = ctx.get(ct::position, followers[i]);
    ASSERT_EQ(p.x, 3.f * static_cast<float>(i % kLeaders)) << i;
    // Each step every follower pushes its leader once before follow runs.
    const float per_leader = kFollowers / kLeaders;
    ASSERT_EQ(p.y, per_leader * (1 + 2 + 3)) << i;
  }
}

}  // namespace
