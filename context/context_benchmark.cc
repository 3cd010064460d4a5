// Context hot paths, each next to the raw code doing the same work
// by hand, in the same run:
//   * Movement/<n>: position += velocity * dt over 16k .. 2M entities, one
//     thread (sequential scheduler): through data.for_each (typed, the
//     contiguous fast path), through for_entities + data.get (by id, the way
//     systems were written before for_each), and a raw SoA loop over two
//     vectors. Target for for_each: <= 1.0x the raw loop.
//   * Create1M: create 1M entities with two components (in one step,
//     refresh included) vs push_back into raw vectors.
//   * Kill1M: kill 1M entities (one step: mark, unsubscribe from a system,
//     destroy components, reclaim ids) vs raw swap-and-pop removal with a
//     free list.
//   * Refresh100kInto8Systems: the refresh that matches 100k new entities
//     (random component subsets) into 8 systems, timed alone from the trace's
//     refresh span (manual time).
//
// Run: bazel run --config=bench //context:context_benchmark
#include <cstddef>
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "context/context.h"

namespace {

using strata::entity_id;

constexpr std::size_t kEntities = 1'000'000;
constexpr std::size_t kLimit = 1 << 20;
constexpr float kDt = 1.0f / 60;

struct position {
  float x = 0, y = 0;
};
struct velocity {
  float x = 0, y = 0;
};
struct health {
  int hp = 100;
};
struct flag {};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto health = strata::tag<::health>;
inline constexpr auto flag = strata::tag<::flag>;
}  // namespace ct

struct movement {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      auto& p = data.get(ct::position, e);
      const auto& v = data.read(ct::velocity, e);
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
  }
};
struct typed_movement {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
  }
};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity),
    strata::component_signature::make(ct::health),
    strata::component_signature::make(ct::flag).sparse());
constexpr auto movement_only = strata::system_signatures(
    strata::system_signature::make(strata::tag<movement>)
        .read(ct::velocity)
        .write(ct::position));
constexpr auto typed_movement_only = strata::system_signatures(
    strata::system_signature::make(strata::tag<typed_movement>)
        .read(ct::velocity)
        .write(ct::position));
constexpr auto movement_settings = strata::settings()
                                       .dynamic_entity_limit()
                                       .component_signatures(components)
                                       .scheduler(strata::scheduler::sequential)
                                       .threads(1);
constexpr auto base = strata::settings()
                          .fixed_entity_limit<kLimit>()
                          .component_signatures(components)
                          .scheduler(strata::scheduler::sequential)
                          .threads(1);

template <typename Ctx>
void create_movers(Ctx& ctx, std::size_t n) {
  ctx.step([n](auto& proxy) {
    for (std::size_t i = 0; i < n; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, 0.f);
      proxy.add_component(ct::velocity, e, 1.f, static_cast<float>(i % 7));
    }
  });
}

// ---- Movement. -------------------------------------------------------------

void movement_sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 14, 1 << 18, 1 << 20, 1 << 21}) b->Arg(n);
}

template <typename Systems>
void movement_through_context(benchmark::State& state, Systems systems) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto ctx = strata::make_context(movement_settings.system_signatures(systems));
  create_movers(ctx, n);
  auto run = [](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };
  for (auto _ : state) ctx.step(run);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_MovementForEach(benchmark::State& state) {
  movement_through_context(state, typed_movement_only);
}
BENCHMARK(BM_MovementForEach)
    ->Name("Movement/for_each")
    ->Apply(movement_sizes)
    ->Unit(benchmark::kMicrosecond);

void BM_MovementContext(benchmark::State& state) {
  movement_through_context(state, movement_only);
}
BENCHMARK(BM_MovementContext)
    ->Name("Movement/for_entities_get")
    ->Apply(movement_sizes)
    ->Unit(benchmark::kMicrosecond);

