// The update scenarios of ecs_benchmark: SystemsUpdate (movement + data),
// ComplexSystemsUpdate (seven systems, see scenario.h) and their "Mixed"
// variants, where some entities lack some components. Each at 1 .. 2M
// entities, for:
//   baseline       hand-written SoA std::vector loops (index lists when
//                  mixed);
//   baseline_mt    the same kernels split over every hardware thread by
//                  hand: std::threads meeting at a std::barrier (scenario.h);
//   strata_1t      Strata, sequential scheduler, one thread, systems written
//                  with typed data.for_each;
//   strata_1t_ids  the same with for_entities + data.get (by id): the way
//                  systems were written before for_each;
//   strata_mt      Strata, atomic-counter scheduler + inner parallelism,
//                  every hardware thread (threads(0)), for_each.
// And oversubscription: BM_ComplexSystemsUpdate/strata_mt_threads/262144/T,
// strata_mt with T = 2, 8, 16 threads (more than a small machine's cores);
// steps a frame apart: BM_Spaced{Systems,ComplexSystems}Update/strata_1t|mt
// at 1k, 16k, 256k, each update after an untimed 2 ms sleep.
// Set-up (creating the entities) is outside the timed region; a timed run
// is one update of every system (for Strata: one ctx.step() with
// execute_systems, including its empty refresh). Wall-clock time.
//
// Names: BM_<Scenario>/<implementation>/<entities>/real_time.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

#include "benchmark/benchmark.h"
#include "benchmarks/scenario.h"

