// Entity storage against a hand-written baseline doing the same bookkeeping:
// a std::vector of versions plus a std::vector free list (LIFO), ids packed
// the same way (22 index bits, 10 version bits). Each Strata benchmark has a
// *_Baseline twin; compare items_per_second in the same run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "entity/entity_storage.h"

namespace strata {
namespace {

constexpr std::size_t kMillion = 1'000'000;

// The baseline: what one writes by hand without the library.
class baseline_storage {
 public:
  static constexpr int kIndexBits = 22;
  static constexpr std::uint32_t kIndexMask = (1u << kIndexBits) - 1;
  static constexpr std::uint32_t kTombstone = 1023;

  std::uint32_t create() {
    std::uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = static_cast<std::uint32_t>(versions_.size());
      versions_.push_back(0);
    }
    return index | (versions_[index] << kIndexBits);
  }
  bool alive(std::uint32_t id) const {
    const std::uint32_t index = id & kIndexMask;
    return index < versions_.size() && versions_[index] == (id >> kIndexBits);
  }
  bool destroy(std::uint32_t id) {
    if (!alive(id)) return false;
    const std::uint32_t index = id & kIndexMask;
    const std::uint32_t next = versions_[index] + 1;
    versions_[index] = next >= kTombstone ? 0 : next;
    free_.push_back(index);
    return true;
  }

