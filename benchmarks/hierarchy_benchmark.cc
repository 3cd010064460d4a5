// Hierarchies (context/hierarchy.h), each beside its baseline in this
// binary. The world: a forest of N entities, roots with 4 to 8 children
// each, down to depth 4 (five levels), built breadth-first from a fixed
// seed; each entity has a local and a world 2D transform (rotation and
// translation).
//   BM_Propagate/hand_written/N: world = parent's world * local over arrays
//     sorted by depth (a parent index per entity), one thread: the loop an
//     engine writes by hand.
//   BM_Propagate/strata_1t|strata_2t/N: the same in a system declared
//     .in_hierarchy_order() with data.for_each_with_parent(ct::world, f)
//     (the parent's world handed to f), on 1 and 2 threads (each level
//     split across them).
//   BM_Propagate/strata_1t_parent_query/N: the same system reading the
//     parent with data.parent(ct::world, e) inside data.for_each, 1 thread.
//   BM_Propagate/strata_1t_shuffled/N: strata_1t with the forest's
//     entities at indices drawn at random (a world whose entities came and
//     went in no relation to the forest), so the storage's index order and
//     the forest's depth order have nothing in common.
//   BM_Reparent/strata/N: each step moves 1 % of the entities under another
//     parent of the same depth (set_parent), then refreshes; items are
//     re-parents, so the time per item is the cost of one.
//   BM_ReparentFixed/strata/N/C: C re-parents per step whatever N (two
//     world sizes, two change counts): the refresh's cost follows the
//     changes, not the world's size (no rebuild), so the time per step
//     stays flat as N grows and grows with C (the time per item, per
//     re-parent, stays about the same in all four rows).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "strata.h"