void BM_MovementRaw(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<position> positions(n);
  std::vector<velocity> velocities(n);
  for (std::size_t i = 0; i < n; ++i)
    velocities[i] = {1.f, static_cast<float>(i % 7)};
  for (auto _ : state) {
    position* p = positions.data();
    const velocity* v = velocities.data();
    for (std::size_t i = 0; i < n; ++i) {
      p[i].x += v[i].x * kDt;
      p[i].y += v[i].y * kDt;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_MovementRaw)
    ->Name("Movement/raw_soa_loop")
    ->Apply(movement_sizes)
    ->Unit(benchmark::kMicrosecond);

// ---- Create. ---------------------------------------------------------------

void BM_CreateContext(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    auto ctx = strata::make_context(base.system_signatures(movement_only));
    state.ResumeTiming();
    create_movers(ctx, kEntities);
    state.PauseTiming();
    benchmark::DoNotOptimize(ctx.entity_count());
    {
      auto gone = std::move(ctx);  // destroyed while paused
    }
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_CreateContext)
    ->Name("Create1M/context_two_components")
    ->Unit(benchmark::kMillisecond);

void BM_CreateRaw(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<std::uint32_t> ids;
    std::vector<position> positions;
    std::vector<velocity> velocities;
    ids.reserve(kEntities);
    positions.reserve(kEntities);
    velocities.reserve(kEntities);
    state.ResumeTiming();
    for (std::size_t i = 0; i < kEntities; ++i) {
      ids.push_back(static_cast<std::uint32_t>(i));
      positions.push_back({0.f, 0.f});
      velocities.push_back({1.f, static_cast<float>(i % 7)});
    }
    benchmark::DoNotOptimize(ids.data());
    benchmark::DoNotOptimize(positions.data());
    benchmark::DoNotOptimize(velocities.data());
    state.PauseTiming();
    {
      auto a = std::move(ids);
      auto b = std::move(positions);
      auto c = std::move(velocities);
    }
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_CreateRaw)
    ->Name("Create1M/raw_vectors_push_back_reserved")
    ->Unit(benchmark::kMillisecond);

// ---- Kill. -----------------------------------------------------------------

void BM_KillContext(benchmark::State& state) {
  auto ctx = strata::make_context(base.system_signatures(movement_only));
  std::vector<entity_id> ids;
  ids.reserve(kEntities);
  for (auto _ : state) {
    state.PauseTiming();
    ids.clear();
    ctx.step([&](auto& proxy) {
      for (std::size_t i = 0; i < kEntities; ++i) {
        const entity_id e = proxy.create_entity();
        proxy.add_component(ct::position, e);
        proxy.add_component(ct::velocity, e);
        ids.push_back(e);
      }
    });
    state.ResumeTiming();
    ctx.step([&](auto& proxy) {
      for (entity_id e : ids) proxy.kill_entity(e);
    });
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_KillContext)
    ->Name("Kill1M/context_kill_and_refresh")
    ->Unit(benchmark::kMillisecond);

void BM_KillRaw(benchmark::State& state) {
  std::vector<std::uint32_t> dense, sparse, free_list;
  std::vector<std::uint32_t> versions(kEntities);
  std::vector<position> positions;
  std::vector<velocity> velocities;
  free_list.reserve(kEntities);
  for (auto _ : state) {
    state.PauseTiming();
    dense.resize(kEntities);
    sparse.resize(kEntities);
    positions.assign(kEntities, position{});
    velocities.assign(kEntities, velocity{});
    for (std::uint32_t i = 0; i < kEntities; ++i) dense[i] = sparse[i] = i;
    free_list.clear();
    state.ResumeTiming();
    for (std::uint32_t i = 0; i < kEntities; ++i) {
      // Swap-and-pop the entity out of the dense arrays, recycle its id.
      const std::uint32_t at = sparse[i];
      const std::uint32_t last = dense.back();
      dense[at] = last;
      sparse[last] = at;
      positions[at] = positions.back();
      velocities[at] = velocities.back();
      dense.pop_back();
      positions.pop_back();
      velocities.pop_back();
      ++versions[i];
      free_list.push_back(i);
    }
    benchmark::DoNotOptimize(free_list.data());
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_KillRaw)
    ->Name("Kill1M/raw_swap_pop_free_list")
    ->Unit(benchmark::kMillisecond);

// ---- Refresh matching into 8 systems. --------------------------------------

template <int K>
struct matcher {
  template <typename Data>
  void process(Data&) {}
};
template <int K>
constexpr auto m = strata::tag<matcher<K>>;
constexpr auto eight_systems = strata::system_signatures(
    strata::system_signature::make(m<0>).read(ct::position),
    strata::system_signature::make(m<1>).read(ct::position, ct::velocity),
    strata::system_signature::make(m<2>).read(ct::velocity),
    strata::system_signature::make(m<3>).read(ct::health),
    strata::system_signature::make(m<4>).read(ct::position, ct::health),
    strata::system_signature::make(m<5>).read(ct::flag),
    strata::system_signature::make(m<6>).read(ct::position, ct::velocity,
                                              ct::health, ct::flag),
    strata::system_signature::make(m<7>));

void BM_Refresh100kInto8Systems(benchmark::State& state) {
  constexpr std::size_t kNew = 100'000;
  auto ctx = strata::make_context(strata::settings()
                                      .fixed_entity_limit<kLimit>()
                                      .component_signatures(components)
                                      .system_signatures(eight_systems)
                                      .refresh_parallelism(state.range(0) > 1)
                                      .threads(state.range(0))
                                      .trace());
  std::vector<entity_id> ids;
  ids.reserve(kNew);
  std::uint64_t rng = 7;
  for (auto _ : state) {
    ids.clear();
    ctx.step([&](auto& proxy) {
      for (std::size_t i = 0; i < kNew; ++i) {
        const entity_id e = proxy.create_entity();
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        const unsigned bits = static_cast<unsigned>(rng >> 60);
        if (bits & 1) proxy.add_component(ct::position, e);
        if (bits & 2) proxy.add_component(ct::velocity, e);
        if (bits & 4) proxy.add_component(ct::health, e);
        if (bits & 8) proxy.add_component(ct::flag, e);
        ids.push_back(e);
      }
    });
    const strata::trace_event& refresh = ctx.trace().events().back();
    state.SetIterationTime(
        static_cast<double>(refresh.end_ns - refresh.start_ns) * 1e-9);
    ctx.step([&](auto& proxy) {
      for (entity_id e : ids) proxy.kill_entity(e);
    });
    ctx.trace().clear();
  }
  state.SetItemsProcessed(state.iterations() * kNew);
}
BENCHMARK(BM_Refresh100kInto8Systems)
    ->Name("Refresh100kInto8Systems/threads")
    ->Arg(1)
    ->Arg(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
