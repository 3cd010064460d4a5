// Test-only: random system DAGs generated at compile time.
//
// random_dag<Seed, N> describes N systems over kRandomDagComponents
// components (comp<0> .. comp<7>), drawn by a constexpr PRNG from Seed:
//   * dependencies: system i depends on each of the 4 systems before it
//     with probability 2 * DependencyPercent and on each earlier one with
//     DependencyPercent / 4 (acyclic by construction);
//   * accesses: every (system, component) pair, visited in a random order,
//     asks to write it (30%); the write is granted only if every other
//     writer of the component is ordered with this system (one reaches the
//     other through dependencies). Then every pair asks to read (35%), which
//     is granted only if every writer is ordered with the reader. So the
//     generated set
//     always passes system_signatures()'s compile-time race check, and every
//     race the check would reject is impossible by construction;
//   * strategy: one of the inner-parallelism strategies in strategy_for<k>;
//   * kills / defers: whether the system kills entities and defers critical
//     work (create, add, remove, kill) from its subtasks.
//
// random_dag_system<Dag, I> is a system that does order-sensitive data flow:
// for each entity it hashes the values of everything it reads (and its
// dependencies' outputs), writes hash-derived values to what it writes, and
// outputs the sum of its hashes. Any change in which systems run, in which
// order, or on which entities changes the values that follow.
#ifndef STRATA_CONTEXT_RANDOM_DAG_TESTING_H_
#define STRATA_CONTEXT_RANDOM_DAG_TESTING_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "component_storage/hash_map_chunk.h"
#include "context/context.h"

namespace strata::testing {

inline constexpr std::size_t kRandomDagComponents = 8;

// A random-DAG component: one 64-bit value.
template <std::size_t K>
struct comp {
  std::uint64_t v = 0;
};

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

constexpr std::uint64_t mix64(std::uint64_t x) {
  std::uint64_t state = x;
  return splitmix64(state);
}

// Strategies a generated system may use (index 0..kStrategyCount-1).
inline constexpr std::size_t kStrategyCount = 9;
struct odd_user_strategy {  // a user strategy: deliberately odd answers
  constexpr std::size_t subtasks(std::size_t entities, std::size_t) const {
    return entities % 5 == 0 ? 0 : entities % 11 + 1;  // 0 is clamped to 1
  }
};
template <std::size_t K>
constexpr auto strategy_for() {
  if constexpr (K == 0) return inner_parallelism::none();
  if constexpr (K == 1) return inner_parallelism::split_evenly(3);
  if constexpr (K == 2) return inner_parallelism::split_evenly_per_core();
  if constexpr (K == 3) return inner_parallelism::split_every_n(7);
  if constexpr (K == 4)
    return inner_parallelism_composer::none_below_threshold(
        40, inner_parallelism::split_evenly(4));
  if constexpr (K == 5)
    return inner_parallelism_composer::fixed_threshold(
        100, inner_parallelism::split_every_n(25),
        inner_parallelism::split_evenly(2));
  if constexpr (K == 6) return odd_user_strategy{};
  // Cost-aware: its subtask count depends on measured times, so it differs
  // from run to run; results must not.
  if constexpr (K == 7) return inner_parallelism::automatic();
  if constexpr (K == 8)
    return inner_parallelism::split_every_n(1);  // one per entity
}

template <std::size_t N>
struct random_dag_spec {
  static constexpr std::size_t C = kRandomDagComponents;
  std::array<std::array<bool, N>, N> depends{};  // [i][j]: i depends on j
  std::array<std::array<bool, N>, N> before{};   // transitive closure
  std::array<std::array<bool, C>, N> reads{};
  std::array<std::array<bool, C>, N> writes{};
  std::array<std::size_t, N> strategy{};
  std::array<bool, N> kills{};
  std::array<bool, N> defers{};

