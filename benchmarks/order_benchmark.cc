// Ordered iteration (scheduler/system_signature.h, .ordered_by(ct::x)), beside
// its baseline in this binary. The world: N entities with a draw key (a float
// depth) and a colour; each step 1 % of the keys change (a fixed cycle of
// (entity, new depth) pairs drawn once), then one pass visits every entity
// in depth order (ties by index) and sums its colour weighted by position.
//   BM_Order/std_sort/N: the baseline an engine writes by hand: the keys in
//     an array, a (depth, index) array kept from step to step, its keys
//     refreshed and the whole array std::sort-ed every step, then the pass.
//   BM_Order/strata_ordered/N: a system declared .ordered_by(ct::draw_key)
//     on 1 thread; the order is kept incrementally (the changed keys are
//     sorted and merged, context/internal/ordered_sequence.h).
//   BM_Order/strata_ordered_2t/N: the same on 2 threads (the order split
//     into contiguous chunks).
//   BM_Order/strata_unordered/N: the same system without ordered_by
//     (ascending indices): the difference to strata_ordered is the cost of
//     keeping the order and of visiting through it.
// Items are entities visited; the keys change through the step proxy in
// every variant.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "strata.h"

namespace {

struct draw_key {
  float depth = 0;
  friend bool operator<(const draw_key& a, const draw_key& b) {
    return a.depth < b.depth;
  }
};
struct colour {
  float value = 1;
};
namespace ct {
inline constexpr auto key = strata::tag<draw_key>;
inline constexpr auto colour = strata::tag<::colour>;
}  // namespace ct

// The initial depths, and a cycle of (index, new depth) changes.
struct world {
  std::vector<float> depth;
  std::vector<std::pair<std::uint32_t, float>> changes;
  std::size_t per_step = 0;
};
world make_world(std::size_t n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> depth(0, 1000);
  world w;
  for (std::size_t i = 0; i < n; ++i) w.depth.push_back(depth(rng));
  w.per_step = std::max<std::size_t>(1, n / 100);
  for (std::size_t k = 0; k < w.per_step * 16; ++k) {
    w.changes.emplace_back(static_cast<std::uint32_t>(rng() % n), depth(rng));
  }
  return w;
}

// ---------------------------------------------------------- hand-written

void order_std_sort(benchmark::State& state) {
  world w = make_world(static_cast<std::size_t>(state.range(0)));
  const std::vector<float> colours(w.depth.size(), 1.f);
  std::vector<std::pair<float, std::uint32_t>> order;
  for (std::size_t i = 0; i < w.depth.size(); ++i) {
    order.emplace_back(w.depth[i], static_cast<std::uint32_t>(i));
  }
  std::sort(order.begin(), order.end());
  std::size_t next = 0;
  float sum = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < w.per_step; ++k) {
      w.depth[w.changes[next].first] = w.changes[next].second;
      next = next + 1 == w.changes.size() ? 0 : next + 1;
    }
    for (auto& [depth, index] : order) depth = w.depth[index];
    std::sort(order.begin(), order.end());
    float position = 0;
    for (const auto& [depth, index] : order) {
      sum += colours[index] * position;
      position += 1;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// ---------------------------------------------------------------- Strata

// Sums colour weighted by visiting position (per subtask).
struct paint {
  template <typename Data>
  void process(Data& data) const {
    float sum = 0, position = 0;
    data.for_each([&](const draw_key&, const colour& c) {
      sum += c.value * position;
      position += 1;
    });
    data.output() = sum;
  }
};
namespace st {
inline constexpr auto paint = strata::tag<::paint>;
}  // namespace st

constexpr auto components =
    strata::component_signatures(strata::component_signature::make(ct::key),
                                 strata::component_signature::make(ct::colour));

constexpr auto ordered_settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(components)
        .system_signatures(
            strata::system_signatures(strata::system_signature::make(st::paint)
                                          .read(ct::key, ct::colour)
                                          .output<float>()
                                          .ordered_by(ct::key)))
        .scheduler(strata::scheduler::atomic_counter);

constexpr auto unordered_settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(components)
        .system_signatures(
            strata::system_signatures(strata::system_signature::make(st::paint)
                                          .read(ct::key, ct::colour)
                                          .output<float>()))
        .scheduler(strata::scheduler::atomic_counter);

template <const auto& Settings>
void order_strata(benchmark::State& state, std::size_t threads) {
  const world w = make_world(static_cast<std::size_t>(state.range(0)));
  auto ctx =
      strata::make_context<Settings>(strata::run_options().threads(threads));
  std::vector<strata::entity_id> ids(w.depth.size());
  ctx.step([&](auto& proxy) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      ids[i] = proxy.create_entity();
      proxy.add_component(ct::key, ids[i], draw_key{w.depth[i]});
      proxy.add_component(ct::colour, ids[i]);
    }
  });
  std::size_t next = 0;
  const auto step = [&] {
    ctx.step([&](auto& proxy) {
      for (std::size_t k = 0; k < w.per_step; ++k) {
        const auto& [index, depth] = w.changes[next];
        proxy.get_component(ct::key, ids[index]).depth = depth;
        next = next + 1 == w.changes.size() ? 0 : next + 1;
      }
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  };
  for (int warm = 0; warm < 20; ++warm) step();  // costs measured
  for (auto _ : state) step();
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 14, 1 << 18, 1 << 20}) b->Arg(n);
}

void order_strata_ordered(benchmark::State& state, std::size_t threads) {
  order_strata<ordered_settings>(state, threads);
}
void order_strata_unordered(benchmark::State& state) {
  order_strata<unordered_settings>(state, 1);
}

BENCHMARK(order_std_sort)->Name("BM_Order/std_sort")->Apply(sizes);
BENCHMARK_CAPTURE(order_strata_ordered, 1t, 1)
    ->Name("BM_Order/strata_ordered")
    ->Apply(sizes);
BENCHMARK_CAPTURE(order_strata_ordered, 2t, 2)
    ->Name("BM_Order/strata_ordered_2t")
    ->Apply(sizes)
    ->UseRealTime();
BENCHMARK(order_strata_unordered)
    ->Name("BM_Order/strata_unordered")
    ->Apply(sizes);

}  // namespace
