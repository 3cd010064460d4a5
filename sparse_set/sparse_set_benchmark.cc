// Sparse sets against the containers a user would otherwise reach for, at
// 1k / 64k / 1M elements: insert, contains (hits and misses, random order),
// erase and full iteration; and sorting 1M elements with one data array, in
// place through the sparse array versus sorting (id, data) pairs and
// rebuilding.
//
// Every container holds N values drawn from [0, 2N); the other N values are
// the misses. Probes and erasures visit values in a random order.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "benchmark/benchmark.h"
#include "base/versioned_id.h"
#include "sparse_set/component_sparse_set.h"
#include "sparse_set/sparse_integer_set.h"
#include "sparse_set/versioned_sparse_set.h"

namespace strata {
namespace {

// Sparse sets take any versioned id; these are //entity's widths.
using entity_id = basic_versioned_id<versioned_id_traits<std::uint32_t, 22>>;

constexpr std::size_t kMaxSize = std::size_t{1} << 20;

struct workload {
  std::vector<std::uint32_t> present;  // insertion order
  std::vector<std::uint32_t> probes;   // `present` shuffled again
  std::vector<std::uint32_t> misses;   // values never inserted, shuffled
};

const workload& get_workload(std::size_t n) {
  static std::vector<std::pair<std::size_t, std::unique_ptr<workload>>> cache;
  for (auto& [size, w] : cache) {
    if (size == n) return *w;
  }
  auto w = std::make_unique<workload>();
  std::vector<std::uint32_t> values(2 * n);
  std::iota(values.begin(), values.end(), 0u);
  std::mt19937 rng(static_cast<std::uint32_t>(n));
  std::shuffle(values.begin(), values.end(), rng);
  w->present.assign(values.begin(), values.begin() + n);
  w->misses.assign(values.begin() + n, values.end());
  w->probes = w->present;
  std::shuffle(w->probes.begin(), w->probes.end(), rng);
  cache.emplace_back(n, std::move(w));
  return *cache.back().second;
}

// Adaptors give every container the same four operations.

struct fixed_adaptor {
  using set_type = fixed_sparse_integer_set<std::uint32_t, 2 * kMaxSize>;
  // 16 MB inline: allocated once, reused through the O(1) clear().
  std::unique_ptr<set_type> set = std::make_unique<set_type>();
  void reset(std::size_t) { set->clear(); }
  void insert(std::uint32_t v) { set->insert(v); }
  bool contains(std::uint32_t v) const { return set->contains(v); }
  void erase(std::uint32_t v) { set->erase(v); }
  void finish_erase() {}
  std::uint64_t sum() const {
    std::uint64_t s = 0;
    for (const std::uint32_t v : *set) s += v;
    return s;
  }
};

struct dynamic_adaptor {
  dynamic_sparse_integer_set<std::uint32_t> set;
  void reset(std::size_t) { set = {}; }
  void insert(std::uint32_t v) { set.insert(v); }
  bool contains(std::uint32_t v) const { return set.contains(v); }
  void erase(std::uint32_t v) { set.erase(v); }
  void finish_erase() {}
  std::uint64_t sum() const {
    std::uint64_t s = 0;
    for (const std::uint32_t v : set) s += v;
    return s;
  }
};

struct versioned_adaptor {
  versioned_sparse_set<entity_id> set;
  void reset(std::size_t) { set = {}; }
  void insert(std::uint32_t v) { set.insert(entity_id::combine(v, 1)); }
  bool contains(std::uint32_t v) const {
    return set.contains(entity_id::combine(v, 1));
  }
  void erase(std::uint32_t v) { set.erase(entity_id::combine(v, 1)); }
  void finish_erase() {}
  std::uint64_t sum() const {
    std::uint64_t s = 0;
    for (const entity_id id : set) s += id.value();
    return s;
  }
};

struct component_adaptor {
  component_sparse_set<entity_id, std::uint32_t> set;
  void reset(std::size_t) { set = {}; }
  void insert(std::uint32_t v) { set.emplace(entity_id::combine(v, 1), v); }
  bool contains(std::uint32_t v) const {
    return set.contains(entity_id::combine(v, 1));
  }
  void erase(std::uint32_t v) { set.erase(entity_id::combine(v, 1)); }
  void finish_erase() {}
  // Iterates ids and data together, as a system would.
  std::uint64_t sum() const {
    std::uint64_t s = 0;
    set.each(
        [&s](entity_id id, std::uint32_t value) { s += id.value() + value; });
    return s;
  }
};

struct flat_hash_adaptor {
  absl::flat_hash_set<std::uint32_t> set;
  void reset(std::size_t) { set = {}; }
  void insert(std::uint32_t v) { set.insert(v); }
  bool contains(std::uint32_t v) const { return set.contains(v); }
  void erase(std::uint32_t v) { set.erase(v); }
  void finish_erase() {}
  std::uint64_t sum() const {
    std::uint64_t s = 0;
    for (const std::uint32_t v : set) s += v;
    return s;
  }
};

struct unordered_adaptor {
  std::unordered_set<std::uint32_t> set;
  void reset(std::size_t) { set = {}; }
  void insert(std::uint32_t v) { set.insert(v); }
  bool contains(std::uint32_t v) const { return set.count(v) != 0; }
  void erase(std::uint32_t v) { set.erase(v); }
  void finish_erase() {}
  std::uint64_t sum() const {
    std::uint64_t s = 0;
    for (const std::uint32_t v : set) s += v;
    return s;
  }
};

// The hand-written baseline: a membership bitmap plus a list of values.
// Erase clears the bit and compacts the list once per batch (finish_erase),
// since finding a value in the list would be O(n).
struct bitmap_adaptor {
  std::vector<bool> bits;
  std::vector<std::uint32_t> values;
  void reset(std::size_t n) {
    bits.assign(2 * n, false);
    values = {};
  }
  void insert(std::uint32_t v) {
    if (v >= bits.size()) bits.resize(std::size_t{v} + 1);
    if (!bits[v]) {
      bits[v] = true;
      values.push_back(v);
    }
  }
  bool contains(std::uint32_t v) const { return v < bits.size() && bits[v]; }
  void erase(std::uint32_t v) {
    if (v < bits.size()) bits[v] = false;
  }
  void finish_erase() {
    std::erase_if(values, [this](std::uint32_t v) { return !bits[v]; });
  }
  std::uint64_t sum() const {
    std::uint64_t s = 0;
    for (const std::uint32_t v : values) s += v;
    return s;
  }
};

template <typename Adaptor>
void fill(Adaptor& a, const workload& w) {
  a.reset(w.present.size());
  for (const std::uint32_t v : w.present) a.insert(v);
}

template <typename Adaptor>
void BM_Insert(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const workload& w = get_workload(n);
  Adaptor a;
  for (auto _ : state) {
    a.reset(n);
    for (const std::uint32_t v : w.present) a.insert(v);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// `contains` over one of the workload's probe lists (hits or misses), in
// random order.
template <typename Adaptor, std::vector<std::uint32_t> workload::*Probes>
void run_contains(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const workload& w = get_workload(n);
  Adaptor a;
  fill(a, w);
  for (auto _ : state) {
    std::size_t found = 0;
    for (const std::uint32_t v : w.*Probes) found += a.contains(v);
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

template <typename Adaptor>
void BM_ContainsHit(benchmark::State& state) {
  run_contains<Adaptor, &workload::probes>(state);
}

template <typename Adaptor>
void BM_ContainsMiss(benchmark::State& state) {
  run_contains<Adaptor, &workload::misses>(state);
}

template <typename Adaptor>
void BM_Erase(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const workload& w = get_workload(n);
  Adaptor a;
  for (auto _ : state) {
    state.PauseTiming();
    fill(a, w);
    state.ResumeTiming();
    for (const std::uint32_t v : w.probes) a.erase(v);
    a.finish_erase();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

template <typename Adaptor>
void BM_Iterate(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const workload& w = get_workload(n);
  Adaptor a;
  fill(a, w);
  for (auto _ : state) {
    benchmark::DoNotOptimize(a.sum());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);
}

#define STRATA_SET_BENCHMARKS(adaptor)                        \
  BENCHMARK_TEMPLATE(BM_Insert, adaptor)->Apply(sizes);       \
  BENCHMARK_TEMPLATE(BM_ContainsHit, adaptor)->Apply(sizes);  \
  BENCHMARK_TEMPLATE(BM_ContainsMiss, adaptor)->Apply(sizes); \
  BENCHMARK_TEMPLATE(BM_Erase, adaptor)->Apply(sizes);        \
  BENCHMARK_TEMPLATE(BM_Iterate, adaptor)->Apply(sizes)

STRATA_SET_BENCHMARKS(fixed_adaptor);
STRATA_SET_BENCHMARKS(dynamic_adaptor);
STRATA_SET_BENCHMARKS(versioned_adaptor);
STRATA_SET_BENCHMARKS(component_adaptor);
STRATA_SET_BENCHMARKS(flat_hash_adaptor);
STRATA_SET_BENCHMARKS(unordered_adaptor);
STRATA_SET_BENCHMARKS(bitmap_adaptor);

// Sorting: 1M ids in random order with one 8-byte data array, sorted by data.

using sort_set = component_sparse_set<entity_id, std::uint64_t>;

std::uint64_t sort_key(std::uint32_t v) {
  return (std::uint64_t{v} * 0x9E3779B97F4A7C15ull) >> 11;
}

const sort_set& unsorted_set() {
  static const sort_set set = [] {
    sort_set s;
    for (const std::uint32_t v : get_workload(kMaxSize).present) {
      s.emplace(entity_id::combine(v, 1), sort_key(v));
    }
    return s;
  }();
  return set;
}

// The library's sort_by_data: positions sorted by data, then the data array
// permuted in place through the sparse array.
void BM_SortInPlace(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    sort_set s = unsorted_set();
    state.ResumeTiming();
    s.sort_by_data();
    benchmark::DoNotOptimize(s.data().data());
  }
  state.SetItemsProcessed(
      static_cast<std::int64_t>(state.iterations() * kMaxSize));
}
BENCHMARK(BM_SortInPlace)->Unit(benchmark::kMillisecond);

// Same, ordering by id (no temporary array: std::sort on the dense ids).
void BM_SortByIdInPlace(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    sort_set s = unsorted_set();
    state.ResumeTiming();
    s.sort();
    benchmark::DoNotOptimize(s.data().data());
  }
  state.SetItemsProcessed(
      static_cast<std::int64_t>(state.iterations() * kMaxSize));
}
BENCHMARK(BM_SortByIdInPlace)->Unit(benchmark::kMillisecond);

// Baseline by hand: raw sparse/dense/data arrays; copy (id, data) pairs out,
// sort them, write both arrays back and rebuild the sparse array.
struct raw_sparse_set {
  std::vector<std::uint32_t> sparse;
  std::vector<entity_id> dense;
  std::vector<std::uint64_t> data;
};

void BM_SortPairsRebuild(benchmark::State& state) {
  const sort_set& src = unsorted_set();
  raw_sparse_set proto;
  proto.dense.assign(src.ids().begin(), src.ids().end());
  proto.data.assign(src.data().begin(), src.data().end());
  proto.sparse.assign(2 * kMaxSize, ~0u);
  for (std::uint32_t p = 0; p < proto.dense.size(); ++p) {
    proto.sparse[proto.dense[p].index()] = p;
  }
  for (auto _ : state) {
    state.PauseTiming();
    raw_sparse_set s = proto;
    state.ResumeTiming();
    std::vector<std::pair<entity_id, std::uint64_t>> pairs(s.dense.size());
    for (std::size_t p = 0; p < pairs.size(); ++p)
      pairs[p] = {s.dense[p], s.data[p]};
    std::sort(pairs.begin(), pairs.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    for (std::uint32_t p = 0; p < pairs.size(); ++p) {
      s.dense[p] = pairs[p].first;
      s.data[p] = pairs[p].second;
      s.sparse[pairs[p].first.index()] = p;
    }
    benchmark::DoNotOptimize(s.data.data());
  }
  state.SetItemsProcessed(
      static_cast<std::int64_t>(state.iterations() * kMaxSize));
}
BENCHMARK(BM_SortPairsRebuild)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata
