// The effect channel (context/effect_channel.h) through the public API:
// receivers see messages in (sending system, sender index, send order)
// order, the same as a sequential reference computed here by hand, at 1, 2
// and 8 threads under both schedulers; messages to dead, stale and null ids
// are dropped and counted; messages end with the step; a steady state that
// sends, kills and creates entities every step allocates nothing. The
// compile-time rules are the message_* compile-fail tests
// (context/BUILD.bazel).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"

namespace {

using strata::entity_id;

struct gun {
  entity_id target;
  int power = 0;
};
struct hull {
  int points = 0;
  // A fold of every message applied, in order: equal folds mean the same
  // messages in the same order.
  std::uint64_t fold = 0;
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

std::uint64_t fold_in(std::uint64_t fold, entity_id sender, int amount) {
  return fold * 1000003u + sender.index() * 131u +
         static_cast<std::uint64_t>(amount);
}

// Each gun fires twice at its target (power, then 1): two messages per
// sender, so the send order within one sender counts.
struct gunnery {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, const gun& g) {
      data.send(self, g.target, damage{g.power});
      data.send(self, g.target, damage{1});
    });
  }
};
// Never splits: sends from the first hull to the hull `stride` after each
// one, in reverse (a send order no iteration gives).
struct mines {
  std::size_t stride = 3;
  template <typename Data>
  void process(Data& data) const {
    std::vector<entity_id> hulls;
    data.for_entities([&](entity_id id) { hulls.push_back(id); });
    for (std::size_t i = hulls.size(); i-- > 0;) {
      data.send(hulls.front(), hulls[(i * stride) % hulls.size()],
                damage{static_cast<int>(i % 5)});
    }
  }
};
// Applies each hull's messages through for_each's T&: race-free however
// the system splits.
struct repair {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, hull& h) {
      for (const strata::message<damage>& m : data.messages(mt::damage, self)) {
        h.points -= m.value.amount;
        h.fold = fold_in(h.fold, m.sender, m.value.amount);
      }
    });
  }
};
namespace st {
inline constexpr auto gunnery = strata::tag<::gunnery>;
inline constexpr auto mines = strata::tag<::mines>;
inline constexpr auto repair = strata::tag<::repair>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::cs::make(ct::gun), strata::cs::make(ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::ss::make(st::gunnery)
                .read(ct::gun)
                .sends<damage>()
                .parallelism(strata::ips::split_evenly_per_core()),
            strata::ss::make(st::mines)
                .read(ct::hull)
                .sends<damage>()
                .parallelism(strata::ips::none()),
            strata::ss::make(st::repair)
                .write(ct::hull)
                .receives<damage>()
                .dependencies(st::gunnery, st::mines)
                .parallelism(strata::ips::split_evenly_per_core())))
        .scheduler(strata::scheduler::atomic_counter);

struct world {
  std::vector<entity_id> guns;
  std::vector<entity_id> hulls;
};

// Hulls first (indices 0..hull_count-1), then guns aiming at random hulls.
template <typename Context>
world populate(Context& ctx, int hull_count, int gun_count,
               std::uint32_t seed) {
  world w;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < hull_count; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::hull, e, hull{1000, 0});
      w.hulls.push_back(e);
    }
    std::mt19937 random(seed);
    for (int i = 0; i < gun_count; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::gun, e,
                          gun{w.hulls[random() % w.hulls.size()], 1 + i % 7});
      w.guns.push_back(e);
    }
  });
  return w;
}

