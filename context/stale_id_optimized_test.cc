// Stale ids through the data proxy in an optimized build (this target is
// compiled with -O2 -DNDEBUG, so STRATA_DCHECK is off): every random-access
// call still checks the id's version, and get / write refuse a stale id
// with a message instead of serving the slot's new owner.
#include "context/context.h"
#include "gtest/gtest.h"

namespace {

#ifndef NDEBUG
#error "this test proves the checks of optimized builds: build it with -DNDEBUG"
#endif

struct hp {
  int value;
};
struct target {
  strata::entity_id id;
};
namespace ct {
inline constexpr auto hp = strata::tag<::hp>;
inline constexpr auto target = strata::tag<::target>;
}  // namespace ct

enum class access { read, write, try_get, has, alive };

// Reaches its target's hp by id, as `how` says; records what it saw.
struct striker {
  access how = access::read;
  int seen = -1;
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](const target& t) {
      switch (how) {
        case access::read:
          seen = data.read(ct::hp, t.id).value;
          break;
        case access::write:
          data.write(ct::hp, t.id).value = 0;
          break;
        case access::try_get:
          seen = data.try_read(ct::hp, t.id) == nullptr ? 0 : 1;
          break;
        case access::has:
          seen = data.has(ct::hp, t.id) ? 1 : 0;
          break;
        case access::alive:
          seen = data.alive(t.id) ? 1 : 0;
          break;
      }
    });
  }
};
namespace st {
inline constexpr auto striker = strata::tag<::striker>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::hp),
            strata::component_signature::make(ct::target)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::striker)
                .read(ct::target)
                .write(ct::hp)))
        .threads(1);

// A context where a striker targets an entity that was killed, and whose
// slot now belongs to a new entity with hp 9.
struct stale_world {
  decltype(strata::make_context<settings>()) ctx =
      strata::make_context<settings>();
  strata::entity_id stale;
  strata::entity_id owner;

  stale_world() {
    ctx.step([&](auto& proxy) {
      stale = proxy.create_entity();
      proxy.add_component(ct::hp, stale, 3);
      const strata::entity_id attacker = proxy.create_entity();
      proxy.add_component(ct::target, attacker, stale);
      proxy.add_component(ct::hp, attacker, 1);
    });
    ctx.step([&](auto& proxy) { proxy.kill_entity(stale); });
    ctx.step([&](auto& proxy) {
      owner = proxy.create_entity();
      proxy.add_component(ct::hp, owner, 9);
    });
  }

  int run(access how) {
    ctx.step([&](auto& proxy) {
      proxy.system(st::striker).how = how;
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
    int seen = 0;
    ctx.step([&](auto& proxy) { seen = proxy.system(st::striker).seen; });
    return seen;
  }
};

TEST(StaleIdOptimizedTest, TheSlotIsReusedByANewOwner) {
  stale_world world;
  EXPECT_EQ(world.owner.index(), world.stale.index());
  EXPECT_NE(world.owner, world.stale);
}

TEST(StaleIdOptimizedTest, QueriesSeeAStaleIdAsDead) {
  stale_world world;
  EXPECT_EQ(world.run(access::try_get), 0);
  EXPECT_EQ(world.run(access::has), 0);
  EXPECT_EQ(world.run(access::alive), 0);
  EXPECT_EQ(world.ctx.get(ct::hp, world.owner).value, 9);
}

TEST(StaleIdOptimizedDeathTest, GetOfAStaleIdIsRefused) {
  stale_world world;
  EXPECT_DEATH(world.run(access::read),
               "data.get / data.write: the id is not alive \\(killed, or "
               "stale: its slot was reused\\)");
}

TEST(StaleIdOptimizedDeathTest, WriteOfAStaleIdIsRefused) {
  stale_world world;
  EXPECT_DEATH(world.run(access::write),
               "data.get / data.write: the id is not alive");
}

}  // namespace
