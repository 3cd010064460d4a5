// Shared by the two translation units of each scheduler determinism test
// (scheduler_determinism_test.cc and scheduler_determinism_reference.cc):
// the generated DAG of the target, the entity churn, the snapshot and digest
// of a world, and one run of a given length. The sequential reference run is
// compiled in its own translation unit so that each unit instantiates one
// context type: a unit with both exceeds the per-unit budget of 60 s and
// 2 GB under asan-ubsan (tools/unit_cost.py).
#ifndef STRATA_CONTEXT_SCHEDULER_DETERMINISM_TESTING_H_
#define STRATA_CONTEXT_SCHEDULER_DETERMINISM_TESTING_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

#include "context/context.h"
#include "context/random_dag_testing.h"
#include "gtest/gtest.h"

namespace strata::determinism_testing {

using strata::testing::all_entities;
using strata::testing::for_each_component;
using strata::testing::mix64;
using strata::testing::random_dag;
using strata::testing::splitmix64;

constexpr int kInitialEntities = 120;

// How long the runs are. `bazel test` runs a short fixed one; the
// environment asks for more (tools/stress.sh --long sets both):
//   STRATA_STRESS_STEPS=N  steps per run (default 150);
//   STRATA_STRESS_SEEDS=N  churn seeds, each compared in full (default 1).
struct run_length {
  int steps = 150;
  std::uint64_t seed = 42;  // of the churn
  bool from_environment = false;
};

inline int positive_from_environment(const char* name, int fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  const int n = std::atoi(value);
  return n > 0 ? n : fallback;
}

// The runs the environment asks for: one per churn seed.
inline std::vector<run_length> run_lengths() {
  const bool given = std::getenv("STRATA_STRESS_STEPS") != nullptr ||
                     std::getenv("STRATA_STRESS_SEEDS") != nullptr;
  const int steps = positive_from_environment("STRATA_STRESS_STEPS", 150);
  const int seeds = positive_from_environment("STRATA_STRESS_SEEDS", 1);
  std::vector<run_length> lengths;
  for (int k = 0; k < seeds; ++k) {
    lengths.push_back({steps, 42 + static_cast<std::uint64_t>(k), given});
  }
  return lengths;
}

struct entity_state {
  std::uint32_t index, version;
  std::array<std::optional<std::uint64_t>,
             strata::testing::kRandomDagComponents>
      components;
  friend bool operator==(const entity_state&, const entity_state&) = default;
};

struct snapshot {
  std::vector<entity_state> entities;                  // all_entities' order
  std::vector<std::vector<std::uint64_t>> subscribed;  // per system, in order
  std::vector<std::uint64_t> outputs;  // per system: sum of subtasks
  friend bool operator==(const snapshot&, const snapshot&) = default;

  std::uint64_t digest() const {
    std::uint64_t h = 1;
    for (const entity_state& e : entities) {
      h = mix64(h + e.index * 31 + e.version);
      for (const auto& c : e.components) h = mix64(h + (c ? *c + 1 : 0));
    }
    for (const auto& s : subscribed) {
      h = mix64(h + s.size());
      for (std::uint64_t id : s) h = mix64(h + id);
    }
    for (std::uint64_t o : outputs) h = mix64(h + o);
    return h;
  }
};

template <typename Dag, typename Proxy>
snapshot take_snapshot(Proxy& proxy) {
  snapshot s;
  for (entity_id e : proxy.instance(strata::tag<all_entities>).subscribed()) {
    entity_state state{e.index(), e.version(), {}};
    for_each_component([&](auto t, auto k) {
      if (proxy.has_component(t, e))
        state.components[k] = proxy.get_component(t, e).v;
    });
    s.entities.push_back(state);
  }
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          auto& instance =
              proxy.instance(strata::tag<typename Dag::template system<I>>);
          std::vector<std::uint64_t> ids;
          for (entity_id e : instance.subscribed())
            ids.push_back((std::uint64_t{e.version()} << 32) | e.index());
          s.subscribed.push_back(std::move(ids));
          std::uint64_t sum = 0;
          instance.for_outputs([&](auto&, std::uint64_t out) { sum += out; });
          s.outputs.push_back(sum);
        }(),
        ...);
  }
  (std::make_index_sequence<Dag::count>{});
  return s;
}

// The same digest as take_snapshot(proxy).digest(), without building the
// snapshot (it runs after every step).
template <typename Dag, typename Proxy>
std::uint64_t digest_of(Proxy& proxy) {
  std::uint64_t h = 1;
  for (entity_id e : proxy.instance(strata::tag<all_entities>).subscribed()) {
    h = mix64(h + e.index() * 31 + e.version());
    for_each_component([&](auto t, auto) {
      h = mix64(h + (proxy.has_component(t, e) ? proxy.get_component(t, e).v + 1
                                               : 0));
    });
  }
  std::array<std::uint64_t, Dag::count> outputs{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          auto& instance =
              proxy.instance(strata::tag<typename Dag::template system<I>>);
          h = mix64(h + instance.subscribed().size());
          for (entity_id e : instance.subscribed())
            h = mix64(h + ((std::uint64_t{e.version()} << 32) | e.index()));
          instance.for_outputs(
              [&](auto&, std::uint64_t out) { outputs[I] += out; });
        }(),
        ...);
  }
  (std::make_index_sequence<Dag::count>{});
  for (std::uint64_t o : outputs) h = mix64(h + o);
  return h;
}