namespace bench {
namespace {

enum class scenario { systems, complex };

constexpr mix mix_of(scenario s, bool mixed) {
  if (s == scenario::systems) return mixed ? mix::mixed : mix::full;
  return mixed ? mix::complex_mixed : mix::complex;
}

template <scenario S, bool Mixed>
void baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& world = cached_world<baseline_world>(n, mix_of(S, Mixed), 0, [&] {
    return new baseline_world(n, mix_of(S, Mixed));
  });
  for (auto _ : state) {
    if constexpr (S == scenario::systems) {
      world.update_systems();
    } else {
      world.update_complex();
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

template <scenario S, bool Mixed>
void baseline_mt(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::size_t threads =
      std::max<std::size_t>(1, std::thread::hardware_concurrency());
  auto& world = cached_world<baseline_mt_world>(n, mix_of(S, Mixed), 0, [&] {
    return new baseline_mt_world(n, mix_of(S, Mixed), threads);
  });
  for (auto _ : state) {
    if constexpr (S == scenario::systems) {
      world.update_systems();
    } else {
      world.update_complex();
    }
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = static_cast<double>(world.thread_count());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The Strata world of a scenario with n entities, made once and cached.
template <scenario S, bool Mixed, bool Threaded, access A = access::typed>
auto& cached_strata_world(std::size_t n) {
  constexpr auto systems = [] {
    if constexpr (S == scenario::systems) {
      return kUpdateSystems<A>;
    } else {
      return kComplexSystems<A>;
    }
  }();
  constexpr auto settings = [&] {
    if constexpr (Threaded) {
      return settings_mt(systems);
    } else {
      return settings_1t(systems);
    }
  }();
  using world_type = strata_world<std::remove_const_t<decltype(settings)>>;
  return cached_world<world_type>(n, mix_of(S, Mixed), 0, [&] {
    return new world_type(settings, n, mix_of(S, Mixed));
  });
}

template <scenario S, bool Mixed, bool Threaded, access A = access::typed>
void strata_update(benchmark::State& state) {
  auto& world = cached_strata_world<S, Mixed, Threaded, A>(
      static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    world.update();
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = static_cast<double>(world.ctx.thread_count());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// strata_mt with an explicit thread count (state.range(1)), which may exceed
// the cores: oversubscribed workers must not make a step much slower.
void strata_mt_threads(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<std::size_t>(state.range(1));
  const auto settings = strata::settings()  // settings_mt, but threads(T)
                            .dynamic_entity_limit(0)
                            .allow_inner_parallelism()
                            .component_signatures(kComponents)
                            .system_signatures(kComplexSystems<access::typed>)
                            .scheduler(strata::scheduler::atomic_counter)
                            .threads(threads);
  using world_type = strata_world<std::remove_const_t<decltype(settings)>>;
  auto& world = cached_world<world_type>(
      n, mix::complex, static_cast<int>(threads),
      [&] { return new world_type(settings, n, mix::complex); });
  for (auto _ : state) {
    world.update();
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = static_cast<double>(world.ctx.thread_count());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(strata_mt_threads)
    ->Name("BM_ComplexSystemsUpdate/strata_mt_threads")
    ->ArgsProduct({{1 << 18}, {2, 8, 16}})
    ->UseRealTime();

// Steps a game's frame apart: each update follows a 2 ms sleep (not
// timed), so the workers have parked and the caches cooled, as between the
// frames of a game; back-to-back updates (above) keep the workers spinning.
// strata_1t beside strata_mt: threads must not make these slower either.
// A fixed iteration count: Google Benchmark's minimum time counts only the
// timed part, and would sleep thousands of times.
constexpr auto kFrameGap = std::chrono::milliseconds(2);
constexpr int kSpacedWarmUp = 100;

template <scenario S, bool Threaded>
void strata_spaced(benchmark::State& state) {
  auto& world = cached_strata_world<S, /*Mixed=*/false, Threaded>(
      static_cast<std::size_t>(state.range(0)));
  // Untimed, the same way: the threaded scheduler's probes (every 32nd
  // call) learn how threads fare here before the timed updates.
  for (int i = 0; i < kSpacedWarmUp; ++i) {
    std::this_thread::sleep_for(kFrameGap);
    world.update();
  }
  for (auto _ : state) {
    state.PauseTiming();
    std::this_thread::sleep_for(kFrameGap);
    state.ResumeTiming();
    world.update();
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = static_cast<double>(world.ctx.thread_count());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
void spaced_counts(benchmark::internal::Benchmark* b) {
  b->Arg(1 << 10)->Arg(1 << 14)->Arg(1 << 18)->Iterations(300)->UseRealTime();
}
BENCHMARK(strata_spaced<scenario::systems, false>)
    ->Name("BM_SpacedSystemsUpdate/strata_1t")
    ->Apply(spaced_counts);
BENCHMARK(strata_spaced<scenario::systems, true>)
    ->Name("BM_SpacedSystemsUpdate/strata_mt")
    ->Apply(spaced_counts);
BENCHMARK(strata_spaced<scenario::complex, false>)
    ->Name("BM_SpacedComplexSystemsUpdate/strata_1t")
    ->Apply(spaced_counts);
BENCHMARK(strata_spaced<scenario::complex, true>)
    ->Name("BM_SpacedComplexSystemsUpdate/strata_mt")
    ->Apply(spaced_counts);

#define STRATA_UPDATE_BENCHMARKS(NAME, S, Mixed)           \
  BENCHMARK(baseline<S, Mixed>)                            \
      ->Name(NAME "/baseline")                             \
      ->Apply(entity_counts)                               \
      ->UseRealTime();                                     \
  BENCHMARK(baseline_mt<S, Mixed>)                         \
      ->Name(NAME "/baseline_mt")                          \
      ->Apply(entity_counts)                               \
      ->UseRealTime();                                     \
  BENCHMARK(strata_update<S, Mixed, false>)                \
      ->Name(NAME "/strata_1t")                            \
      ->Apply(entity_counts)                               \
      ->UseRealTime();                                     \
  BENCHMARK(strata_update<S, Mixed, false, access::by_id>) \
      ->Name(NAME "/strata_1t_ids")                        \
      ->Apply(entity_counts)                               \
      ->UseRealTime();                                     \
  BENCHMARK(strata_update<S, Mixed, true>)                 \
      ->Name(NAME "/strata_mt")                            \
      ->Apply(entity_counts)                               \
      ->UseRealTime()

STRATA_UPDATE_BENCHMARKS("BM_SystemsUpdate", scenario::systems, false);
STRATA_UPDATE_BENCHMARKS("BM_SystemsUpdateMixed", scenario::systems, true);
STRATA_UPDATE_BENCHMARKS("BM_ComplexSystemsUpdate", scenario::complex, false);
STRATA_UPDATE_BENCHMARKS("BM_ComplexSystemsUpdateMixed", scenario::complex,
                         true);

}  // namespace
}  // namespace bench