template <typename Proxy>
void run_systems(Proxy& proxy) {
  proxy.execute_systems()(strata::sea::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}

// The reference: every hull's messages in (gunnery by gun index, then
// mines in send order), applied by hand.
std::vector<hull> reference(const world& w, int steps) {
  std::vector<hull> hulls(w.hulls.size(), hull{1000, 0});
  const auto slot = [&](entity_id id) {
    for (std::size_t i = 0; i < w.hulls.size(); ++i) {
      if (w.hulls[i] == id) return i;
    }
    return w.hulls.size();
  };
  std::mt19937 random(7);
  std::vector<gun> guns;
  for (std::size_t i = 0; i < w.guns.size(); ++i) {
    guns.push_back(
        gun{w.hulls[random() % w.hulls.size()], 1 + static_cast<int>(i) % 7});
  }
  for (int step = 0; step < steps; ++step) {
    std::vector<std::vector<std::pair<entity_id, int>>> inbox(hulls.size());
    for (std::size_t i = 0; i < guns.size(); ++i) {
      inbox[slot(guns[i].target)].push_back({w.guns[i], guns[i].power});
      inbox[slot(guns[i].target)].push_back({w.guns[i], 1});
    }
    for (std::size_t i = hulls.size(); i-- > 0;) {
      inbox[(i * 3) % hulls.size()].push_back(
          {w.hulls.front(), static_cast<int>(i % 5)});
    }
    for (std::size_t h = 0; h < hulls.size(); ++h) {
      for (auto [sender, amount] : inbox[h]) {
        hulls[h].points -= amount;
        hulls[h].fold = fold_in(hulls[h].fold, sender, amount);
      }
    }
  }
  return hulls;
}

TEST(EffectChannelTest, OrderIsTheSequentialReferenceAtEveryThreadCount) {
  constexpr int kHulls = 300;
  constexpr int kGuns = 5000;
  constexpr int kSteps = 3;
  for (const auto kind : {strata::scheduler_kind::sequential,
                          strata::scheduler_kind::atomic_counter}) {
    for (const std::size_t threads : {1u, 2u, 8u}) {
      auto ctx = strata::make_context(
          settings, strata::run_options().threads(threads).scheduler(kind));
      const world w = populate(ctx, kHulls, kGuns, 7);
      for (int step = 0; step < kSteps; ++step) {
        ctx.step([](auto& proxy) { run_systems(proxy); });
        EXPECT_EQ(ctx.dropped_messages(), 0u);
      }
      const std::vector<hull> expected = reference(w, kSteps);
      for (std::size_t h = 0; h < w.hulls.size(); ++h) {
        const hull& got = ctx.get(ct::hull, w.hulls[h]);
        ASSERT_EQ(got.points, expected[h].points) << h << " at " << threads;
        ASSERT_EQ(got.fold, expected[h].fold) << h << " at " << threads;
      }
    }
  }
}

// Receives with for_each_message (never splits) and counts what it sees.
struct ledger {
  std::vector<std::pair<entity_id, int>> seen;
  template <typename Data>
  void process(Data& data) {
    seen.clear();
    data.for_each_message(mt::damage, [&](const strata::message<damage>& m) {
      seen.push_back({m.target, m.value.amount});
    });
  }
};
// Sends to the ids its guns hold, and to the null id.
struct volley {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, const gun& g) {
      data.send(self, g.target, damage{g.power});
      data.send(self, strata::null_entity, damage{100});
    });
  }
};
namespace st {
inline constexpr auto ledger = strata::tag<::ledger>;
inline constexpr auto volley = strata::tag<::volley>;
}  // namespace st

constexpr auto ledger_settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::cs::make(ct::gun), strata::cs::make(ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::ss::make(st::volley)
                .read(ct::gun)
                .sends<damage>()
                .parallelism(strata::ips::split_evenly(3)),
            strata::ss::make(st::ledger)
                .receives<damage>()
                .dependencies(st::volley)
                .parallelism(strata::ips::none())))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(4);