namespace {

struct transform {
  float c = 1, s = 0, x = 0, y = 0;  // cos, sin, translation
};
// parent * local.
inline transform compose(const transform& p, const transform& l) {
  return {p.c * l.c - p.s * l.s, p.s * l.c + p.c * l.s,
          p.c * l.x - p.s * l.y + p.x, p.s * l.x + p.c * l.y + p.y};
}
struct local_transform : transform {};
struct world_transform : transform {};
namespace ct {
inline constexpr auto local = strata::tag<local_transform>;
inline constexpr auto world = strata::tag<world_transform>;
}  // namespace ct

// The forest, breadth-first: parent[i] < i (or -1 for a root), depth[i].
struct forest {
  std::vector<std::int32_t> parent;
  std::vector<std::uint8_t> depth;
  std::vector<transform> local;
};
forest make_forest(std::size_t n) {
  constexpr int kMaxDepth = 4;
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> fan_out(4, 8);
  std::uniform_real_distribution<float> angle(-0.5f, 0.5f);
  forest f;
  const auto add = [&](std::int32_t parent, std::uint8_t depth) {
    const float a = angle(rng);
    f.parent.push_back(parent);
    f.depth.push_back(depth);
    f.local.push_back({std::cos(a), std::sin(a), a * 10, -a * 5});
  };
  // Whole trees of about 1 + 6 + 36 + 216 + 1296 entities, so there are
  // roots enough to fill n.
  const std::size_t roots = std::max<std::size_t>(1, n / 1555);
  for (std::size_t r = 0; r < roots && f.parent.size() < n; ++r) add(-1, 0);
  for (std::size_t i = 0; f.parent.size() < n; ++i) {
    if (i == f.parent.size()) {  // every tree full: another root
      add(-1, 0);
      continue;
    }
    if (f.depth[i] == kMaxDepth) continue;
    const int children = fan_out(rng);
    for (int k = 0; k < children && f.parent.size() < n; ++k) {
      add(static_cast<std::int32_t>(i), f.depth[i] + 1);
    }
  }
  return f;
}

// ---------------------------------------------------------- hand-written

// One pass over the depth-sorted arrays (a function of its own, so that a
// profiler counts its cost per call).
[[gnu::noinline]] void propagate_arrays(const forest& f,
                                        std::vector<transform>& world) {
  for (std::size_t i = 0; i < world.size(); ++i) {
    world[i] =
        f.parent[i] < 0 ? f.local[i] : compose(world[f.parent[i]], f.local[i]);
  }
}

void propagate_hand_written(benchmark::State& state) {
  const forest f = make_forest(static_cast<std::size_t>(state.range(0)));
  std::vector<transform> world(f.local.size());
  for (auto _ : state) {
    propagate_arrays(f, world);
    benchmark::DoNotOptimize(world.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// ---------------------------------------------------------------- Strata

inline void set_world(world_transform& w, const world_transform* up,
                      const local_transform& l) {
  static_cast<transform&>(w) =
      up ? compose(*up, l) : static_cast<const transform&>(l);
}

// With the parent handed in (ParentQuery false) or asked for.
template <bool ParentQuery>
struct propagate {
  template <typename Data>
  void process(Data& data) const {
    if constexpr (ParentQuery) {
      data.for_each([&](strata::entity_id e, world_transform& w,
                        const local_transform& l) {
        set_world(w, data.parent(ct::world, e), l);
      });
    } else {
      data.for_each_with_parent(
          ct::world, [](const world_transform* up, world_transform& w,
                        const local_transform& l) { set_world(w, up, l); });
    }
  }
};

template <bool ParentQuery>
constexpr auto settings_for() {
  return strata::settings()
      .allow_inner_parallelism()
      .component_signatures(strata::component_signatures(
          strata::component_signature::make(ct::local, ct::world)))
      .system_signatures(strata::system_signatures(
          strata::system_signature::make(strata::tag<propagate<ParentQuery>>)
              .write(ct::world)
              .read(ct::local)
              .in_hierarchy_order()))
      .scheduler(strata::scheduler::atomic_counter)
      .hierarchy(strata::kill_children);
}
constexpr auto settings = settings_for<false>();
constexpr auto query_settings = settings_for<true>();

using context_type = decltype(strata::make_context<settings>());
template <bool ParentQuery>
inline constexpr const auto& settings_of = settings;
template <>
inline constexpr const auto& settings_of<true> = query_settings;

// The forest in a context: ids[i] is entity i of `f`. Entity i gets the
// i-th index created, or (`shuffled`) an index drawn at random, as in a
// world whose entities came and went in no relation to the forest's
// shape; either way the parents are set breadth-first.
template <typename Context>
std::vector<strata::entity_id> fill(Context& ctx, const forest& f,
                                    bool shuffled = false) {
  std::vector<strata::entity_id> ids(f.parent.size());
  ctx.step([&](auto& proxy) {
    for (strata::entity_id& id : ids) id = proxy.create_entity();
    if (shuffled) std::shuffle(ids.begin(), ids.end(), std::mt19937(3));
    for (std::size_t i = 0; i < ids.size(); ++i) {
      proxy.add_component(ct::local, ids[i], local_transform{f.local[i]});
      proxy.add_component(ct::world, ids[i]);
      if (f.parent[i] >= 0) proxy.set_parent(ids[i], ids[f.parent[i]]);
    }
  });
  return ids;
}

// One step running the system (a function of its own, so that a profiler
// counts its cost per call, as propagate_arrays').
template <typename Context>
[[gnu::noinline]] void run_systems(Context& ctx) {
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

template <bool ParentQuery>
void propagate_strata(benchmark::State& state, std::size_t threads,
                      bool shuffled = false) {
  const forest f = make_forest(static_cast<std::size_t>(state.range(0)));
  auto ctx = strata::make_context<settings_of<ParentQuery>>(
      strata::run_options().threads(threads));
  fill(ctx, f, shuffled);
  for (int warm = 0; warm < 40; ++warm) run_systems(ctx);  // costs measured
  for (auto _ : state) run_systems(ctx);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void propagate_with_parent(benchmark::State& state, std::size_t threads) {
  propagate_strata<false>(state, threads);
}
void propagate_parent_query(benchmark::State& state, std::size_t threads) {
  propagate_strata<true>(state, threads);
}
void propagate_shuffled(benchmark::State& state, std::size_t threads) {
  propagate_strata<false>(state, threads, true);
}

// One step of `count` moves from moves[next] on (a function of its own, so
// that a profiler counts its cost per call).
[[gnu::noinline]] void reparent_step(
    context_type& ctx,
    const std::vector<std::pair<strata::entity_id, strata::entity_id>>& moves,
    std::size_t count, std::size_t& next) {
  ctx.step([&](auto& proxy) {
    for (std::size_t k = 0; k < count; ++k) {
      proxy.set_parent(moves[next].first, moves[next].second);
      next = next + 1 == moves.size() ? 0 : next + 1;
    }
  });
}

// Moves `per_step` entities per step under another parent of the same
// depth (so depths, and the forest's shape, stay as they were).
// (`fixed` per step, or 1 % of the entities when 0.)
void reparent(benchmark::State& state, std::size_t fixed) {
  const forest f = make_forest(static_cast<std::size_t>(state.range(0)));
  const std::size_t per_step = fixed > 0 ? fixed : f.parent.size() / 100;
  auto ctx = strata::make_context<settings>(strata::run_options().threads(1));
  const std::vector<strata::entity_id> ids = fill(ctx, f);
  std::vector<std::vector<std::uint32_t>> at_depth(8);
  for (std::size_t i = 0; i < f.depth.size(); ++i) {
    at_depth[f.depth[i]].push_back(static_cast<std::uint32_t>(i));
  }
  // A fixed cycle of moves: (child, new parent) pairs, drawn once.
  std::mt19937 rng(7);
  std::vector<std::pair<strata::entity_id, strata::entity_id>> moves;
  for (std::size_t k = 0; k < per_step * 16; ++k) {
    std::uint32_t child = 0;
    do {
      child = static_cast<std::uint32_t>(rng() % f.parent.size());
    } while (f.depth[child] == 0);
    const auto& parents = at_depth[f.depth[child] - 1];
    moves.emplace_back(ids[child], ids[parents[rng() % parents.size()]]);
  }
  std::size_t next = 0;
  for (auto _ : state) reparent_step(ctx, moves, per_step, next);
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(per_step));
}
void reparent_one_percent(benchmark::State& state) { reparent(state, 0); }
// The second argument: re-parents per step.
void reparent_fixed(benchmark::State& state) {
  reparent(state, static_cast<std::size_t>(state.range(1)));
}

void forest_sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 10, 1 << 14, 1 << 18, 1 << 20}) b->Arg(n);
}
void reparent_sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 14, 1 << 18, 1 << 20}) b->Arg(n);
}
// Two world sizes 64 times apart, two change counts 16 times apart.
void reparent_fixed_sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 14, 1 << 20}) {
    for (std::int64_t changes : {256, 4096}) b->Args({n, changes});
  }
}

BENCHMARK(propagate_hand_written)
    ->Name("BM_Propagate/hand_written")
    ->Apply(forest_sizes);
BENCHMARK_CAPTURE(propagate_with_parent, 1t, 1)
    ->Name("BM_Propagate/strata_1t")
    ->Apply(forest_sizes);
BENCHMARK_CAPTURE(propagate_parent_query, 1t, 1)
    ->Name("BM_Propagate/strata_1t_parent_query")
    ->Apply(forest_sizes);
BENCHMARK_CAPTURE(propagate_shuffled, 1t, 1)
    ->Name("BM_Propagate/strata_1t_shuffled")
    ->Apply(forest_sizes);
BENCHMARK_CAPTURE(propagate_with_parent, 2t, 2)
    ->Name("BM_Propagate/strata_2t")
    ->Apply(forest_sizes)
    ->UseRealTime();
BENCHMARK(reparent_one_percent)
    ->Name("BM_Reparent/strata")
    ->Apply(reparent_sizes);
BENCHMARK(reparent_fixed)
    ->Name("BM_ReparentFixed/strata")
    ->Apply(reparent_fixed_sizes);

}  // namespace
