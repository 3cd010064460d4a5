// Scheduler benchmarks, each next to the hand-written code that
// does the same work:
//   (a) overhead: one step running 16 empty systems shaped as a
//       chain, as diamond layers (4 wide, each layer depending on the whole
//       previous one) or all independent; atomic_counter with 1 and 2
//       threads, and sequential; vs calling as many empty functions in a
//       plain loop (through function pointers, so they are not optimized
//       away). Reported: time per step (the Time column, wall clock).
//   (a') idle CPU: process CPU time while the caller sleeps 100 ms between
//       steps, 1 and 2 threads.
//   (b) inner parallelism: the movement system of //benchmarks:scenario
//       alone over 1M entities, 1 vs 2 threads (split_evenly_per_core), vs
//       the same kernel in a raw single-threaded SoA loop.
//   (c) the scenario's ComplexSystemsUpdate (seven systems) over 1M
//       entities: sequential vs atomic_counter on 1 and 2 threads, vs the
//       scenario's hand-written loops.
//
// Run: bazel run --config=bench //scheduler:scheduler_benchmark
// (This benchmark depends on //context, above //scheduler: accepted for a
// benchmark binary, never for a library.)
#include <time.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "benchmarks/scenario.h"
#include "context/context.h"

namespace {

// ---- (a) Scheduler overhead. -----------------------------------------------

enum class shape { chain, layers, independent };

template <shape Shape, std::size_t N, std::size_t I>
struct empty_system {
  template <typename Data>
  void process(Data&) const {}
};

template <shape Shape, std::size_t N, std::size_t I>
constexpr auto empty_signature() {
  constexpr auto self = strata::tag<empty_system<Shape, N, I>>;
  if constexpr (Shape == shape::chain && I > 0) {
    return strata::system_signature::make(self).dependencies(
        strata::tag<empty_system<Shape, N, I - 1>>);
  } else if constexpr (Shape == shape::layers && I >= 4) {
    constexpr std::size_t prev = (I / 4 - 1) * 4;
    return strata::system_signature::make(self).dependencies(
        strata::tag<empty_system<Shape, N, prev>>,
        strata::tag<empty_system<Shape, N, prev + 1>>,
        strata::tag<empty_system<Shape, N, prev + 2>>,
        strata::tag<empty_system<Shape, N, prev + 3>>);
  } else {
    return strata::system_signature::make(self);
  }
}

template <shape Shape, std::size_t N>
constexpr auto empty_systems() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return strata::system_signatures(empty_signature<Shape, N, I>()...);
  }
  (std::make_index_sequence<N>{});
}

template <shape Shape, std::size_t N, typename Scheduler,
          strata::hand_off Mode = strata::hand_off::automatic>
void BM_EmptySystems(benchmark::State& state) {
  static constexpr auto systems = empty_systems<Shape, N>();
  auto ctx = strata::make_context(strata::settings()
                                      .system_signatures(systems)
                                      .scheduler(Scheduler{})
                                      .hand_off(Mode)
                                      .threads(state.range(0)));
  auto run = [](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };
  for (auto _ : state) ctx.step(run);
}

[[gnu::noinline]] void empty_function(int* counter) {
  benchmark::DoNotOptimize(counter);
}

template <std::size_t N>
void BM_EmptyFunctionsLoop(benchmark::State& state) {
  std::array<void (*)(int*), N> functions;
  functions.fill(&empty_function);
  benchmark::DoNotOptimize(functions.data());
  int counter = 0;
  for (auto _ : state) {
    for (auto f : functions) f(&counter);
    benchmark::ClobberMemory();
  }
}

using strata::scheduler::atomic_counter_t;
using strata::scheduler::sequential_t;

