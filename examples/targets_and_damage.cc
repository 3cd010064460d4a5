// Targets and damage: entities acting on other entities through the effect
// channel (context/effect_channel.h), in parallel and deterministically.
//
// Two fleets of ships fight. Each step:
//   * radar (never splits): every fourth step, each ship whose target died
//     picks a live enemy; between sweeps, ships keep the id of a target
//     that may have died;
//   * gunnery (splits): each ship whose gun is ready sends damage{power}
//     from itself to its target with data.send. A message to a target that
//     died in an earlier step is dropped and counted
//     (ctx.dropped_messages());
//   * hulls (splits, after gunnery): each ship applies the damage sent to it
//     (data.messages), through for_each's own reference, and dies at zero.
// No system writes another entity's component, so nothing races however the
// systems split, and the messages each ship receives come in the same order
// at every thread count. The program runs the battle at 1, 2 and 8 threads
// under both schedulers and prints the survivors, the dropped messages and
// the state hash (ctx.state_hash()) of each run: all the same.
//
//   bazel run //examples:targets_and_damage
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "context/state_hash.h"
#include "strata.h"

struct ship {
  std::int32_t fleet = 0;
  std::int32_t hull = 100;
};
struct gun {
  strata::entity_id target = strata::null_entity;
  std::int32_t power = 1;
  std::int32_t reload = 1;  // steps between shots
  std::int32_t ready_in = 0;
};
// The message: plain data.
struct damage {
  std::int32_t amount = 0;
};
namespace ct {
inline constexpr auto ship = strata::tag<::ship>;
inline constexpr auto gun = strata::tag<::gun>;
}  // namespace ct
namespace mt {
inline constexpr auto damage = strata::tag<::damage>;
}  // namespace mt

// Never splits (.parallelism(none())): it keeps state in members and reads
// every ship's fleet by id.
struct radar {
  std::vector<strata::entity_id> fleets[2];
  std::uint32_t sweep = 0;
  template <typename Data>
  void process(Data& data) {
    if (sweep++ % 4 != 0) return;
    fleets[0].clear();
    fleets[1].clear();
    data.for_entities([&](strata::entity_id id) {
      fleets[data.read(ct::ship, id).fleet].push_back(id);
    });
    data.for_each([&](strata::entity_id self, const ship& s, gun& g) {
      const auto& enemies = fleets[1 - s.fleet];
      if (data.alive(g.target) || enemies.empty()) return;
      g.target = enemies[(self.index() * 31u + sweep) % enemies.size()];
    });
  }
};

struct gunnery {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, gun& g) {
      if (--g.ready_in > 0) return;
      g.ready_in = g.reload;
      data.send(self, g.target, damage{g.power});
    });
  }
};

struct hulls {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, ship& s) {
      if (s.hull <= 0) return;
      for (const auto& hit : data.messages(mt::damage, self)) {
        s.hull -= hit.value.amount;
      }
      if (s.hull <= 0) data.kill_entity(self);
    });
  }
};
namespace st {
inline constexpr auto radar = strata::tag<::radar>;
inline constexpr auto gunnery = strata::tag<::gunnery>;
inline constexpr auto hulls = strata::tag<::hulls>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::ship, ct::gun)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::radar)
                .read(ct::ship)
                .write(ct::gun)
                .parallelism(strata::inner_parallelism::none()),
            strata::system_signature::make(st::gunnery)
                .write(ct::gun)
                .sends<damage>()
                .dependencies(st::radar)
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::hulls)
                .write(ct::ship)
                .receives<damage>()
                .dependencies(st::gunnery)
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core())))
        .scheduler(strata::scheduler::atomic_counter);

struct result {
  std::size_t survivors[2] = {0, 0};
  std::size_t dropped = 0;
  std::uint64_t hash = 0;
};

result battle(std::size_t threads, strata::scheduler_kind scheduler) {
  auto ctx = strata::make_context(
      settings, strata::run_options().threads(threads).scheduler(scheduler));
  ctx.step([](auto& proxy) {
    for (std::int32_t i = 0; i < 2000; ++i) {
      const strata::entity_id e = proxy.create_entity();
      proxy.add_component(ct::ship, e, ship{i % 2, 60 + i % 50});
      proxy.add_component(ct::gun, e,
                          gun{strata::null_entity, 1 + i % 9, 1 + i % 3, 0});
    }
  });
  result r;
  for (int step = 0; step < 40; ++step) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
    r.dropped += ctx.dropped_messages();
  }
  ctx.step([&](auto& proxy) {
    proxy.for_each([&](const ship& s) { ++r.survivors[s.fleet]; });
  });
  r.hash = ctx.state_hash();
  return r;
}

int main() {
  bool same = true;
  result first;
  bool have_first = false;
  for (const auto scheduler : {strata::scheduler_kind::sequential,
                               strata::scheduler_kind::atomic_counter}) {
    for (const std::size_t threads : {1u, 2u, 8u}) {
      const result r = battle(threads, scheduler);
      std::printf(
          "%s, %zu thread%s: survivors %zu and %zu, %zu messages dropped, "
          "state hash %016" PRIx64 "\n",
          scheduler == strata::scheduler_kind::sequential ? "sequential"
                                                          : "atomic_counter",
          threads, threads == 1 ? "" : "s", r.survivors[0], r.survivors[1],
          r.dropped, r.hash);
      if (!have_first) {
        first = r;
        have_first = true;
      }
      same = same && r.hash == first.hash && r.dropped == first.dropped;
    }
  }
  std::printf("the same at every thread count and under both schedulers: %s\n",
              same ? "yes" : "NO");
  return same ? 0 : 1;
}
