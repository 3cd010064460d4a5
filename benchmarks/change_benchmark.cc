// The cost of change filters (scheduler/system_signature.h .changed/.added,
// context/internal/change_stamps.h), each beside its baseline in this
// binary:
//   BM_SystemsUpdateTracking/untracked|tracked/N: SystemsUpdate (movement,
//     data) plus an idle system reading position, without and with
//     .changed(ct::position): what tracking adds to movement's for_each
//     (one log entry per dense run). One thread.
//   BM_ChangedOnePercent/baseline_dirty_list|strata_1t/N: each step 1% of
//     N positions are written (a different 1% each step), then read by a
//     second pass: by hand, a write that appends the index to a dirty list
//     and a loop over that list; in Strata, a mover writing through
//     data.write and a .changed(ct::position) system with for_each.
//   BM_AddComponentHook/baseline|strata_no_hook|strata_hook/N: each
//     iteration gives a marker component to N entities in one step and
//     takes it back in the next; items are the adds. By hand: a vector of
//     optional markers and a call per add and per remove; in Strata, the
//     same steps without hooks and with on_add and on_remove hooks that
//     count (context/hooks.h). Time per item is the cost per add_component
//     plus its remove_component, with their refreshes. One thread.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "benchmark/benchmark.h"
#include "benchmarks/scenario.h"

namespace bench {
namespace {

// ------------------------------------------------------- tracking overhead

// Reads nothing: its signature alone decides whether position is tracked.
template <bool Tracked>
struct idle_watcher {
  template <typename Data>
  void process(float, Data&) {}
};
template <bool Tracked>
inline constexpr auto idle = strata::tag<idle_watcher<Tracked>>;

template <bool Tracked>
constexpr auto watcher_signature() {
  constexpr auto base = strata::system_signature::make(idle<Tracked>)
                            .read(ct::position)
                            .dependencies(st::movement<access::typed>);
  if constexpr (Tracked) {
    return base.changed(ct::position);
  } else {
    return base;
  }
}

template <bool Tracked>
inline constexpr auto kTrackingSystems = strata::system_signatures(
    strata::system_signature::make(st::movement<access::typed>)
        .read(ct::velocity)
        .write(ct::position),
    strata::system_signature::make(st::data<access::typed>).write(ct::data),
    watcher_signature<Tracked>());

template <bool Tracked>
void systems_update_tracking(benchmark::State& state) {
  const auto settings = settings_1t(kTrackingSystems<Tracked>);
  strata_world<decltype(settings)> world(
      settings, static_cast<std::size_t>(state.range(0)), mix::full);
  for (auto _ : state) world.update();
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// ------------------------------------------- 1% changed: filter vs list

// The ids moved this step (set before each step, read by the mover).
std::vector<strata::entity_id> to_move;

struct sparse_mover {
  template <typename Data>
  void process(float, Data& d) {
    for (strata::entity_id e : to_move) d.write(ct::position, e).x += 1;
  }
};
struct moved_reader {
  float sum = 0;
  template <typename Data>
  void process(float, Data& d) {
    d.for_each([this](const position& p) { sum += p.x + p.y; });
  }
};
inline constexpr auto kChangedSystems = strata::system_signatures(
    strata::system_signature::make(strata::tag<sparse_mover>)
        .write(ct::position),
    strata::system_signature::make(strata::tag<moved_reader>)
        .read(ct::position)
        .changed(ct::position)
        .dependencies(strata::tag<sparse_mover>));

// The 1% of [0, n) moved in step `step`: every 100th index, shifted.
template <typename F>
void for_moved(std::size_t n, std::size_t step, F&& f) {
  for (std::size_t i = step % 100; i < n; i += 100) f(i);
}

void changed_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto settings = settings_1t(kChangedSystems);
  strata_world<decltype(settings)> world(settings, n, mix::full);
  to_move.reserve(n / 100 + 1);
  std::size_t step = 0;
  for (auto _ : state) {
    to_move.clear();
    for_moved(n, step++,
              [&](std::size_t i) { to_move.push_back(world.ids[i]); });
    world.update();
  }
  world.ctx.step([](auto& proxy) {
    benchmark::DoNotOptimize(proxy.system(strata::tag<moved_reader>).sum);
  });
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(n / 100));
}

void changed_baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<position> positions(n);
  std::vector<std::uint32_t> ids;
  std::vector<std::uint32_t> dirty;
  std::vector<std::uint8_t> is_dirty(n, 0);
  ids.reserve(n / 100 + 1);
  dirty.reserve(n / 100 + 1);
  float sum = 0;
  std::size_t step = 0;
  for (auto _ : state) {
    ids.clear();
    for_moved(n, step++, [&](std::size_t i) {
      ids.push_back(static_cast<std::uint32_t>(i));
    });
    for (std::uint32_t i : ids) {
      positions[i].x += 1;
      if (!is_dirty[i]) {
        is_dirty[i] = 1;
        dirty.push_back(i);
      }
    }
    for (std::uint32_t i : dirty) {
      sum += positions[i].x + positions[i].y;
      is_dirty[i] = 0;
    }
    dirty.clear();
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(n / 100));
}

