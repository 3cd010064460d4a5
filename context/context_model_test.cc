// Randomized model test: thousands of steps of random create / kill / add /
// remove / remove-and-re-add / batch / query / system runs, compared after
// every step (and at every query and run) with a reference ECS that is written
// the obvious way (maps of components, linear scans).
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

using strata::testing::health;
using strata::testing::position;
using strata::testing::velocity;
namespace ct = strata::testing::ct;

constexpr float kDt = 0.25f;

struct movement {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
  }
};
struct damage {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, health& h) {
      if (--h.hp <= 0) data.kill_entity(e);
    });
  }
};
struct census {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](strata::entity_id) { ++data.output(); });
  }
};

// An exclusion and an optional read.
// Entities with position but no velocity; counts them.
struct resting {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](const position&) { ++data.output(); });
  }
};
// Entities with velocity; sums the health of those that have one.
struct triage {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, const velocity&) {
      if (const health* h = data.try_read(ct::health, e)) {
        data.output() += h->hp;
      }
    });
  }
};

namespace st {
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto damage = strata::tag<::damage>;
inline constexpr auto census = strata::tag<::census>;
inline constexpr auto resting = strata::tag<::resting>;
inline constexpr auto triage = strata::tag<::triage>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity),
    strata::component_signature::make(ct::health).sparse());
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::movement)
        .read(ct::velocity)
        .write(ct::position),
    strata::system_signature::make(st::damage)
        .write(ct::health)
        .parallelism(strata::inner_parallelism::split_evenly(3)),
    strata::system_signature::make(st::census)
        .read(ct::position)
        .dependencies(st::movement)
        .output<int>()
        .parallelism(strata::inner_parallelism::split_every_n(7)),
    strata::system_signature::make(st::resting)
        .read(ct::position)
        .exclude(ct::velocity)
        .dependencies(st::movement)
        .output<int>()
        .parallelism(strata::inner_parallelism::split_evenly(2)),
    strata::system_signature::make(st::triage)
        .read(ct::velocity)
        .read_optional(ct::health)
        .dependencies(st::damage)
        .output<int>()
        .parallelism(strata::inner_parallelism::split_every_n(5)));

// The reference ECS.
struct reference {
  struct entity {
    std::optional<position> pos;
    std::optional<velocity> vel;
    std::optional<health> hp;
  };
  std::map<strata::entity_id, entity> alive;
  std::set<strata::entity_id> pending_kill;
  // Kills marked through the step proxy (systems' kills are gathered only at
  // the refresh, so the proxy does not see them).
  std::set<strata::entity_id> proxy_kills;
  std::set<strata::entity_id> pending_match;
  std::set<strata::entity_id> in_movement, in_damage, in_census;
  std::set<strata::entity_id> in_resting, in_triage;
  int expected_resting = 0, expected_triage = 0;  // of the latest run
  // Departures noted by remove_component: (system set, id), applied at the
  // next look at the systems (a run or a query), where an entity that has
  // the component again stays.
  std::vector<std::pair<std::set<strata::entity_id>*, strata::entity_id>>
      departures;

  static bool wants_movement(const entity& e) { return e.pos && e.vel; }
  static bool wants_damage(const entity& e) { return e.hp.has_value(); }
  static bool wants_census(const entity& e) { return e.pos.has_value(); }
  static bool wants_resting(const entity& e) { return e.pos && !e.vel; }
  static bool wants_triage(const entity& e) { return e.vel.has_value(); }

