// Component storage at 1M entities, each chunk kind beside the raw loop that
// does the same work by hand:
//   * pass:      position += velocity * dt over every entity (two reads, one
//                write), the typical system loop;
//   * seq_get:   sum of position.x looked up by entity in index order;
//   * rand_get:  the same in a shuffled order;
//   * churn:     remove then re-add velocity of a random entity (one pair per
//                item), through the aggregate with a std::bitset.
// Chunk kinds: contiguous SoA (pass also through data<T>() spans),
// contiguous AoS, packed sparse set, hash map.
#include <algorithm>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "component_storage/component_storage.h"
#include "component_storage/hash_map_chunk.h"
#include "entity/entity_id.h"

namespace strata {
namespace {

constexpr std::uint32_t kEntities = 1'000'000;
constexpr float kDt = 0.016f;

struct position {
  float x, y;
};
struct velocity {
  float x, y;
};

constexpr auto soa_components = component_signatures(
    component_signature::make(tag<position>, tag<velocity>));
constexpr auto aos_components = component_signatures(
    component_signature::make(tag<position>, tag<velocity>).aos());
constexpr auto sparse_components = component_signatures(
    component_signature::make(tag<position>, tag<velocity>).sparse());
constexpr auto hash_components = component_signatures(
    component_signature::make(tag<position>, tag<velocity>).hash_map());

using capacity = fixed_limit<kEntities>;
using soa_storage = component_storage<decltype(soa_components), capacity>;
using aos_storage = component_storage<decltype(aos_components), capacity>;
using sparse_storage = component_storage<decltype(sparse_components), capacity>;
using hash_storage = component_storage<decltype(hash_components), capacity>;

entity_id id_of_index(std::uint32_t i) { return entity_id::combine(i, 0); }

const std::vector<std::uint32_t>& shuffled_indices() {
  static const std::vector<std::uint32_t> indices = [] {
    std::vector<std::uint32_t> v(kEntities);
    std::iota(v.begin(), v.end(), 0u);
    std::shuffle(v.begin(), v.end(), std::mt19937(42));
    return v;
  }();
  return indices;
}

// One filled storage per kind, shared by its benchmarks (filling a hash map
// of 1M entities is slower than most benchmarks).
template <typename Storage>
struct fixture {
  Storage storage;
  std::vector<std::bitset<2>> bits = std::vector<std::bitset<2>>(kEntities);