TEST(EffectChannelTest, DeadStaleAndNullTargetsAreDroppedAndCounted) {
  auto ctx = strata::make_context<ledger_settings>();
  const world w = populate(ctx, 4, 12, 3);
  // Kill hull 0, then reuse its slot: guns aiming at it now hold a stale
  // id whose index names a live entity.
  ctx.step([&](auto& proxy) { proxy.kill_entity(w.hulls[0]); });
  entity_id reused;
  ctx.step([&](auto& proxy) {
    reused = proxy.create_entity();
    proxy.add_component(ct::hull, reused, hull{});
  });
  ASSERT_EQ(reused.index(), w.hulls[0].index());
  std::size_t aiming_at_dead = 0;
  for (const entity_id g : w.guns) {
    if (ctx.get(ct::gun, g).target == w.hulls[0]) ++aiming_at_dead;
  }
  ASSERT_GT(aiming_at_dead, 0u);
  // Kill hull 1 in the same step as the sends: alive until the refresh, so
  // its messages arrive.
  ctx.step([&](auto& proxy) {
    proxy.kill_entity(w.hulls[1]);
    run_systems(proxy);
    const auto& seen = proxy.system(st::ledger).seen;
    EXPECT_EQ(seen.size(), w.guns.size() - aiming_at_dead);
    for (std::size_t i = 0; i < seen.size(); ++i) {
      EXPECT_NE(seen[i].first, reused);
      if (i > 0) {
        EXPECT_LE(seen[i - 1].first.index(), seen[i].first.index());
      }
    }
  });
  EXPECT_EQ(ctx.dropped_messages(), w.guns.size() + aiming_at_dead);
  // The next step sees only its own messages; hull 1 is dead now.
  std::size_t aiming_at_one = 0;
  for (const entity_id g : w.guns) {
    if (ctx.get(ct::gun, g).target == w.hulls[1]) ++aiming_at_one;
  }
  ctx.step([&](auto& proxy) {
    run_systems(proxy);
    EXPECT_EQ(proxy.system(st::ledger).seen.size(),
              w.guns.size() - aiming_at_dead - aiming_at_one);
  });
  EXPECT_EQ(ctx.dropped_messages(),
            w.guns.size() + aiming_at_dead + aiming_at_one);
  ctx.step([](auto&) {});
  EXPECT_EQ(ctx.dropped_messages(), 0u);
}

// A model test: random steps create and kill entities and send from two
// systems (one split, one not) to ids drawn from every id ever made (live,
// dead, stale, null); a receiver that never splits records what it sees.
// A plain model (a list of live ids, the messages in system then sender
// order, a stable sort by target index) predicts every step's messages and
// drop count.
struct pool {
  std::vector<entity_id> ids;        // every id ever made, and null
  std::vector<std::uint32_t> picks;  // per step: indices into ids
};
struct shot {
  std::uint32_t nth = 0;  // which pick this entity sends, each step
};
struct witness {
  std::vector<std::pair<entity_id, entity_id>> seen;  // (target, sender)
  std::vector<int> amounts;
  template <typename Data>
  void process(Data& data) {
    seen.clear();
    amounts.clear();
    data.for_each_message(mt::damage, [&](const strata::message<damage>& m) {
      seen.push_back({m.target, m.sender});
      amounts.push_back(m.value.amount);
    });
  }
};
struct split_sender {
  template <typename Data>
  void process(Data& data) const {
    const pool& p = data.template resource<pool>();
    data.for_each([&](entity_id self, const shot& s) {
      data.send(self, p.ids[p.picks[s.nth % p.picks.size()]], damage{1});
      data.send(self, p.ids[p.picks[(s.nth + 1) % p.picks.size()]], damage{2});
    });
  }
};
struct whole_sender {
  template <typename Data>
  void process(Data& data) const {
    const pool& p = data.template resource<pool>();
    for (std::size_t i = p.picks.size(); i-- > 0;) {
      data.send(p.ids.front(), p.ids[p.picks[i]], damage{3});
    }
  }
};
namespace st {
inline constexpr auto witness = strata::tag<::witness>;
inline constexpr auto split_sender = strata::tag<::split_sender>;
inline constexpr auto whole_sender = strata::tag<::whole_sender>;
}  // namespace st
namespace ct {
inline constexpr auto shot = strata::tag<::shot>;
}  // namespace ct