  void unsubscribe_all(strata::entity_id id) {
    in_movement.erase(id);
    in_damage.erase(id);
    in_census.erase(id);
    in_resting.erase(id);
    in_triage.erase(id);
  }
  bool wants(const std::set<strata::entity_id>* set, const entity& e) const {
    if (set == &in_movement) return wants_movement(e);
    if (set == &in_damage) return wants_damage(e);
    if (set == &in_census) return wants_census(e);
    if (set == &in_resting) return wants_resting(e);
    return wants_triage(e);
  }
  void depart(std::set<strata::entity_id>& set, strata::entity_id id) {
    departures.emplace_back(&set, id);
  }
  // A look at the systems: noted departures of entities that lack a
  // required component take effect.
  void settle() {
    for (auto [set, id] : departures) {
      if (!wants(set, alive.at(id))) set->erase(id);
    }
    departures.clear();
  }
  void refresh() {
    departures.clear();  // the matching below decides every changed entity
    for (auto id : pending_kill) {
      unsubscribe_all(id);
      alive.erase(id);
    }
    pending_kill.clear();
    proxy_kills.clear();
    for (auto id : pending_match) {
      auto it = alive.find(id);
      if (it == alive.end()) continue;
      auto update = [&](std::set<strata::entity_id>& set, bool wants) {
        if (wants) {
          set.insert(id);
        } else {
          set.erase(id);
        }
      };
      update(in_movement, wants_movement(it->second));
      update(in_damage, wants_damage(it->second));
      update(in_census, wants_census(it->second));
      update(in_resting, wants_resting(it->second));
      update(in_triage, wants_triage(it->second));
    }
    pending_match.clear();
  }
  int run_systems() {
    settle();
    for (auto id : in_movement) {
      auto& e = alive.at(id);
      e.pos->x += e.vel->x * kDt;
      e.pos->y += e.vel->y * kDt;
    }
    for (auto id : in_damage) {
      if (--alive.at(id).hp->hp <= 0) pending_kill.insert(id);
    }
    expected_resting = static_cast<int>(in_resting.size());
    expected_triage = 0;
    for (auto id : in_triage) {
      if (const auto& hp = alive.at(id).hp) expected_triage += hp->hp;
    }
    return static_cast<int>(in_census.size());
  }
};

