// Trusted targets (context/internal/proxy_effect_channel.h): inside
// for_each_message, random access to the visited message's target skips
// the liveness check, since the send checked it and nothing dies before the
// refresh. These tests pin what the trust must never cover: an id that is
// not the visited target (a stale id whose slot has a new owner, or a
// target copied out of an earlier step's message), and the component
// check (a target without the component, or one that lost it between the
// send and the receive). A kill between send and receive leaves the
// target alive until the refresh, so it still receives, and its slot's
// next owner never does. Built twice: as every test, and with -O2 -DNDEBUG
// (effect_channel_trust_optimized_test), where only the checks every build
// keeps stand between a stale id and the new owner.
#include <cstddef>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"

namespace {

using strata::entity_id;

struct gun {
  entity_id target;
  int power = 0;
};
struct hull {
  int points = 0;
};
struct damage {
  int amount = 0;
};
namespace ct {
inline constexpr auto gun = strata::tag<::gun>;
inline constexpr auto hull = strata::tag<::hull>;
}  // namespace ct
namespace mt {
inline constexpr auto damage = strata::tag<::damage>;
}  // namespace mt

// Each gun fires at its target, unless switched off for this run.
struct volley {
  bool firing = true;
  template <typename Data>
  void process(Data& data) {
    if (!firing) return;
    data.for_each([&](entity_id self, const gun& g) {
      data.send(self, g.target, damage{g.power});
    });
  }
};

// What the receiver does with each message, besides applying it.
enum class probe_how { none, try_get, write, try_get_target, write_target };

// Applies every message with data.write of its target (the trusted path)
// and, as `how` says, reaches `probe` (an id that is not the target) or the
// target by try_get; records what it saw.
struct impact {
  bool receiving = true;
  probe_how how = probe_how::none;
  entity_id probe;
  std::size_t seen = 0;
  std::size_t probe_found = 0;    // try_get(probe or target) not null
  std::size_t probe_missing = 0;  // try_get(probe or target) null
  std::vector<entity_id> targets;
  template <typename Data>
  void process(Data& data) {
    if (!receiving) return;
    seen = probe_found = probe_missing = 0;
    targets.clear();
    data.for_each_message(mt::damage, [&](const strata::message<damage>& m) {
      ++seen;
      targets.push_back(m.target);
      switch (how) {
        case probe_how::none:
          data.write(ct::hull, m.target).points -= m.value.amount;
          break;
        case probe_how::try_get:
          data.write(ct::hull, m.target).points -= m.value.amount;
          ++(data.try_get(ct::hull, probe) ? probe_found : probe_missing);
          break;
        case probe_how::write:
          data.write(ct::hull, m.target).points -= m.value.amount;
          data.write(ct::hull, probe).points = -1;
          break;
        case probe_how::try_get_target:
          if (hull* h = data.try_get(ct::hull, m.target)) {
            h->points -= m.value.amount;
            ++probe_found;
          } else {
            ++probe_missing;
          }
          break;
        case probe_how::write_target:
          data.write(ct::hull, m.target).points -= m.value.amount;
          break;
      }
    });
  }
};
namespace st {
inline constexpr auto volley = strata::tag<::volley>;
inline constexpr auto impact = strata::tag<::impact>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::gun),
            strata::component_signature::make(ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::volley)
                .read(ct::gun)
                .sends<damage>(),
            strata::system_signature::make(st::impact)
                .write(ct::hull)
                .receives<damage>()
                .dependencies(st::volley)
                .parallelism(strata::inner_parallelism::none())))
        .scheduler(strata::scheduler::sequential)
        .threads(1);
using context_type = decltype(strata::make_context<settings>());

template <typename Proxy>
void run_systems(Proxy& proxy) {
  proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}

// A ship (hull) and a gun (a hull of its own, so that every live entity is
// the receiver's) aiming at it. `every_entity_has_hull` false adds a third
// entity without a hull, so that the receiver's members are not every live
// entity (the component check reads the entity's bits).
struct duel {
  context_type ctx = strata::make_context<settings>();
  entity_id ship;
  entity_id gun;
  impact* receiver_ = nullptr;  // the context's own, for the whole test
  explicit duel(bool every_entity_has_hull) {
    ctx.step([&](auto& proxy) {
      ship = proxy.create_entity();
      proxy.add_component(ct::hull, ship, hull{100});
      gun = proxy.create_entity();
      proxy.add_component(ct::hull, gun, hull{100});
      proxy.add_component(ct::gun, gun, ::gun{ship, 7});
      if (!every_entity_has_hull) proxy.create_entity();
      receiver_ = &proxy.system(st::impact);
    });
  }
  // Kills the ship, then gives its slot to a new ship with 500 points: the
  // old id is stale, and its index names the new owner.
  entity_id replace_ship() {
    const entity_id old = ship;
    ctx.step([&](auto& proxy) { proxy.kill_entity(old); });
    ctx.step([&](auto& proxy) {
      ship = proxy.create_entity();
      proxy.add_component(ct::hull, ship, hull{500});
    });
    EXPECT_EQ(ship.index(), old.index());
    EXPECT_NE(ship, old);
    return old;
  }
  void aim_at(entity_id target) {
    ctx.step([&](auto& proxy) {
      proxy.get_component(ct::gun, gun).target = target;
    });
  }
  impact& receiver() { return *receiver_; }
  void step() {
    ctx.step([&](auto& proxy) { run_systems(proxy); });
  }
};

