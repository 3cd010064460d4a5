// Scheduler benchmarks (issue 9), each next to the hand-written code that
// does the same work:
//   (a) overhead: one step running 16 empty systems shaped as a
//       chain, as diamond layers (4 wide, each layer depending on the whole
//       previous one) or all independent; atomic_counter with 1 and 2
//       threads, and sequential; vs calling as many empty functions in a
//       plain loop (through function pointers, so they are not optimized
//       away). Reported: time per step (the Time column, wall clock).
//   (a') idle CPU: process CPU time while the caller sleeps 100 ms between
//       steps, 1 and 2 threads.
//   (b) inner parallelism: movement (position += velocity * dt, float x, y
//       in an SoA contiguous buffer) over 1M entities, 1 vs 2 threads
//       (split_evenly_per_core), vs a raw single-threaded SoA loop.
//   (c) a 7-system frame in the style of ecs_benchmark (movement, data,
//       more-complex, health, damage, sprite, render into a 320x240 frame
//       buffer) over 1M entities: sequential vs atomic_counter on 2 threads.
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
#include "context/context.h"

namespace {

using strata::entity_id;

// ---- (a) Scheduler overhead. -----------------------------------------------

enum class shape { chain, layers, independent };

template <shape Shape, std::size_t N, std::size_t I>
struct empty_system {
  template <typename Data>
  void process(Data&) {}
};

template <shape Shape, std::size_t N, std::size_t I>
constexpr auto empty_signature() {
  constexpr auto self = strata::tag<empty_system<Shape, N, I>>;
  if constexpr (Shape == shape::chain && I > 0) {
    return strata::ss::make(self).dependencies(
        strata::tag<empty_system<Shape, N, I - 1>>);
  } else if constexpr (Shape == shape::layers && I >= 4) {
    constexpr std::size_t prev = (I / 4 - 1) * 4;
    return strata::ss::make(self).dependencies(
        strata::tag<empty_system<Shape, N, prev>>,
        strata::tag<empty_system<Shape, N, prev + 1>>,
        strata::tag<empty_system<Shape, N, prev + 2>>,
        strata::tag<empty_system<Shape, N, prev + 3>>);
  } else {
    return strata::ss::make(self);
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
    proxy.execute_systems()(strata::sea::all().for_subtasks(
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
    proxy.execute_systems()(strata::sea::all().for_subtasks(
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

// ---- Components shared by (b) and (c). --------------------------------------

constexpr std::size_t kEntities = 1'000'000;
constexpr std::size_t kLimit = 1 << 20;
constexpr float kDt = 1.0f / 60;

struct position {
  float x = 0, y = 0;
};
struct velocity {
  float x = 0, y = 0;
};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
}  // namespace ct

struct movement {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      auto& p = data.get(ct::position, e);
      const auto& v = data.get(ct::velocity, e);
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
  }
};

// ---- (b) Inner parallelism.
// --------------------------------------------------

constexpr auto movement_components =
    strata::component_signatures(strata::cs::make(ct::position, ct::velocity));
constexpr auto movement_systems = strata::system_signatures(
    strata::ss::make(strata::tag<movement>)
        .read(ct::velocity)
        .write(ct::position)
        .parallelism(strata::ips::split_evenly_per_core()));

void BM_Movement(benchmark::State& state) {
  auto ctx =
      strata::make_context(strata::settings()
                               .fixed_entity_limit<kLimit>()
                               .allow_inner_parallelism()
                               .component_signatures(movement_components)
                               .system_signatures(movement_systems)
                               .scheduler(strata::scheduler::atomic_counter)
                               .threads(state.range(0)));
  ctx.step([](auto& proxy) {
    for (std::size_t i = 0; i < kEntities; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, 0.f, 0.f);
      proxy.add_component(ct::velocity, e, 1.f, static_cast<float>(i % 7));
    }
  });
  auto run = [](auto& proxy) {
    proxy.execute_systems()(strata::sea::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };
  for (auto _ : state) ctx.step(run);
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_Movement)
    ->Name("Movement1M/context/threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_MovementRawSoA(benchmark::State& state) {
  std::vector<position> positions(kEntities);
  std::vector<velocity> velocities(kEntities);
  for (std::size_t i = 0; i < kEntities; ++i)
    velocities[i] = {1.f, static_cast<float>(i % 7)};
  for (auto _ : state) {
    position* p = positions.data();
    const velocity* v = velocities.data();
    for (std::size_t i = 0; i < kEntities; ++i) {
      p[i].x += v[i].x * kDt;
      p[i].y += v[i].y * kDt;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_MovementRawSoA)
    ->Name("Movement1M/raw_soa_loop")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- (c) The 7-system frame. ------------------------------------------------

struct data_component {
  int thingy = 0;
  double dingy = 0;
  bool mingy = false;
  std::uint32_t seed = 1;
};
struct health {
  int hp = 100, max_hp = 100;
  int status = 0;  // 0 alive, 1 dead, 2 spawn
};
struct damage {
  int atk = 10, def = 5;
};
struct sprite {
  char character = ' ';
};
struct player {
  int type = 0;  // 0 npc, 1 hero, 2 monster
};
namespace ct {
inline constexpr auto data = strata::tag<::data_component>;
inline constexpr auto health = strata::tag<::health>;
inline constexpr auto damage = strata::tag<::damage>;
inline constexpr auto sprite = strata::tag<::sprite>;
inline constexpr auto player = strata::tag<::player>;
}  // namespace ct

struct data_system {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      auto& d = data.get(ct::data, e);
      d.seed = d.seed * 1664525u + 1013904223u;
      d.thingy = (d.thingy + 1) % 1'000'000;
      d.dingy += 0.0001 * kDt;
      d.mingy = !d.mingy;
    });
  }
};
struct more_complex_system {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      const auto& p = data.get(ct::position, e);
      const auto& v = data.get(ct::velocity, e);
      auto& d = data.get(ct::data, e);
      if ((d.thingy % 10) == 0) {
        d.dingy += p.x > v.x ? 0.5 : -0.5;
      }
    });
  }
};
struct health_system {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      auto& h = data.get(ct::health, e);
      if (h.hp <= 0 && h.status != 1) {
        h.hp = 0;
        h.status = 1;
      } else if (h.status == 1 && h.hp == 0) {
        h.hp = h.max_hp;
        h.status = 2;
      } else if (h.hp >= h.max_hp && h.status != 0) {
        h.hp = h.max_hp;
        h.status = 0;
      }
    });
  }
};
struct damage_system {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      auto& h = data.get(ct::health, e);
      const auto& d = data.get(ct::damage, e);
      const int total = d.atk - d.def;
      if (h.hp > 0 && total > 0) h.hp = std::max(h.hp - total, 0);
    });
  }
};
struct sprite_system {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      auto& s = data.get(ct::sprite, e);
      const auto& p = data.get(ct::player, e);
      const auto& h = data.get(ct::health, e);
      if (h.status == 1) {
        s.character = '|';
      } else if (h.status == 2) {
        s.character = '+';
      } else {
        s.character = p.type == 1 ? '@' : p.type == 2 ? 'k' : 'n';
      }
    });
  }
};
// One subtask (parallelism none): the frame buffer is the system's own.
struct render_system {
  static constexpr int kWidth = 320, kHeight = 240;
  std::vector<char> frame = std::vector<char>(kWidth * kHeight, ' ');
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      const auto& p = data.get(ct::position, e);
      const auto& s = data.get(ct::sprite, e);
      const int x = static_cast<int>(p.x) % kWidth;
      const int y = static_cast<int>(p.y) % kHeight;
      if (x >= 0 && y >= 0)
        frame[static_cast<std::size_t>(y * kWidth + x)] = s.character;
    });
  }
};