 private:
  std::vector<std::uint32_t> versions_;
  std::vector<std::uint32_t> free_;
};

using dynamic_storage = dynamic_entity_storage<>;
using fixed_storage = fixed_entity_storage<kMillion>;

// --- create 1M -------------------------------------------------------------

void BM_Create1M_Dynamic(benchmark::State& state) {
  for (auto _ : state) {
    dynamic_storage storage;
    for (std::size_t i = 0; i < kMillion; ++i) {
      benchmark::DoNotOptimize(storage.create());
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_Create1M_Dynamic);

void BM_Create1M_Fixed(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    auto storage = std::make_unique<fixed_storage>();
    state.ResumeTiming();
    for (std::size_t i = 0; i < kMillion; ++i) {
      benchmark::DoNotOptimize(storage->create());
    }
    benchmark::ClobberMemory();
    state.PauseTiming();
    storage.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_Create1M_Fixed);

void BM_Create1M_Baseline(benchmark::State& state) {
  for (auto _ : state) {
    baseline_storage storage;
    for (std::size_t i = 0; i < kMillion; ++i) {
      benchmark::DoNotOptimize(storage.create());
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_Create1M_Baseline);

// --- destroy 1M (in creation order) ----------------------------------------

void BM_Destroy1M_Dynamic(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    dynamic_storage storage;
    std::vector<entity_id> ids;
    ids.reserve(kMillion);
    for (std::size_t i = 0; i < kMillion; ++i) ids.push_back(storage.create());
    state.ResumeTiming();
    for (const entity_id id : ids)
      benchmark::DoNotOptimize(storage.reclaim(id));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_Destroy1M_Dynamic);

void BM_Destroy1M_Baseline(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    baseline_storage storage;
    std::vector<std::uint32_t> ids;
    ids.reserve(kMillion);
    for (std::size_t i = 0; i < kMillion; ++i) ids.push_back(storage.create());
    state.ResumeTiming();
    for (const std::uint32_t id : ids) {
      benchmark::DoNotOptimize(storage.destroy(id));
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_Destroy1M_Baseline);

// --- churn: 100k alive, destroy a random one and create one ----------------

constexpr std::size_t kChurnAlive = 100'000;

void BM_Churn_Dynamic(benchmark::State& state) {
  dynamic_storage storage;
  std::vector<entity_id> ids;
  for (std::size_t i = 0; i < kChurnAlive; ++i) ids.push_back(storage.create());
  std::mt19937 rng(42);
  for (auto _ : state) {
    entity_id& slot = ids[rng() % kChurnAlive];
    storage.reclaim(slot);
    slot = storage.create();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Churn_Dynamic);

void BM_Churn_Baseline(benchmark::State& state) {
  baseline_storage storage;
  std::vector<std::uint32_t> ids;
  for (std::size_t i = 0; i < kChurnAlive; ++i) ids.push_back(storage.create());
  std::mt19937 rng(42);
  for (auto _ : state) {
    std::uint32_t& slot = ids[rng() % kChurnAlive];
    storage.destroy(slot);
    slot = storage.create();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Churn_Baseline);

// --- alive() on random ids: 1M created, every other one reclaimed ----------

template <typename Storage, typename Id, typename Reclaim>
std::vector<Id> MakeProbeSet(Storage& storage, Reclaim reclaim) {
  std::vector<Id> ids;
  ids.reserve(kMillion);
  for (std::size_t i = 0; i < kMillion; ++i) ids.push_back(storage.create());
  for (std::size_t i = 0; i < kMillion; i += 2) reclaim(storage, ids[i]);
  std::shuffle(ids.begin(), ids.end(), std::mt19937(7));
  return ids;
}

void BM_AliveRandom_Dynamic(benchmark::State& state) {
  dynamic_storage storage;
  const auto ids = MakeProbeSet<dynamic_storage, entity_id>(
      storage, [](auto& s, entity_id id) { s.reclaim(id); });
  for (auto _ : state) {
    std::size_t live = 0;
    for (const entity_id id : ids) live += storage.alive(id);
    benchmark::DoNotOptimize(live);
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_AliveRandom_Dynamic);

void BM_AliveRandom_Fixed(benchmark::State& state) {
  auto storage = std::make_unique<fixed_storage>();
  const auto ids = MakeProbeSet<fixed_storage, entity_id>(
      *storage, [](auto& s, entity_id id) { s.reclaim(id); });
  for (auto _ : state) {
    std::size_t live = 0;
    for (const entity_id id : ids) live += storage->alive(id);
    benchmark::DoNotOptimize(live);
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_AliveRandom_Fixed);

void BM_AliveRandom_Baseline(benchmark::State& state) {
  baseline_storage storage;
  const auto ids = MakeProbeSet<baseline_storage, std::uint32_t>(
      storage, [](auto& s, std::uint32_t id) { s.destroy(id); });
  for (auto _ : state) {
    std::size_t live = 0;
    for (const std::uint32_t id : ids) live += storage.alive(id);
    benchmark::DoNotOptimize(live);
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_AliveRandom_Baseline);

// --- handle validation: same probe set, through handles --------------------

void BM_HandleValid_Dynamic(benchmark::State& state) {
  dynamic_storage storage;
  const auto ids = MakeProbeSet<dynamic_storage, entity_id>(
      storage, [](auto& s, entity_id id) { s.reclaim(id); });
  std::vector<entity_handle> handles;
  handles.reserve(ids.size());
  for (const entity_id id : ids) handles.emplace_back(id);
  for (auto _ : state) {
    std::size_t valid = 0;
    for (const entity_handle h : handles) valid += storage.valid(h);
    benchmark::DoNotOptimize(valid);
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_HandleValid_Dynamic);

// The baseline handle: (index, counter) as two fields, as ECST stores it,
// with the counter compared (the check ECST forgot).
struct baseline_handle {
  std::uint32_t index;
  std::uint32_t counter;
};

void BM_HandleValid_Baseline(benchmark::State& state) {
  baseline_storage storage;
  const auto ids = MakeProbeSet<baseline_storage, std::uint32_t>(
      storage, [](auto& s, std::uint32_t id) { s.destroy(id); });
  std::vector<baseline_handle> handles;
  handles.reserve(ids.size());
  for (const std::uint32_t id : ids) {
    handles.push_back({id & baseline_storage::kIndexMask,
                       id >> baseline_storage::kIndexBits});
  }
  for (auto _ : state) {
    std::size_t valid = 0;
    for (const baseline_handle h : handles) {
      valid +=
          storage.alive(h.index | (h.counter << baseline_storage::kIndexBits));
    }
    benchmark::DoNotOptimize(valid);
  }
  state.SetItemsProcessed(state.iterations() * kMillion);
}
BENCHMARK(BM_HandleValid_Baseline);

}  // namespace
}  // namespace strata