// Critical operations chosen by `rng` (the same sequence for every context).
template <typename Proxy>
void churn(Proxy& proxy, std::uint64_t& rng, int creations) {
  for (int i = 0; i < creations; ++i) {
    const entity_id e = proxy.create_entity();
    const std::uint64_t bits = splitmix64(rng);
    for_each_component([&](auto t, auto k) {
      if ((bits >> k) % 4 != 0) proxy.add_component(t, e).v = bits + k;
    });
  }
  const auto& everyone = proxy.instance(strata::tag<all_entities>).subscribed();
  if (everyone.size() == 0) return;
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t r = splitmix64(rng);
    const entity_id e = everyone[r % everyone.size()];
    const std::size_t which = (r >> 32) % strata::testing::kRandomDagComponents;
    switch ((r >> 40) % 8) {
      case 0:
        proxy.kill_entity(e);
        break;
      case 1:
      case 2:
        for_each_component([&](auto t, auto k) {
          if (k == which) proxy.remove_component(t, e);
        });
        break;
      default:
        if (!proxy.alive(e)) break;
        for_each_component([&](auto t, auto k) {
          if (k == which) proxy.add_component(t, e).v = r;
        });
    }
  }
}

template <typename Proxy>
void run_systems(Proxy& proxy) {
  proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}
// A second run in the same step (one step in four): by execute_systems, or
// by detailed_instance callables that call for_subtasks twice (so these
// steps run every system two or three times). Each run's deferred
// functions must come after the earlier run's at every subtask count.
template <typename Proxy>
void run_systems_again(Proxy& proxy, int step) {
  if (step % 8 == 1) {
    run_systems(proxy);
    return;
  }
  proxy.execute_systems()(strata::execution_adapter::all().detailed_instance(
      [](auto&, auto& executor) {
        for (int pass = 0; pass < 2; ++pass) {
          executor.for_subtasks(
              [](auto& system, auto& data) { system.process(data); });
        }
      }));
}

// The digest after every step, and the final snapshot.
using run_result = std::pair<std::vector<std::uint64_t>, snapshot>;

template <typename Dag, typename Settings, typename... Extra>
run_result run(const run_length& length, const Settings& settings,
               Extra... extra) {
  auto ctx = strata::make_context(settings, extra...);
  std::uint64_t rng = length.seed;
  std::vector<std::uint64_t> digests;
  ctx.step([&](auto& proxy) { churn(proxy, rng, kInitialEntities); });
  snapshot last;
  for (int step = 0; step < length.steps; ++step) {
    ctx.step([&](auto& proxy) {
      churn(proxy, rng, static_cast<int>(splitmix64(rng) % 3));
      run_systems(proxy);
      churn(proxy, rng, static_cast<int>(splitmix64(rng) % 2));
      if (step % 4 == 1) run_systems_again(proxy, step);
    });
    ctx.step([&](auto& proxy) {
      digests.push_back(digest_of<Dag>(proxy));
      if (step == length.steps - 1) {
        last = take_snapshot<Dag>(proxy);
        EXPECT_EQ(last.digest(), digests.back());
      }
    });
  }
  return {std::move(digests), std::move(last)};
}

template <typename Dag>
constexpr auto base_settings() {
  return strata::settings()
      .dynamic_entity_limit(256)
      .allow_inner_parallelism()
      .component_signatures(strata::testing::random_dag_components)
      .system_signatures(Dag::systems());
}

// One generated DAG per test target (STRATA_RANDOM_DAG_SEED, _SYSTEMS and
// _DEPENDENCY_PERCENT come from the BUILD file), and one kind of run
// (STRATA_DETERMINISM_ON_EXECUTORS): the compiler's time and memory grow
// with every context type in a translation unit.
using dag = random_dag<STRATA_RANDOM_DAG_SEED, STRATA_RANDOM_DAG_SYSTEMS,
                       STRATA_RANDOM_DAG_DEPENDENCY_PERCENT>;

// The sequential scheduler's run of `dag` with `threads` threads (subtasks
// run one after another on the calling thread; the thread count sets how
// many a per-core split makes); on one thread it is what every other run
// must reproduce. Defined in
// scheduler_determinism_reference.cc.
run_result sequential_run(const run_length& length, std::size_t threads);

}  // namespace strata::determinism_testing

#endif  // STRATA_CONTEXT_SCHEDULER_DETERMINISM_TESTING_H_
