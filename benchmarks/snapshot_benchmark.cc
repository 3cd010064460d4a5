// Snapshots, save/load and the state hash on the ComplexSystemsUpdate world
// (scenario.h, mix::complex: every entity has all seven components), at
// 16k, 256k and 1M entities. Rates are bytes of component data per second
// (the seven components' sizes times the entity count), so the rows compare
// directly:
//   Snapshot/strata, Restore/strata   ctx.snapshot_into / ctx.restore
//   Snapshot/memcpy                   memcpy of the same component bytes
//                                     (seven arrays, nothing else)
//   Snapshot/vector_copy              a hand-written copy of the same
//                                     std::vector world (baseline_world's
//                                     arrays and masks, assigned)
//   Save/strata, Load/strata          ctx.save / ctx.load with a file
//                                     (page cache)
//   StateHash/strata                  ctx.state_hash(); also seconds per
//                                     entity (seconds_per_entity)
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "benchmarks/scenario.h"
#include "context/save_load.h"
#include "context/state_hash.h"

namespace {

constexpr std::size_t kComponentBytes =
    sizeof(bench::position) + sizeof(bench::velocity) + sizeof(bench::data) +
    sizeof(bench::player) + sizeof(bench::health) + sizeof(bench::damage) +
    sizeof(bench::sprite);

constexpr auto kSettings = bench::settings_1t(bench::kComplexSystems<>);
using world_type = bench::strata_world<decltype(kSettings)>;

void set_rate(benchmark::State& state, std::size_t n) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(n * kComponentBytes));
}

void BM_Snapshot_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  world_type world(kSettings, n, bench::mix::complex);
  auto saved = world.ctx.snapshot();
  for (auto _ : state) {
    world.ctx.snapshot_into(saved);
    benchmark::ClobberMemory();
  }
  set_rate(state, n);
}

void BM_Restore_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  world_type world(kSettings, n, bench::mix::complex);
  const auto saved = world.ctx.snapshot();
  for (auto _ : state) {
    world.ctx.restore(saved);
    benchmark::ClobberMemory();
  }
  set_rate(state, n);
}

void BM_Snapshot_memcpy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bench::baseline_world world(n, bench::mix::complex);
  std::vector<unsigned char> copy(n * kComponentBytes);
  for (auto _ : state) {
    unsigned char* to = copy.data();
    const auto column = [&](const auto& v) {
      const std::size_t bytes = v.size() * sizeof(v[0]);
      std::memcpy(to, v.data(), bytes);
      to += bytes;
    };
    column(world.pos);
    column(world.vel);
    column(world.dat);
    column(world.pla);
    column(world.hea);
    column(world.dam);
    column(world.spr);
    benchmark::ClobberMemory();
  }
  set_rate(state, n);
}

// The arrays a hand-written world would copy for a rollback.
struct vector_world {
  std::vector<bench::position> pos;
  std::vector<bench::velocity> vel;
  std::vector<bench::data> dat;
  std::vector<bench::player> pla;
  std::vector<bench::health> hea;
  std::vector<bench::damage> dam;
  std::vector<bench::sprite> spr;
  std::vector<std::uint8_t> mask;
};

void BM_Snapshot_vector_copy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bench::baseline_world world(n, bench::mix::complex);
  vector_world copy;
  for (auto _ : state) {
    copy.pos = world.pos;
    copy.vel = world.vel;
    copy.dat = world.dat;
    copy.pla = world.pla;
    copy.hea = world.hea;
    copy.dam = world.dam;
    copy.spr = world.spr;
    copy.mask = world.mask;
    benchmark::ClobberMemory();
  }
  set_rate(state, n);
}

std::string temp_path(const char* name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

void BM_Save_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  world_type world(kSettings, n, bench::mix::complex);
  const std::string path = temp_path("strata_snapshot_benchmark_save.bin");
  for (auto _ : state) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (world.ctx.save(out) != strata::save_error::none) {
      state.SkipWithError("save failed");
    }
  }
  std::remove(path.c_str());
  set_rate(state, n);
}

void BM_Load_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  world_type world(kSettings, n, bench::mix::complex);
  const std::string path = temp_path("strata_snapshot_benchmark_load.bin");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    world.ctx.save(out);
  }
  for (auto _ : state) {
    std::ifstream in(path, std::ios::binary);
    if (world.ctx.load(in) != strata::load_error::none) {
      state.SkipWithError("load failed");
    }
  }
  std::remove(path.c_str());
  set_rate(state, n);
}

void BM_StateHash_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  world_type world(kSettings, n, bench::mix::complex);
  for (auto _ : state) {
    benchmark::DoNotOptimize(world.ctx.state_hash());
  }
  set_rate(state, n);
  state.counters["seconds_per_entity"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                  benchmark::Counter::kInvert);
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(16 * 1024)
      ->Arg(256 * 1024)
      ->Arg(1024 * 1024)
      ->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_Snapshot_strata)->Apply(sizes);
BENCHMARK(BM_Restore_strata)->Apply(sizes);
BENCHMARK(BM_Snapshot_memcpy)->Apply(sizes);
BENCHMARK(BM_Snapshot_vector_copy)->Apply(sizes);
BENCHMARK(BM_Save_strata)->Apply(sizes);
BENCHMARK(BM_Load_strata)->Apply(sizes);
BENCHMARK(BM_StateHash_strata)->Apply(sizes);

}  // namespace
