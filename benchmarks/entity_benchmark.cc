// The entity-level scenarios of ecs_benchmark, Strata (one thread, the
// movement and data systems of SystemsUpdate registered, so created entities
// join systems as in a real program) beside a hand-written baseline
// (std::vector SoA + presence bits + a free list of indices):
//   CreateEntities          create N entities with position + velocity, in
//                           a fresh, empty world (Strata: one step, refresh
//                           included; context construction and destruction
//                           untimed); strata_1t_batch: the same with one
//                           proxy.create_entities(n, f) call;
//   CreateEntitiesWarm      the same into a world that held N entities and
//                           killed them (untimed): ids and memory are
//                           reused, so no allocation or first-touch page
//                           fault is timed (a game spawning a wave; the
//                           fresh-world numbers above can be dominated by
//                           the OS's first-touch page faults);
//   DestroyEntities         kill all N (created untimed before each run;
//                           Strata: one step, refresh included);
//   UnpackOneComponent      get position of each of N entities by id;
//   UnpackTwoComponents     + const velocity;
//   UnpackThreeComponents   + data when the entity has it (every other one);
//   RemoveAddComponent      remove then add position on each of N entities
//                           (Strata: one step; nothing looks at the movement
//                           system in between, so each departure is
//                           cancelled by the add and the refresh drops the
//                           unchanged entities in one pass).
// Unpack scenarios use Strata's step-proxy get_component/has_component (the
// random-access API; both check liveness and the component bit).
// Names: BM_<Scenario>/<implementation>/<entities>/real_time.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "benchmark/benchmark.h"
#include "benchmarks/scenario.h"

namespace bench {
namespace {

constexpr auto kEntitySettings = settings_1t(kUpdateSystems<>);
using entity_settings = std::remove_const_t<decltype(kEntitySettings)>;
using entity_context = context_of<entity_settings>;
using entity_world = strata_world<entity_settings>;

// The hand-written registry: versions and a free list for ids, SoA vectors
// for components, a presence byte per entity.
struct baseline_registry {
  std::vector<std::uint32_t> versions;
  std::vector<std::uint32_t> free_list;
  std::vector<std::uint8_t> mask;
  std::vector<position> pos;
  std::vector<velocity> vel;
  std::vector<data> dat;

  std::uint32_t create() {
    if (!free_list.empty()) {
      const std::uint32_t idx = free_list.back();
      free_list.pop_back();
      return idx;
    }
    const auto idx = static_cast<std::uint32_t>(versions.size());
    versions.push_back(0);
    mask.push_back(0);
    pos.emplace_back();
    vel.emplace_back();
    dat.emplace_back();
    return idx;
  }
  void destroy(std::uint32_t idx) {
    ++versions[idx];
    mask[idx] = 0;
    free_list.push_back(idx);
  }
  void create_pos_vel(std::size_t n, std::vector<std::uint32_t>* out) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t e = create();
      pos[e] =
          position{static_cast<float>(i % 320), static_cast<float>(i % 240)};
      vel[e] = velocity{1.0f, 1.0f};
      mask[e] |= kHasPos | kHasVel;
      if (out != nullptr) out->push_back(e);
    }
  }
};

// ------------------------------------------------------------ CreateEntities

void create_baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    auto reg = std::make_unique<baseline_registry>();
    state.ResumeTiming();
    reg->create_pos_vel(n, nullptr);
    benchmark::ClobberMemory();
    state.PauseTiming();
    reg.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// What both creation scenarios create, in one step: N entities with
// position and velocity, one call per entity or one batch call.
template <typename Proxy>
void create_one_at_a_time(Proxy& proxy, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const strata::entity_id e = proxy.create_entity();
    proxy.add_component(ct::position, e, static_cast<float>(i % 320),
                        static_cast<float>(i % 240));
    proxy.add_component(ct::velocity, e, 1.0f, 1.0f);
  }
}
template <typename Proxy>
void create_in_one_batch(Proxy& proxy, std::size_t n) {
  std::size_t i = 0;
  proxy.create_entities(n, [&](position& p, velocity& v) {
    p = position{static_cast<float>(i % 320), static_cast<float>(i % 240)};
    v = velocity{1.0f, 1.0f};
    ++i;
  });
}