// ------------------------------------------------ hook dispatch per add

struct marker {
  float value = 0;
};
struct hook_counts {
  std::int64_t added = 0, removed = 0;
};
inline constexpr auto marker_tag = strata::tag<marker>;

inline constexpr auto kMarkerHooks = strata::component_hooks(
    strata::hook(marker_tag)
        .on_add([](auto& proxy, strata::entity_id, marker&) {
          ++proxy.template resource<hook_counts>().added;
        })
        .on_remove([](auto& proxy, strata::entity_id, const marker&) {
          ++proxy.template resource<hook_counts>().removed;
        })
        .resources(strata::resource<hook_counts>));

template <bool Hooked>
constexpr auto marker_settings() {
  constexpr auto base =
      strata::settings()
          .component_signatures(strata::component_signatures(
              strata::component_signature::make(ct::position),
              strata::component_signature::make(marker_tag)))
          .resources(strata::resources(strata::resource<hook_counts>))
          .scheduler(strata::scheduler::sequential)
          .threads(1);
  if constexpr (Hooked) {
    return base.hooks(kMarkerHooks);
  } else {
    return base;
  }
}

template <bool Hooked>
void add_component_strata(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto ctx = strata::make_context(marker_settings<Hooked>());
  std::vector<strata::entity_id> ids;
  ids.reserve(n);
  ctx.step([&](auto& proxy) {
    for (std::size_t i = 0; i < n; ++i) {
      ids.push_back(proxy.create_entity());
      proxy.add_component(ct::position, ids.back());
    }
  });
  for (auto _ : state) {
    ctx.step([&](auto& proxy) {
      for (strata::entity_id e : ids) proxy.add_component(marker_tag, e, 1.f);
    });
    ctx.step([&](auto& proxy) {
      for (strata::entity_id e : ids) proxy.remove_component(marker_tag, e);
    });
  }
  benchmark::DoNotOptimize(ctx.template resource<hook_counts>().added);
  if (Hooked && ctx.template resource<hook_counts>().removed !=
                    static_cast<std::int64_t>(n) * state.iterations()) {
    state.SkipWithError("a hook did not run");
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void add_component_baseline(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::optional<marker>> markers(n);
  hook_counts counts;
  const auto on_add = [&](std::size_t, marker&) { ++counts.added; };
  const auto on_remove = [&](std::size_t, const marker&) { ++counts.removed; };
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      on_add(i, markers[i].emplace(marker{1.f}));
    }
    for (std::size_t i = 0; i < n; ++i) {
      on_remove(i, *markers[i]);
      markers[i].reset();
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(counts.added + counts.removed);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void hook_counts_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 10, 1 << 14, 1 << 18}) b->Arg(n);
}

void changed_counts(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 14, 1 << 18, 1 << 20}) b->Arg(n);
}

BENCHMARK(systems_update_tracking<false>)
    ->Name("BM_SystemsUpdateTracking/untracked")
    ->Apply(entity_counts);
BENCHMARK(systems_update_tracking<true>)
    ->Name("BM_SystemsUpdateTracking/tracked")
    ->Apply(entity_counts);
BENCHMARK(changed_baseline)
    ->Name("BM_ChangedOnePercent/baseline_dirty_list")
    ->Apply(changed_counts);
BENCHMARK(changed_strata)
    ->Name("BM_ChangedOnePercent/strata_1t")
    ->Apply(changed_counts);
BENCHMARK(add_component_baseline)
    ->Name("BM_AddComponentHook/baseline")
    ->Apply(hook_counts_args);
BENCHMARK(add_component_strata<false>)
    ->Name("BM_AddComponentHook/strata_no_hook")
    ->Apply(hook_counts_args);
BENCHMARK(add_component_strata<true>)
    ->Name("BM_AddComponentHook/strata_hook")
    ->Apply(hook_counts_args);

}  // namespace
}  // namespace bench