TEST(EffectChannelTrustTest, KilledBetweenSendAndReceiveStillReceives) {
  duel world(true);
  // The kill is requested before the systems run: the ship is alive until
  // the refresh, so the message is sent, received and applied to it.
  world.ctx.step([&](auto& proxy) {
    proxy.kill_entity(world.ship);
    run_systems(proxy);
    EXPECT_EQ(world.receiver().seen, 1u);
    EXPECT_EQ(proxy.get_component(ct::hull, world.ship).points, 93);
  });
  EXPECT_FALSE(world.ctx.alive(world.ship));
  EXPECT_EQ(world.ctx.dropped_messages(), 0u);
  // Its slot's next owner never receives what the gun, still aiming at the
  // dead id, sends.
  const entity_id old = world.ship;
  world.ctx.step([&](auto& proxy) {
    world.ship = proxy.create_entity();
    proxy.add_component(ct::hull, world.ship, hull{500});
  });
  ASSERT_EQ(world.ship.index(), old.index());
  world.step();
  EXPECT_EQ(world.receiver().seen, 0u);
  EXPECT_EQ(world.ctx.dropped_messages(), 1u);
  EXPECT_EQ(world.ctx.get(ct::hull, world.ship).points, 500);
}

TEST(EffectChannelTrustTest, AStaleIdInsideAVisitIsStillChecked) {
  for (const bool every_entity_has_hull : {true, false}) {
    duel world(every_entity_has_hull);
    const entity_id stale = world.replace_ship();
    world.aim_at(world.gun);  // the gun shoots itself: a live target
    world.receiver().how = probe_how::try_get;
    world.receiver().probe = stale;
    world.step();
    EXPECT_EQ(world.receiver().seen, 1u);
    EXPECT_EQ(world.receiver().probe_found, 0u);
    EXPECT_EQ(world.receiver().probe_missing, 1u);
    EXPECT_EQ(world.ctx.get(ct::hull, world.gun).points, 93);
    EXPECT_EQ(world.ctx.get(ct::hull, world.ship).points, 500);
  }
}

TEST(EffectChannelTrustDeathTest, WriteOfAStaleIdInsideAVisitIsRefused) {
  for (const bool every_entity_has_hull : {true, false}) {
    duel world(every_entity_has_hull);
    const entity_id stale = world.replace_ship();
    world.aim_at(world.gun);
    world.receiver().how = probe_how::write;
    world.receiver().probe = stale;
    EXPECT_DEATH(world.step(), "data.get / data.write: the id is not alive");
  }
}

TEST(EffectChannelTrustTest, ATargetKeptFromAnEarlierStepIsChecked) {
  for (const bool every_entity_has_hull : {true, false}) {
    duel world(every_entity_has_hull);
    world.step();  // the ship receives once
    ASSERT_EQ(world.receiver().targets.size(), 1u);
    const entity_id kept = world.receiver().targets[0];
    ASSERT_EQ(kept, world.ship);
    world.replace_ship();  // kept is stale now, its slot the new ship's
    world.aim_at(world.gun);
    world.receiver().how = probe_how::try_get;
    world.receiver().probe = kept;
    world.step();
    EXPECT_EQ(world.receiver().probe_found, 0u);
    EXPECT_EQ(world.receiver().probe_missing, 1u);
    EXPECT_EQ(world.ctx.get(ct::hull, world.ship).points, 500);
  }
}

TEST(EffectChannelTrustTest, ATargetWithoutTheComponentIsRefusedByTryGet) {
  duel world(false);
  entity_id bare;
  world.ctx.step([&](auto& proxy) { bare = proxy.create_entity(); });
  world.aim_at(bare);
  world.receiver().how = probe_how::try_get_target;
  world.step();
  EXPECT_EQ(world.receiver().seen, 1u);
  EXPECT_EQ(world.receiver().probe_found, 0u);
  EXPECT_EQ(world.receiver().probe_missing, 1u);
}

TEST(EffectChannelTrustDeathTest, WriteOfATargetWithoutTheComponentIsRefused) {
  duel world(false);
  entity_id bare;
  world.ctx.step([&](auto& proxy) { bare = proxy.create_entity(); });
  world.aim_at(bare);
  world.receiver().how = probe_how::write_target;
  EXPECT_DEATH(world.step(), "or the entity lacks this component");
}

// The sender runs in one execute_systems() call, the receiver in a second
// one of the same step; in between the step proxy removes the target's
// hull. The target is alive, but no longer has what the receiver writes.
TEST(EffectChannelTrustTest, AComponentRemovedAfterTheSendIsChecked) {
  for (const bool every_entity_has_hull : {true, false}) {
    duel world(every_entity_has_hull);
    world.receiver().how = probe_how::try_get_target;
    world.ctx.step([&](auto& proxy) {
      world.receiver().receiving = false;
      run_systems(proxy);
      proxy.remove_component(ct::hull, world.ship);
      world.receiver().receiving = true;
      proxy.system(st::volley).firing = false;
      run_systems(proxy);
      proxy.system(st::volley).firing = true;
    });
    EXPECT_EQ(world.receiver().seen, 1u);
    EXPECT_EQ(world.receiver().probe_found, 0u);
    EXPECT_EQ(world.receiver().probe_missing, 1u);
    EXPECT_TRUE(world.ctx.alive(world.ship));
  }
}

TEST(EffectChannelTrustDeathTest, WriteOfATargetThatLostTheComponentIsRefused) {
  for (const bool every_entity_has_hull : {true, false}) {
    duel world(every_entity_has_hull);
    world.receiver().how = probe_how::write_target;
    EXPECT_DEATH(world.ctx.step([&](auto& proxy) {
      world.receiver().receiving = false;
      run_systems(proxy);
      proxy.remove_component(ct::hull, world.ship);
      world.receiver().receiving = true;
      proxy.system(st::volley).firing = false;
      run_systems(proxy);
    }),
                 "or the entity lacks this component");
  }
}

}  // namespace