constexpr auto model_settings =
    strata::settings()
        .allow_inner_parallelism()
        .resources(strata::resources(strata::resource<pool>))
        .component_signatures(
            strata::component_signatures(strata::cs::make(ct::shot)))
        .system_signatures(strata::system_signatures(
            strata::ss::make(st::split_sender)
                .read(ct::shot)
                .read_resource<pool>()
                .sends<damage>()
                .parallelism(strata::ips::split_evenly_per_core()),
            strata::ss::make(st::whole_sender)
                .read_resource<pool>()
                .sends<damage>()
                .parallelism(strata::ips::none()),
            strata::ss::make(st::witness)
                .receives<damage>()
                .dependencies(st::split_sender, st::whole_sender)
                .parallelism(strata::ips::none())))
        .scheduler(strata::scheduler::atomic_counter);

TEST(EffectChannelTest, ModelOfSendsToLiveDeadAndStaleIds) {
  for (const std::size_t threads : {1u, 3u, 8u}) {
    auto ctx = strata::make_context(model_settings,
                                    strata::run_options().threads(threads));
    std::mt19937 random(static_cast<std::uint32_t>(threads));
    pool& p = ctx.template resource<pool>();
    p.ids.push_back(strata::null_entity);
    std::vector<entity_id> live;  // the model's, in creation order
    std::vector<std::pair<entity_id, std::uint32_t>> shots;
    for (int step = 0; step < 60; ++step) {
      // Critical operations: the model applies them as the refresh will.
      ctx.step([&](auto& proxy) {
        const int creations = static_cast<int>(random() % 40);
        for (int i = 0; i < creations; ++i) {
          const entity_id e = proxy.create_entity();
          const std::uint32_t nth = random() % 64;
          proxy.add_component(ct::shot, e, shot{nth});
          p.ids.push_back(e);
          live.push_back(e);
        }
        for (int i = 0; i < 15 && !live.empty(); ++i) {
          const std::size_t k = random() % live.size();
          proxy.kill_entity(live[k]);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        }
      });
      // p.ids.front() stays the null id: whole_sender's sender is null.
      p.picks.clear();
      for (int i = 0; i < 64; ++i) {
        p.picks.push_back(static_cast<std::uint32_t>(random() % p.ids.size()));
      }
      // The model's messages: split_sender by sender index, then
      // whole_sender in its send order.
      std::vector<entity_id> senders = live;
      std::sort(senders.begin(), senders.end(),
                [](entity_id a, entity_id b) { return a.index() < b.index(); });
      std::vector<std::pair<entity_id, entity_id>> sent;  // (target, sender)
      std::vector<int> amounts;
      const auto is_live = [&](entity_id id) {
        return std::find(live.begin(), live.end(), id) != live.end();
      };
      std::size_t dropped = 0;
      const auto send = [&](entity_id sender, entity_id target, int amount) {
        if (!is_live(target)) {
          ++dropped;
          return;
        }
        sent.push_back({target, sender});
        amounts.push_back(amount);
      };
      for (const entity_id s : senders) {
        const std::uint32_t nth = ctx.get(ct::shot, s).nth;
        send(s, p.ids[p.picks[nth % 64]], 1);
        send(s, p.ids[p.picks[(nth + 1) % 64]], 2);
      }
      for (std::size_t i = 64; i-- > 0;)
        send(p.ids.front(), p.ids[p.picks[i]], 3);
      std::vector<std::size_t> order(sent.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) {
                         return sent[a].first.index() < sent[b].first.index();
                       });
      ctx.step([&](auto& proxy) {
        run_systems(proxy);
        const witness& w = proxy.system(st::witness);
        ASSERT_EQ(w.seen.size(), order.size()) << "step " << step;
        for (std::size_t i = 0; i < order.size(); ++i) {
          ASSERT_EQ(w.seen[i], sent[order[i]]) << "step " << step << " " << i;
          ASSERT_EQ(w.amounts[i], amounts[order[i]]);
        }
      });
      ASSERT_EQ(ctx.dropped_messages(), dropped) << "step " << step;
    }
  }
}