template <typename Settings>
void run_model(const Settings& settings, unsigned seed, int steps) {
  auto ctx = strata::make_context(settings);
  reference ref;
  std::mt19937 rng(seed);
  auto pick_alive = [&]() -> std::optional<strata::entity_id> {
    if (ref.alive.empty()) return std::nullopt;
    auto it = ref.alive.begin();
    std::advance(it, std::uniform_int_distribution<std::size_t>(
                         0, ref.alive.size() - 1)(rng));
    return it->first;
  };
  auto small = [&] {
    return static_cast<float>(std::uniform_int_distribution<int>(-8, 8)(rng));
  };

  // Removes component `which` (position, velocity, health) from `id`.
  auto remove = [&](auto& proxy, strata::entity_id id, int which) {
    auto& e = ref.alive[id];
    bool had = false;
    if (which == 0) {
      had = e.pos.has_value();
      EXPECT_EQ(proxy.remove_component(ct::position, id), had);
      e.pos.reset();
      if (had) {
        ref.depart(ref.in_movement, id);
        ref.depart(ref.in_census, id);
        ref.depart(ref.in_resting, id);  // requires position
      }
    } else if (which == 1) {
      had = e.vel.has_value();
      EXPECT_EQ(proxy.remove_component(ct::velocity, id), had);
      e.vel.reset();
      if (had) {
        ref.depart(ref.in_movement, id);
        ref.depart(ref.in_triage, id);  // requires velocity
        // resting excludes velocity: it joins at the refresh.
      }
    } else {
      had = e.hp.has_value();
      EXPECT_EQ(proxy.remove_component(ct::health, id), had);
      e.hp.reset();
      if (had) ref.depart(ref.in_damage, id);
    }
    if (had) ref.pending_match.insert(id);
  };
  // A query about `id` in every system: a look, as a run is.
  auto look = [&](auto& proxy, strata::entity_id id) {
    ref.settle();
    EXPECT_EQ(proxy.is_in_system(st::movement, id),
              ref.in_movement.count(id) == 1);
    EXPECT_EQ(proxy.is_in_system(st::damage, id), ref.in_damage.count(id) == 1);
    EXPECT_EQ(proxy.is_in_system(st::census, id), ref.in_census.count(id) == 1);
    EXPECT_EQ(proxy.is_in_system(st::resting, id),
              ref.in_resting.count(id) == 1);
    EXPECT_EQ(proxy.is_in_system(st::triage, id), ref.in_triage.count(id) == 1);
  };

  for (int step = 0; step < steps; ++step) {
    ctx.step([&](auto& proxy) {
      const int ops = std::uniform_int_distribution<int>(1, 12)(rng);
      for (int op = 0; op < ops; ++op) {
        const int kind = std::uniform_int_distribution<int>(0, 12)(rng);
        if (kind <= 2) {
          auto id = proxy.create_entity();
          ASSERT_FALSE(ref.alive.count(id)) << "id handed out twice: " << id;
          ref.alive[id];
          ref.pending_match.insert(id);
        } else if (kind == 3) {
          if (auto id = pick_alive()) {
            const bool expected = !ref.proxy_kills.count(*id);
            EXPECT_EQ(proxy.kill_entity(*id), expected);
            ref.proxy_kills.insert(*id);
            ref.pending_kill.insert(*id);
          }
        } else if (kind <= 7) {
          if (auto id = pick_alive()) {
            auto& e = ref.alive[*id];
            const int which = std::uniform_int_distribution<int>(0, 2)(rng);
            if (which == 0) {
              position p{small(), small()};
              proxy.add_component(ct::position, *id, p);
              e.pos = p;
            } else if (which == 1) {
              velocity v{small(), small()};
              proxy.add_component(ct::velocity, *id, v);
              e.vel = v;
            } else {
              health h{std::uniform_int_distribution<int>(1, 6)(rng)};
              proxy.add_component(ct::health, *id, h);
              e.hp = h;
            }
            ref.pending_match.insert(*id);
          }
        } else if (kind == 8) {
          if (auto id = pick_alive()) {
            remove(proxy, *id, std::uniform_int_distribution<int>(0, 2)(rng));
          }
        } else if (kind == 10) {
          // Remove, then maybe add back the same component, maybe with a
          // look at the systems in between (which applies the departure).
          if (auto id = pick_alive()) {
            const int which = std::uniform_int_distribution<int>(0, 2)(rng);
            remove(proxy, *id, which);
            if (std::bernoulli_distribution(0.3)(rng)) look(proxy, *id);
            if (std::bernoulli_distribution(0.8)(rng)) {
              auto& e = ref.alive[*id];
              if (which == 0) {
                e.pos = position{small(), small()};
                proxy.add_component(ct::position, *id, *e.pos);
              } else if (which == 1) {
                e.vel = velocity{small(), small()};
                proxy.add_component(ct::velocity, *id, *e.vel);
              } else {
                e.hp = health{3};
                proxy.add_component(ct::health, *id, *e.hp);
              }
              ref.pending_match.insert(*id);
            }
          }
        } else if (kind == 11) {
          if (auto id = pick_alive()) look(proxy, *id);
        } else if (kind == 12) {
          // The batch calls: create with components, remove over a range.
          proxy.create_entities(
              2, [&](strata::entity_id id, position& p, health& h) {
                p = position{small(), small()};
                h = health{2};
                ref.alive[id] = {p, std::nullopt, h};
                ref.pending_match.insert(id);
              });
          std::vector<strata::entity_id> ids;
          std::size_t expected = 0;
          for (int i = 0; i < 3; ++i) {
            auto id = pick_alive();
            if (!id || std::count(ids.begin(), ids.end(), *id)) continue;
            ids.push_back(*id);
            auto& e = ref.alive[*id];
            if (!e.hp) continue;
            ++expected;
            e.hp.reset();
            ref.depart(ref.in_damage, *id);
            ref.pending_match.insert(*id);
          }
          EXPECT_EQ(proxy.remove_components(ct::health, ids), expected);
        } else {
          proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
              [](auto& system, auto& data) { system.process(data); }));
          const int expected_census = ref.run_systems();
          int census_total = 0;
          proxy.for_system_outputs(st::census,
                                   [&](auto&, int& n) { census_total += n; });
          EXPECT_EQ(census_total, expected_census);
          int resting_total = 0, triage_total = 0;
          proxy.for_system_outputs(st::resting,
                                   [&](auto&, int& n) { resting_total += n; });
          proxy.for_system_outputs(st::triage,
                                   [&](auto&, int& n) { triage_total += n; });
          EXPECT_EQ(resting_total, ref.expected_resting);
          EXPECT_EQ(triage_total, ref.expected_triage);
        }
      }
    });
    ref.refresh();

    // Compare everything.
    ASSERT_EQ(ctx.entity_count(), ref.alive.size()) << "step " << step;
    ctx.step([&](auto& proxy) {
      for (const auto& [id, e] : ref.alive) {
        ASSERT_TRUE(proxy.alive(id)) << id;
        ASSERT_EQ(proxy.has_component(ct::position, id), e.pos.has_value());
        ASSERT_EQ(proxy.has_component(ct::velocity, id), e.vel.has_value());
        ASSERT_EQ(proxy.has_component(ct::health, id), e.hp.has_value());
        if (e.pos) {
          ASSERT_EQ(proxy.get_component(ct::position, id), *e.pos);
        }
        if (e.vel) {
          ASSERT_EQ(proxy.get_component(ct::velocity, id), *e.vel);
        }
        if (e.hp) {
          ASSERT_EQ(proxy.get_component(ct::health, id).hp, e.hp->hp);
        }
        ASSERT_EQ(proxy.is_in_system(st::movement, id),
                  ref.in_movement.count(id) == 1);
        ASSERT_EQ(proxy.is_in_system(st::damage, id),
                  ref.in_damage.count(id) == 1);
        ASSERT_EQ(proxy.is_in_system(st::census, id),
                  ref.in_census.count(id) == 1);
        ASSERT_EQ(proxy.is_in_system(st::resting, id),
                  ref.in_resting.count(id) == 1);
        ASSERT_EQ(proxy.is_in_system(st::triage, id),
                  ref.in_triage.count(id) == 1);
      }
      ASSERT_EQ(proxy.count_entities_in(st::movement), ref.in_movement.size());
      ASSERT_EQ(proxy.count_entities_in(st::damage), ref.in_damage.size());
      ASSERT_EQ(proxy.count_entities_in(st::census), ref.in_census.size());
      ASSERT_EQ(proxy.count_entities_in(st::resting), ref.in_resting.size());
      ASSERT_EQ(proxy.count_entities_in(st::triage), ref.in_triage.size());
    });
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(ContextModelTest, DynamicLimitSequentialRefresh) {
  run_model(strata::settings()
                .dynamic_entity_limit()
                .allow_inner_parallelism()
                .component_signatures(components)
                .system_signatures(systems)
                .threads(1),
            1, 3000);
}

TEST(ContextModelTest, FixedLimitParallelRefresh) {
  run_model(strata::settings()
                .fixed_entity_limit<4096>()
                .allow_inner_parallelism()
                .component_signatures(components)
                .system_signatures(systems)
                .refresh_parallelism(true)
                .threads(3),
            2, 3000);
}

TEST(ContextModelTest, NoInnerParallelism) {
  run_model(strata::settings()
                .disallow_inner_parallelism()
                .component_signatures(components)
                .system_signatures(systems)
                .threads(2),
            3, 2000);
}

}  // namespace

namespace {

TEST(ContextModelTest, AtomicCounterSchedulerWithInnerParallelism) {
  run_model(strata::settings()
                .dynamic_entity_limit()
                .allow_inner_parallelism()
                .component_signatures(components)
                .system_signatures(systems)
                .scheduler(strata::scheduler::atomic_counter)
                .threads(4),
            4, 3000);
}

TEST(ContextModelTest, AtomicCounterSchedulerCallerOnly) {
  run_model(strata::settings()
                .allow_inner_parallelism()
                .component_signatures(components)
                .system_signatures(systems)
                .scheduler(strata::scheduler::atomic_counter)
                .threads(1),
            5, 1000);
}

}  // namespace