  fixture() {
    for (std::uint32_t i = 0; i < kEntities; ++i) {
      storage.template add<position>(id_of_index(i), bits[i], float(i), 0.f);
      storage.template add<velocity>(id_of_index(i), bits[i], 1.f, 2.f);
    }
  }
  static fixture& get() {
    static fixture* instance = new fixture();
    return *instance;
  }
};

// ---- raw loops -------------------------------------------------------------

struct raw_soa {
  std::vector<position> positions = std::vector<position>(kEntities);
  std::vector<velocity> velocities =
      std::vector<velocity>(kEntities, velocity{1.f, 2.f});
  static raw_soa& get() {
    static raw_soa* instance = new raw_soa();
    return *instance;
  }
};
struct raw_row {
  position p;
  velocity v;
};
struct raw_aos {
  std::vector<raw_row> rows =
      std::vector<raw_row>(kEntities, raw_row{{0.f, 0.f}, {1.f, 2.f}});
  static raw_aos& get() {
    static raw_aos* instance = new raw_aos();
    return *instance;
  }
};

void BM_pass_raw_soa(benchmark::State& state) {
  auto& raw = raw_soa::get();
  for (auto _ : state) {
    position* p = raw.positions.data();
    const velocity* v = raw.velocities.data();
    for (std::uint32_t i = 0; i < kEntities; ++i) {
      p[i].x += v[i].x * kDt;
      p[i].y += v[i].y * kDt;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_pass_raw_soa);

void BM_pass_raw_aos(benchmark::State& state) {
  auto& raw = raw_aos::get();
  for (auto _ : state) {
    raw_row* rows = raw.rows.data();
    for (std::uint32_t i = 0; i < kEntities; ++i) {
      rows[i].p.x += rows[i].v.x * kDt;
      rows[i].p.y += rows[i].v.y * kDt;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_pass_raw_aos);

void BM_seq_get_raw(benchmark::State& state) {
  auto& raw = raw_soa::get();
  for (auto _ : state) {
    float sum = 0;
    for (std::uint32_t i = 0; i < kEntities; ++i) sum += raw.positions[i].x;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_seq_get_raw);

void BM_rand_get_raw(benchmark::State& state) {
  auto& raw = raw_soa::get();
  const auto& order = shuffled_indices();
  for (auto _ : state) {
    float sum = 0;
    for (const std::uint32_t i : order) sum += raw.positions[i].x;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_rand_get_raw);

// ---- through the storage ---------------------------------------------------

// The pass through get(): what a system body written against the context's
// data proxy compiles down to.
template <typename Storage>
void BM_pass_get(benchmark::State& state) {
  auto& storage = fixture<Storage>::get().storage;
  for (auto _ : state) {
    for (std::uint32_t i = 0; i < kEntities; ++i) {
      const entity_id e = id_of_index(i);
      position& p = storage.template get<position>(e);
      const velocity& v = storage.template get<velocity>(e);
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK_TEMPLATE(BM_pass_get, soa_storage);
BENCHMARK_TEMPLATE(BM_pass_get, aos_storage);
BENCHMARK_TEMPLATE(BM_pass_get, sparse_storage);
BENCHMARK_TEMPLATE(BM_pass_get, hash_storage);

// The fast path of the contiguous SoA buffer: its data<T>() spans.
void BM_pass_data_soa(benchmark::State& state) {
  auto& storage = fixture<soa_storage>::get().storage;
  auto& chunk = storage.chunk_for<position>();
  for (auto _ : state) {
    position* p = chunk.data<position>().data();
    const velocity* v = chunk.data<velocity>().data();
    for (std::uint32_t i = 0; i < kEntities; ++i) {
      p[i].x += v[i].x * kDt;
      p[i].y += v[i].y * kDt;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_pass_data_soa);

// The packed set's own fast path: its dense arrays (positions and velocities
// were added in the same order, so dense positions line up).
void BM_pass_dense_sparse(benchmark::State& state) {
  auto& storage = fixture<sparse_storage>::get().storage;
  auto& chunk = storage.chunk_for<position>();
  for (auto _ : state) {
    const auto positions = chunk.set_for<position>().data();
    const auto velocities = chunk.set_for<velocity>().data();
    for (std::size_t i = 0; i < positions.size(); ++i) {
      positions[i].x += velocities[i].x * kDt;
      positions[i].y += velocities[i].y * kDt;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK(BM_pass_dense_sparse);

template <typename Storage>
void BM_seq_get(benchmark::State& state) {
  const auto& storage = fixture<Storage>::get().storage;
  for (auto _ : state) {
    float sum = 0;
    for (std::uint32_t i = 0; i < kEntities; ++i) {
      sum += storage.template get<position>(id_of_index(i)).x;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK_TEMPLATE(BM_seq_get, soa_storage);
BENCHMARK_TEMPLATE(BM_seq_get, aos_storage);
BENCHMARK_TEMPLATE(BM_seq_get, sparse_storage);
BENCHMARK_TEMPLATE(BM_seq_get, hash_storage);

template <typename Storage>
void BM_rand_get(benchmark::State& state) {
  const auto& storage = fixture<Storage>::get().storage;
  const auto& order = shuffled_indices();
  for (auto _ : state) {
    float sum = 0;
    for (const std::uint32_t i : order) {
      sum += storage.template get<position>(id_of_index(i)).x;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kEntities);
}
BENCHMARK_TEMPLATE(BM_rand_get, soa_storage);
BENCHMARK_TEMPLATE(BM_rand_get, aos_storage);
BENCHMARK_TEMPLATE(BM_rand_get, sparse_storage);
BENCHMARK_TEMPLATE(BM_rand_get, hash_storage);

template <typename Storage>
void BM_churn(benchmark::State& state) {
  auto& f = fixture<Storage>::get();
  const auto& order = shuffled_indices();
  std::size_t next = 0;
  for (auto _ : state) {
    const std::uint32_t i = order[next];
    next = next + 1 == order.size() ? 0 : next + 1;
    const entity_id e = id_of_index(i);
    f.storage.template remove<velocity>(e, f.bits[i]);
    benchmark::DoNotOptimize(
        f.storage.template add<velocity>(e, f.bits[i], 1.f, 2.f));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_churn, soa_storage);
BENCHMARK_TEMPLATE(BM_churn, aos_storage);
BENCHMARK_TEMPLATE(BM_churn, sparse_storage);
BENCHMARK_TEMPLATE(BM_churn, hash_storage);

}  // namespace
}  // namespace strata