  constexpr bool ordered(std::size_t a, std::size_t b) const {
    return a == b || before[a][b] || before[b][a];
  }
};

template <std::size_t N>
constexpr random_dag_spec<N> make_random_dag(std::uint64_t seed,
                                             unsigned dependency_percent) {
  constexpr std::size_t C = kRandomDagComponents;
  random_dag_spec<N> s;
  std::uint64_t rng = seed;
  for (std::size_t i = 1; i < N; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      // Mostly on recent systems (long chains with parallel branches),
      // sometimes on any earlier one (joins across branches).
      const unsigned percent =
          i - j <= 4 ? 2 * dependency_percent : dependency_percent / 4;
      s.depends[i][j] = splitmix64(rng) % 100 < percent;
    }
  }
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = 0; j < N; ++j) s.before[j][i] = s.depends[i][j];
  }
  for (std::size_t k = 0; k < N; ++k) {
    for (std::size_t i = 0; i < N; ++i) {
      if (!s.before[i][k]) continue;
      for (std::size_t j = 0; j < N; ++j) {
        if (s.before[k][j]) s.before[i][j] = true;
      }
    }
  }
  // Visit (system, component) pairs in a random order (Fisher-Yates).
  std::array<std::size_t, N * C> pairs{};
  for (std::size_t p = 0; p < N * C; ++p) pairs[p] = p;
  for (std::size_t p = N * C - 1; p > 0; --p) {
    const std::size_t q = splitmix64(rng) % (p + 1);
    const std::size_t t = pairs[p];
    pairs[p] = pairs[q];
    pairs[q] = t;
  }
  // Writes first (a reader would block every unordered writer), then reads.
  for (std::size_t p : pairs) {
    const std::size_t i = p / C, k = p % C;
    if (splitmix64(rng) % 100 >= 30) continue;
    bool ok = true;
    for (std::size_t j = 0; j < N; ++j) {
      if (j != i && s.writes[j][k] && !s.ordered(i, j)) ok = false;
    }
    if (ok) s.writes[i][k] = true;
  }
  for (std::size_t p : pairs) {
    const std::size_t i = p / C, k = p % C;
    if (s.writes[i][k] || splitmix64(rng) % 100 >= 35) continue;
    bool ok = true;
    for (std::size_t j = 0; j < N; ++j) {
      if (j != i && s.writes[j][k] && !s.ordered(i, j)) ok = false;
    }
    if (ok) s.reads[i][k] = true;
  }
  for (std::size_t i = 0; i < N; ++i) {
    s.strategy[i] = splitmix64(rng) % kStrategyCount;
    s.kills[i] = splitmix64(rng) % 4 == 0;
    s.defers[i] = splitmix64(rng) % 4 == 0;
  }
  return s;
}

// The indices set in a row of flags, as an array.
template <std::size_t Count, std::size_t M>
constexpr std::array<std::size_t, Count> set_indices(
    const std::array<bool, M>& flags) {
  std::array<std::size_t, Count> out{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < M; ++i) {
    if (flags[i]) out[n++] = i;
  }
  return out;
}
template <std::size_t M>
constexpr std::size_t count_set(const std::array<bool, M>& flags) {
  std::size_t n = 0;
  for (bool b : flags) n += b;
  return n;
}

template <typename Dag, std::size_t I>
struct random_dag_system;

// Always-present extra system with no components: every entity is
// subscribed to it, so tests can enumerate all live entities through it.
struct all_entities {
  template <typename Data>
  void process(Data&) const {}
};

template <std::uint64_t Seed, std::size_t N, unsigned DependencyPercent = 20>
struct random_dag {
  static constexpr std::size_t count = N;
  static constexpr random_dag_spec<N> spec =
      make_random_dag<N>(Seed, DependencyPercent);

  template <std::size_t I>
  using system = random_dag_system<random_dag, I>;

  template <std::size_t I>
  struct info {
    static constexpr auto reads =
        set_indices<count_set(spec.reads[I])>(spec.reads[I]);
    static constexpr auto writes =
        set_indices<count_set(spec.writes[I])>(spec.writes[I]);
    static constexpr auto deps =
        set_indices<count_set(spec.depends[I])>(spec.depends[I]);
  };

  template <std::size_t I>
  static constexpr auto signature() {
    using in = info<I>;
    return []<std::size_t... R, std::size_t... W, std::size_t... D>(
        std::index_sequence<R...>, std::index_sequence<W...>,
        std::index_sequence<D...>) {
      return system_signature::make(tag<system<I>>)
          .read(tag<comp<in::reads[R]>>...)
          .write(tag<comp<in::writes[W]>>...)
          .dependencies(tag<system<in::deps[D]>>...)
          .parallelism(strategy_for<spec.strategy[I]>())
          .template output<std::uint64_t>();
    }
    (std::make_index_sequence<in::reads.size()>{},
     std::make_index_sequence<in::writes.size()>{},
     std::make_index_sequence<in::deps.size()>{});
  }