namespace st {
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto data = strata::tag<data_system>;
inline constexpr auto more_complex = strata::tag<more_complex_system>;
inline constexpr auto health = strata::tag<health_system>;
inline constexpr auto damage = strata::tag<damage_system>;
inline constexpr auto sprite = strata::tag<sprite_system>;
inline constexpr auto render = strata::tag<render_system>;
}  // namespace st

constexpr auto frame_components = strata::component_signatures(
    strata::cs::make(ct::position, ct::velocity), strata::cs::make(ct::data),
    strata::cs::make(ct::health), strata::cs::make(ct::damage),
    strata::cs::make(ct::sprite), strata::cs::make(ct::player));
constexpr auto per_core = strata::ips::split_evenly_per_core();
constexpr auto frame_systems = strata::system_signatures(
    strata::ss::make(st::movement)
        .read(ct::velocity)
        .write(ct::position)
        .parallelism(per_core),
    strata::ss::make(st::data).write(ct::data).parallelism(per_core),
    strata::ss::make(st::more_complex)
        .read(ct::position, ct::velocity)
        .write(ct::data)
        .dependencies(st::movement, st::data)
        .parallelism(per_core),
    strata::ss::make(st::health).write(ct::health).parallelism(per_core),
    strata::ss::make(st::damage)
        .read(ct::damage)
        .write(ct::health)
        .dependencies(st::health)
        .parallelism(per_core),
    strata::ss::make(st::sprite)
        .read(ct::player, ct::health)
        .write(ct::sprite)
        .dependencies(st::damage)
        .parallelism(per_core),
    // One frame buffer, a member of the system: never split.
    strata::ss::make(st::render)
        .read(ct::position, ct::sprite)
        .dependencies(st::movement, st::sprite)
        .parallelism(strata::ips::none()));

template <typename Scheduler>
void BM_Frame(benchmark::State& state) {
  auto ctx = strata::make_context(strata::settings()
                                      .fixed_entity_limit<kLimit>()
                                      .allow_inner_parallelism()
                                      .component_signatures(frame_components)
                                      .system_signatures(frame_systems)
                                      .scheduler(Scheduler{})
                                      .threads(state.range(0)));
  ctx.step([](auto& proxy) {
    for (std::size_t i = 0; i < kEntities; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, static_cast<float>(i % 320),
                          static_cast<float>(i % 240));
      proxy.add_component(ct::velocity, e, 1.f, 1.f);
      proxy.add_component(ct::data, e);
      if (i % 2 == 0) {  // half are characters (ecs_benchmark's mix)
        proxy.add_component(ct::health, e);
        proxy.add_component(ct::damage, e);
        proxy.add_component(ct::sprite, e);
        proxy.add_component(ct::player, e, static_cast<int>(i % 3));
      }
    }
  });
  auto run = [](auto& proxy) {
    proxy.execute_systems()(strata::sea::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };
  for (auto _ : state) ctx.step(run);
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_Frame<sequential_t>)
    ->Name("Frame7Systems1M/sequential/threads")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Frame<atomic_counter_t>)
    ->Name("Frame7Systems1M/atomic_counter/threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