// atomic_counter as configured by default (hand_off::automatic: a step of
// empty systems is cheap, so it runs inline) and forced to hand systems to
// the workers (hand_off::always: the cost of a real hand-off).
#define STRATA_OVERHEAD(SHAPE, N)                                        \
  BENCHMARK(BM_EmptySystems<shape::SHAPE, N, atomic_counter_t>)          \
      ->Name("Overhead/" #SHAPE "/" #N "/atomic_counter/threads")        \
      ->Arg(1)                                                           \
      ->Arg(2);                                                          \
  BENCHMARK(BM_EmptySystems<shape::SHAPE, N, atomic_counter_t,           \
                            strata::hand_off::always>)                   \
      ->Name("Overhead/" #SHAPE "/" #N "/atomic_counter_always/threads") \
      ->Arg(2);                                                          \
  BENCHMARK(BM_EmptySystems<shape::SHAPE, N, sequential_t>)              \
      ->Name("Overhead/" #SHAPE "/" #N "/sequential/threads")            \
      ->Arg(1)

STRATA_OVERHEAD(chain, 16);
STRATA_OVERHEAD(layers, 16);
STRATA_OVERHEAD(independent, 16);
BENCHMARK(BM_EmptyFunctionsLoop<16>)->Name("Overhead/plain_loop/16");

// ---- (a') Idle CPU between steps. ------------------------------------------
// A game steps, then waits for the next frame. After a step that handed
// systems to the workers (hand_off::always, so the workers did wake up),
// the caller sleeps 100 ms; the process CPU time burnt during that sleep is
// what idle workers cost (their bounded spin, then parking). Counter
// idle_cpu_ms: CPU milliseconds per 100 ms sleep; threads:1 (no workers) is
// the baseline.

double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 +
         static_cast<double>(t.tv_nsec) / 1e6;
}

void BM_IdleBetweenSteps(benchmark::State& state) {
  static constexpr auto systems = empty_systems<shape::independent, 16>();
  auto ctx = strata::make_context(strata::settings()
                                      .system_signatures(systems)
                                      .scheduler(atomic_counter_t{})
                                      .hand_off(strata::hand_off::always)
                                      .threads(state.range(0)));
  auto run = [](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };
  double idle_cpu_ms = 0;
  for (auto _ : state) {
    ctx.step(run);
    const double before = process_cpu_ms();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    idle_cpu_ms += process_cpu_ms() - before;
  }
  state.counters["idle_cpu_ms"] =
      idle_cpu_ms / static_cast<double>(state.iterations());
}
BENCHMARK(BM_IdleBetweenSteps)
    ->Name("Idle/sleep_100ms/threads")
    ->Arg(1)
    ->Arg(2)
    ->Iterations(10)
    ->UseRealTime();

// ---- (b) and (c): the ecs_benchmark scenario of //benchmarks:scenario. ------
//
// The components, kernels, system signatures and entity mixes are the ones
// //benchmarks:update_benchmark publishes, so a number here compares with
// the same scenario name there; this binary adds the scheduler axis
// (sequential vs atomic_counter at a fixed thread count).

constexpr std::size_t kEntities = 1 << 20;

// The scenario's components and `systems` on `scheduler` with `threads`
// threads, inner parallelism allowed.
template <typename Systems, typename Scheduler>
auto scenario_settings(Systems systems, Scheduler scheduler,
                       std::int64_t threads) {
  return strata::settings()
      .dynamic_entity_limit(0)
      .allow_inner_parallelism()
      .component_signatures(bench::kComponents)
      .system_signatures(systems)
      .scheduler(scheduler)
      .threads(static_cast<std::size_t>(threads));
}

// ---- (b) Inner parallelism: movement alone. -------------------------------

constexpr auto kMovementAlone = strata::system_signatures(
    strata::system_signature::make(bench::st::movement<bench::access::typed>)
        .read(bench::ct::velocity)
        .write(bench::ct::position)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()));

void BM_Movement(benchmark::State& state) {
  bench::strata_world world(
      scenario_settings(kMovementAlone, strata::scheduler::atomic_counter,
                        state.range(0)),
      kEntities, bench::mix::pos_vel);
  for (auto _ : state) world.update();
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_Movement)
    ->Name("Movement1M/atomic_counter/threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The baseline: the same kernel over plain SoA vectors, one thread.
void BM_MovementRawSoA(benchmark::State& state) {
  std::vector<bench::position> positions(kEntities);
  std::vector<bench::velocity> velocities(kEntities);
  for (std::size_t i = 0; i < kEntities; ++i) {
    const bench::entity_init init = bench::make_init(i, bench::mix::pos_vel);
    positions[i] = init.pos;
    velocities[i] = *init.vel;
  }
  for (auto _ : state) {
    bench::position* p = positions.data();
    const bench::velocity* v = velocities.data();
    for (std::size_t i = 0; i < kEntities; ++i) {
      bench::update_movement(p[i], v[i], bench::kDt);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_MovementRawSoA)
    ->Name("Movement1M/raw_soa_loop")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- (c) ComplexSystemsUpdate (seven systems) per scheduler. ---------------

template <typename Scheduler>
void BM_ComplexSystemsUpdate(benchmark::State& state) {
  bench::strata_world world(
      scenario_settings(bench::kComplexSystems<>, Scheduler{}, state.range(0)),
      kEntities, bench::mix::complex);
  for (auto _ : state) world.update();
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_ComplexSystemsUpdate<sequential_t>)
    ->Name("ComplexSystemsUpdate1M/sequential/threads")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ComplexSystemsUpdate<atomic_counter_t>)
    ->Name("ComplexSystemsUpdate1M/atomic_counter/threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The baseline: the scenario's hand-written loops, one thread.
void BM_ComplexSystemsUpdateBaseline(benchmark::State& state) {
  bench::baseline_world world(kEntities, bench::mix::complex);
  for (auto _ : state) world.update_complex();
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_ComplexSystemsUpdateBaseline)
    ->Name("ComplexSystemsUpdate1M/hand_written_loop")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