// A fresh context per iteration (made and destroyed untimed), then
// create(proxy, n) in one timed step.
template <typename Create>
void create_fresh_strata_with(benchmark::State& state, Create create) {
  const auto n = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    std::optional<entity_context> ctx(strata::make_context(kEntitySettings));
    state.ResumeTiming();
    ctx->step([&](auto& proxy) { create(proxy, n); });
    benchmark::ClobberMemory();
    state.PauseTiming();
    ctx.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void create_strata(benchmark::State& state) {
  create_fresh_strata_with(state, [](auto& proxy, std::size_t n) {
    create_one_at_a_time(proxy, n);
  });
}

// The batch call: one create_entities(n, f) filling both components.
void create_strata_batch(benchmark::State& state) {
  create_fresh_strata_with(
      state, [](auto& proxy, std::size_t n) { create_in_one_batch(proxy, n); });
}

// ------------------------------------------------------ CreateEntitiesWarm

void create_warm_baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  baseline_registry reg;
  std::vector<std::uint32_t> ids;
  ids.reserve(n);
  for (auto _ : state) {
    state.PauseTiming();
    for (const std::uint32_t e : ids) reg.destroy(e);
    ids.clear();
    state.ResumeTiming();
    reg.create_pos_vel(n, &ids);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Kills what the previous iteration made (untimed), then runs
// create(proxy, n) in one timed step.
template <typename Create>
void create_warm_strata_with(benchmark::State& state, Create create) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto ctx = strata::make_context(kEntitySettings);
  for (auto _ : state) {
    state.PauseTiming();
    ctx.step([&](auto& proxy) {
      proxy.for_each(
          [&](strata::entity_id e, const position&) { proxy.kill_entity(e); });
    });
    state.ResumeTiming();
    ctx.step([&](auto& proxy) { create(proxy, n); });
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void create_warm_strata(benchmark::State& state) {
  create_warm_strata_with(state, [](auto& proxy, std::size_t n) {
    create_one_at_a_time(proxy, n);
  });
}

void create_warm_strata_batch(benchmark::State& state) {
  create_warm_strata_with(
      state, [](auto& proxy, std::size_t n) { create_in_one_batch(proxy, n); });
}

// ----------------------------------------------------------- DestroyEntities

void destroy_baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  baseline_registry reg;
  std::vector<std::uint32_t> ids;
  ids.reserve(n);
  for (auto _ : state) {
    state.PauseTiming();
    ids.clear();
    reg.create_pos_vel(n, &ids);
    state.ResumeTiming();
    for (const std::uint32_t e : ids) reg.destroy(e);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void destroy_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto ctx = strata::make_context(kEntitySettings);
  std::vector<strata::entity_id> ids;
  ids.reserve(n);
  for (auto _ : state) {
    state.PauseTiming();
    ids.clear();
    ctx.step([&](auto& proxy) {
      for (std::size_t i = 0; i < n; ++i) {
        const strata::entity_id e = proxy.create_entity();
        proxy.add_component(ct::position, e, static_cast<float>(i % 320),
                            static_cast<float>(i % 240));
        proxy.add_component(ct::velocity, e, 1.0f, 1.0f);
        ids.push_back(e);
      }
    });
    state.ResumeTiming();
    ctx.step([&](auto& proxy) {
      for (const strata::entity_id e : ids) proxy.kill_entity(e);
    });
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// -------------------------------------------------------------------- Unpack

struct baseline_unpack_world {
  baseline_world world;
  std::vector<std::uint32_t> ids;
  explicit baseline_unpack_world(std::size_t n) : world(n, mix::half_data) {
    ids.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      ids.push_back(static_cast<std::uint32_t>(i));
  }
};

template <int Components>
void unpack_baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& w = cached_world<baseline_unpack_world>(
      n, mix::half_data, 0, [&] { return new baseline_unpack_world(n); });
  const position* const p = w.world.pos.data();
  const velocity* const v = w.world.vel.data();
  const data* const d = w.world.dat.data();
  const std::uint8_t* const mask = w.world.mask.data();
  for (auto _ : state) {
    float sum = 0;
    double dsum = 0;
    for (const std::uint32_t e : w.ids) {
      sum += p[e].x;
      if constexpr (Components >= 2) sum += v[e].x;
      if constexpr (Components >= 3) {
        if (mask[e] & kHasData) dsum += d[e].dingy;
      }
    }
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(dsum);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

template <int Components>
void unpack_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& w = cached_world<entity_world>(n, mix::half_data, 0, [&] {
    return new entity_world(kEntitySettings, n, mix::half_data);
  });
  for (auto _ : state) {
    w.ctx.step([&](auto& proxy) {
      float sum = 0;
      double dsum = 0;
      for (const strata::entity_id e : w.ids) {
        sum += proxy.get_component(ct::position, e).x;
        if constexpr (Components >= 2)
          sum += proxy.get_component(ct::velocity, e).x;
        if constexpr (Components >= 3) {
          if (proxy.has_component(ct::data, e))
            dsum += proxy.get_component(ct::data, e).dingy;
        }
      }
      benchmark::DoNotOptimize(sum);
      benchmark::DoNotOptimize(dsum);
    });
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// -------------------------------------------------------- RemoveAddComponent

void remove_add_baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& w = cached_world<baseline_unpack_world>(
      n, mix::half_data, 1, [&] { return new baseline_unpack_world(n); });
  position* const p = w.world.pos.data();
  std::uint8_t* const mask = w.world.mask.data();
  for (auto _ : state) {
    for (const std::uint32_t e : w.ids) {
      mask[e] &= static_cast<std::uint8_t>(~kHasPos);
      p[e] = position{1.0f, 2.0f};
      mask[e] |= kHasPos;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void remove_add_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& w = cached_world<entity_world>(n, mix::half_data, 1, [&] {
    return new entity_world(kEntitySettings, n, mix::half_data);
  });
  for (auto _ : state) {
    w.ctx.step([&](auto& proxy) {
      for (const strata::entity_id e : w.ids) {
        proxy.remove_component(ct::position, e);
        proxy.add_component(ct::position, e, 1.0f, 2.0f);
      }
    });
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

#define STRATA_ENTITY_BENCHMARKS(NAME, Baseline, Strata) \
  BENCHMARK(Baseline)                                    \
      ->Name(NAME "/baseline")                           \
      ->Apply(entity_counts)                             \
      ->UseRealTime();                                   \
  BENCHMARK(Strata)                                      \
      ->Name(NAME "/strata_1t")                          \
      ->Apply(entity_counts)                             \
      ->UseRealTime()

STRATA_ENTITY_BENCHMARKS("BM_CreateEntities", create_baseline, create_strata);
BENCHMARK(create_strata_batch)
    ->Name("BM_CreateEntities/strata_1t_batch")
    ->Apply(entity_counts)
    ->UseRealTime();
STRATA_ENTITY_BENCHMARKS("BM_CreateEntitiesWarm", create_warm_baseline,
                         create_warm_strata);
BENCHMARK(create_warm_strata_batch)
    ->Name("BM_CreateEntitiesWarm/strata_1t_batch")
    ->Apply(entity_counts)
    ->UseRealTime();
STRATA_ENTITY_BENCHMARKS("BM_DestroyEntities", destroy_baseline,
                         destroy_strata);
STRATA_ENTITY_BENCHMARKS("BM_UnpackOneComponent", unpack_baseline<1>,
                         unpack_strata<1>);
STRATA_ENTITY_BENCHMARKS("BM_UnpackTwoComponents", unpack_baseline<2>,
                         unpack_strata<2>);
STRATA_ENTITY_BENCHMARKS("BM_UnpackThreeComponents", unpack_baseline<3>,
                         unpack_strata<3>);
STRATA_ENTITY_BENCHMARKS("BM_RemoveAddComponent", remove_add_baseline,
                         remove_add_strata);

}  // namespace
}  // namespace bench