  // The N generated systems plus all_entities (id N).
  static constexpr auto systems() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return system_signatures(signature<I>()...,
                               system_signature::make(tag<all_entities>));
    }
    (std::make_index_sequence<N>{});
  }

  // Generated systems that run before / after each other, for tests.
  static constexpr std::size_t edge_count() {
    std::size_t e = 0;
    for (std::size_t i = 0; i < N; ++i) e += count_set(spec.depends[i]);
    return e;
  }
};

// Every random-DAG component, stored in a mix of storages.
inline constexpr auto random_dag_components = component_signatures(
    component_signature::make(tag<comp<0>>, tag<comp<1>>),
    component_signature::make(tag<comp<2>>),
    component_signature::make(tag<comp<3>>, tag<comp<4>>).aos(),
    component_signature::make(tag<comp<5>>).sparse(),
    component_signature::make(tag<comp<6>>).hash_map(),
    component_signature::make(tag<comp<7>>).sparse());

template <std::size_t... K, typename F>
constexpr void for_each_component(std::index_sequence<K...>, F&& f) {
  (f(tag<comp<K>>, std::integral_constant<std::size_t, K>{}), ...);
}
template <typename F>
constexpr void for_each_component(F&& f) {
  for_each_component(std::make_index_sequence<kRandomDagComponents>{}, f);
}

template <typename Dag, std::size_t I>
struct random_dag_system {
  using in = typename Dag::template info<I>;
  static constexpr auto& spec = Dag::spec;

  template <typename Data>
  void process(Data& data) const {
    // Dependencies' outputs (sums, so independent of how they were split).
    std::uint64_t seed = mix64(0x5157ull * (I + 1));
    [&]<std::size_t... D>(std::index_sequence<D...>) {
      (
          [&] {
            std::uint64_t sum = 0;
            data.for_previous_outputs(
                tag<typename Dag::template system<in::deps[D]>>,
                [&](auto&, const std::uint64_t& out) { sum += out; });
            seed = mix64(seed + sum);
          }(),
          ...);
    }
    (std::make_index_sequence<in::deps.size()>{});
    std::uint64_t total = 0;
    // One for_each over the current entity's components: the only way a
    // system that may split writes (data_proxy.h, the split rule).
    [&]<std::size_t... R, std::size_t... W>(std::index_sequence<R...>,
                                            std::index_sequence<W...>) {
      data.for_each([&](entity_id e, const comp<in::reads[R]>&... read,
                        comp<in::writes[W]>&... written) {
        std::uint64_t h = mix64(seed ^ e.index());
        ((h = mix64(h + read.v)), ...);
        ((h = mix64(h + written.v)), ...);
        ((written.v = mix64(h + in::writes[W])), ...);
        total += h;
        if (spec.kills[I] && h % 512 == 0) data.kill_entity(e);
        if (spec.defers[I] && (h >> 20) % 256 == 0) {
          data.defer([h, e](auto& proxy) { deferred_churn(proxy, h, e); });
        }
      });
    }
    (std::make_index_sequence<in::reads.size()>{},
     std::make_index_sequence<in::writes.size()>{});
    data.output() += total;
  }

  template <typename Proxy>
  static void deferred_churn(Proxy& proxy, std::uint64_t h, entity_id e) {
    switch ((h >> 40) % 4) {
      case 0: {  // a new entity with hash-chosen components
        const entity_id fresh = proxy.create_entity();
        for_each_component([&](auto t, auto k) {
          if ((h >> (k + 8)) & 1) proxy.add_component(t, fresh).v = h + k;
        });
        break;
      }
      case 1:
        if (proxy.alive(e)) {
          for_each_component([&](auto t, auto k) {
            if (k == (h >> 50) % kRandomDagComponents)
              proxy.remove_component(t, e);
          });
        }
        break;
      case 2:
        if (proxy.alive(e)) {
          for_each_component([&](auto t, auto k) {
            if (k == (h >> 50) % kRandomDagComponents)
              proxy.add_component(t, e).v = h;
          });
        }
        break;
      default:
        proxy.kill_entity(e);
    }
  }
};

}  // namespace strata::testing

#endif  // STRATA_CONTEXT_RANDOM_DAG_TESTING_H_