// Every step: every ship fires at its target, hit ships lose points, ships
// at zero die and are replaced (a kill and a creation), ships whose target
// died aim again after firing once more at the dead id (a drop). After
// warm-up nothing allocates.
struct reaper {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, const hull& h) {
      if (h.points <= 0) {
        data.kill_entity(self);
        data.defer([](auto& proxy) {
          const entity_id fresh = proxy.create_entity();
          proxy.add_component(ct::hull, fresh, hull{40, 0});
          proxy.add_component(ct::gun, fresh, gun{strata::null_entity, 3});
        });
      }
    });
  }
};
// Never splits: a gun whose target is dead aims at another ship.
struct aim {
  std::vector<entity_id> ships;
  std::uint32_t turn = 0;
  template <typename Data>
  void process(Data& data) {
    ships.clear();
    data.for_entities([&](entity_id id) { ships.push_back(id); });
    ++turn;
    data.for_each([&](entity_id self, gun& g) {
      if (!data.alive(g.target)) {
        g.target = ships[(self.index() * 7u + turn) % ships.size()];
      }
    });
  }
};
namespace st {
inline constexpr auto reaper = strata::tag<::reaper>;
inline constexpr auto aim = strata::tag<::aim>;
}  // namespace st

constexpr auto churn_settings =
    strata::settings()
        .dynamic_entity_limit(8192)
        .allow_inner_parallelism()
        .component_signatures(
            strata::component_signatures(strata::cs::make(ct::gun, ct::hull)))
        .system_signatures(strata::system_signatures(
            strata::ss::make(st::gunnery)
                .read(ct::gun)
                .sends<damage>()
                .parallelism(strata::ips::split_evenly_per_core()),
            strata::ss::make(st::aim)
                .write(ct::gun)
                .dependencies(st::gunnery)
                .parallelism(strata::ips::none()),
            strata::ss::make(st::repair)
                .write(ct::hull)
                .receives<damage>()
                .dependencies(st::gunnery)
                .parallelism(strata::ips::split_evenly_per_core()),
            strata::ss::make(st::reaper)
                .read(ct::hull)
                .dependencies(st::repair)
                .parallelism(strata::ips::split_evenly(2))))
        .scheduler(strata::scheduler::atomic_counter);

TEST(EffectChannelTest, SteadyStepsThatSendKillAndCreateAllocateNothing) {
  constexpr int kShips = 2000;
  for (const std::size_t threads : {1u, 2u, 4u}) {
    auto ctx = strata::make_context(churn_settings,
                                    strata::run_options().threads(threads));
    ctx.step([&](auto& proxy) {
      for (int i = 0; i < kShips; ++i) {
        const entity_id e = proxy.create_entity();
        proxy.add_component(ct::hull, e, hull{40, 0});
        proxy.add_component(ct::gun, e, gun{strata::null_entity, 1 + i % 7});
      }
    });
    const auto frame = [](auto& proxy) { run_systems(proxy); };
    for (int i = 0; i < 200; ++i) ctx.step(frame);  // warm-up
    std::size_t dropped = 0;
    std::size_t steps_with_drops = 0;
    const std::size_t before = strata::testing::allocation_count();
    for (int i = 0; i < 100; ++i) {
      ctx.step(frame);
      dropped += ctx.dropped_messages();
      steps_with_drops += ctx.dropped_messages() > 0 ? 1 : 0;
    }
    const std::size_t after = strata::testing::allocation_count();
    EXPECT_EQ(after - before, 0u) << threads << " threads";
    // Ships die every step, so some gun fires at a dead id every step.
    EXPECT_EQ(steps_with_drops, 100u) << dropped;
    std::size_t ships = 0;
    ctx.step([&](auto& proxy) { ships = proxy.count_entities_in(st::repair); });
    EXPECT_EQ(ships, static_cast<std::size_t>(kShips));
  }
}

}  // namespace
