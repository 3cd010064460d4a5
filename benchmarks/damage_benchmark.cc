// Entities acting on other entities: every step each of N entities picks a
// random other entity (a xorshift state of its own) and deals it damage
// equal to its own attack; then the damage is applied. Each variant beside
// its baselines in this binary; items are messages (one per entity and
// step), so items_per_second is messages per second:
//   BM_Damage/baseline_direct/N: one thread, a hand-written loop that adds
//     to the target's accumulated damage directly (no second pass needed).
//   BM_Damage/baseline_buffer_1t/N: one thread fills a buffer of (target,
//     amount) in entity order, then applies it in that order: the least a
//     deferred channel does (what strata_1t_apply does).
//   BM_Damage/baseline_grouped_1t/N: the same buffer, grouped by target
//     with a counting sort, then each entity adds up its own messages: the
//     least a channel that lets split receivers own their targets does
//     (what strata_1t does).
//   BM_Damage/baseline_thread_buffers/N: two threads each fill a buffer of
//     (target, amount) for their half of the entities, then one loop merges
//     the buffers in thread order into the targets: the deterministic
//     parallel pattern written by hand.
//   BM_Damage/strata_1t/N, strata_2t/N: a system that sends damage through
//     the effect channel (context/effect_channel.h) and a system that
//     receives it and adds each entity's messages to its own accumulated
//     damage (messages(tag, self) in for_each); one thread (sequential
//     scheduler), and two threads (atomic_counter, both systems split per
//     core).
//   BM_Damage/strata_1t_apply/N: the same sender; the receiver never
//     splits and applies every message in send order (for_each_message and
//     data.write of the target), so nothing is grouped.
// Every Strata variant also looks its target's id up in a roster (a
// resource), which the hand-written loops above, indexing by number, do
// not. The limit of any ECS that names entities by versioned ids, written
// by hand on one thread:
//   BM_Damage/baseline_checked_direct/N: picks the target's id from the
//     same kind of roster, checks its version against an array of the live
//     ids (the pattern of EnTT's registry.get<T>(id), without its sparse
//     page look-up) and adds to the target's damage at its index: three
//     random reads per message (roster, ids, damage) where the direct loop
//     has one.
//   BM_Damage/baseline_checked_buffer/N: the same pick and check while
//     filling a buffer of (index, amount), applied afterwards: the least a
//     deferred channel over versioned ids does (what strata_1t_apply does).
#include <algorithm>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"
#include "strata.h"

namespace {

using strata::entity_id;

std::uint32_t next_random(std::uint32_t x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}
std::uint32_t first_seed(std::size_t i) {
  return static_cast<std::uint32_t>(i) * 2654435761u + 1u;
}
std::int32_t attack_of(std::size_t i) {
  return 1 + static_cast<std::int32_t>(i % 13);
}

// ------------------------------------------------------------- baselines

// The hand-written loops' world: per entity its random state and attack,
// and the damage it has taken.
struct fighters {
  explicit fighters(std::size_t n) : seed(n), attack(n), taken(n, 0) {
    for (std::size_t i = 0; i < n; ++i) {
      seed[i] = first_seed(i);
      attack[i] = attack_of(i);
    }
  }
  std::vector<std::uint32_t> seed;
  std::vector<std::int32_t> attack;
  std::vector<std::int64_t> taken;
};

void baseline_direct(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  fighters world(n);
  std::vector<std::uint32_t>& seed = world.seed;
  const std::vector<std::int32_t>& attack = world.attack;
  std::vector<std::int64_t>& taken = world.taken;
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      seed[i] = next_random(seed[i]);
      taken[seed[i] % n] += attack[i];
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(taken.data());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Two threads: the calling thread and one worker, meeting at a barrier
// before and after each phase, so no thread is started per step.
class two_threads {
 public:
  explicit two_threads(std::function<void(std::size_t)> work)
      : work_(std::move(work)), worker_([this] {
          for (;;) {
            meet_.arrive_and_wait();
            if (stop_) return;
            work_(1);
            meet_.arrive_and_wait();
          }
        }) {}
  ~two_threads() {
    stop_ = true;
    meet_.arrive_and_wait();
  }
  void run() {
    meet_.arrive_and_wait();
    work_(0);
    meet_.arrive_and_wait();
  }

 private:
  std::function<void(std::size_t)> work_;
  std::barrier<> meet_{2};
  bool stop_ = false;  // ordered by the barrier
  std::jthread worker_;
};

struct hit {
  std::uint32_t target;
  std::int32_t amount;
};

void baseline_buffer_1t(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  fighters world(n);
  std::vector<std::uint32_t>& seed = world.seed;
  const std::vector<std::int32_t>& attack = world.attack;
  std::vector<std::int64_t>& taken = world.taken;
  std::vector<hit> buffer;
  buffer.reserve(n);
  for (auto _ : state) {
    buffer.clear();
    for (std::size_t i = 0; i < n; ++i) {
      seed[i] = next_random(seed[i]);
      buffer.push_back({static_cast<std::uint32_t>(seed[i] % n), attack[i]});
    }
    for (const hit& h : buffer) taken[h.target] += h.amount;
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(taken.data());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void baseline_grouped_1t(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  fighters world(n);
  std::vector<std::uint32_t>& seed = world.seed;
  const std::vector<std::int32_t>& attack = world.attack;
  std::vector<std::int64_t>& taken = world.taken;
  std::vector<hit> buffer;
  buffer.reserve(n);
  std::vector<hit> grouped(n);
  std::vector<std::uint32_t> starts(n + 2);
  for (auto _ : state) {
    buffer.clear();
    for (std::size_t i = 0; i < n; ++i) {
      seed[i] = next_random(seed[i]);
      buffer.push_back({static_cast<std::uint32_t>(seed[i] % n), attack[i]});
    }
    std::fill(starts.begin(), starts.end(), 0u);
    for (const hit& h : buffer) ++starts[h.target + 2];
    for (std::size_t i = 2; i < starts.size(); ++i) starts[i] += starts[i - 1];
    for (const hit& h : buffer) grouped[starts[h.target + 1]++] = h;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::uint32_t k = starts[i]; k < starts[i + 1]; ++k) {
        taken[i] += grouped[k].amount;
      }
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(taken.data());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void baseline_thread_buffers(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  fighters world(n);
  std::vector<std::uint32_t>& seed = world.seed;
  const std::vector<std::int32_t>& attack = world.attack;
  std::vector<std::int64_t>& taken = world.taken;
  std::vector<hit> buffers[2];
  buffers[0].reserve(n / 2 + 1);
  buffers[1].reserve(n / 2 + 1);
  two_threads threads([&](std::size_t t) {
    std::vector<hit>& out = buffers[t];
    out.clear();
    const std::size_t begin = t * n / 2;
    const std::size_t end = (t + 1) * n / 2;
    for (std::size_t i = begin; i < end; ++i) {
      seed[i] = next_random(seed[i]);
      out.push_back({static_cast<std::uint32_t>(seed[i] % n), attack[i]});
    }
  });
  for (auto _ : state) {
    threads.run();
    for (const std::vector<hit>& out : buffers) {
      for (const hit& h : out) taken[h.target] += h.amount;
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(taken.data());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The checked baselines' world: the fighters, the id of each live entity
// at its index (index and version, as Strata's entity ids), and a roster
// of those ids by creation order for the random pick.
struct checked_fighters : fighters {
  static constexpr std::uint32_t kIndexMask = (1u << 22) - 1;
  explicit checked_fighters(std::size_t n) : fighters(n), ids(n), roster(n) {
    for (std::size_t i = 0; i < n; ++i) {
      ids[i] = static_cast<std::uint32_t>(i);  // version 0, like a new id
      roster[i] = ids[i];
    }
  }
  // Whether `id` names the live entity at its index.
  bool alive(std::uint32_t id) const {
    const std::uint32_t index = id & kIndexMask;
    return index < ids.size() && ids[index] == id;
  }
  // Entity i's move in a step, the same in both checked loops: advances its
  // random state, picks `target` from the roster (of n ids) and checks it.
  bool pick_alive_target(std::size_t i, std::size_t n, std::uint32_t& target) {
    seed[i] = next_random(seed[i]);
    target = roster[seed[i] % n];
    return alive(target);
  }
  std::vector<std::uint32_t> ids;
  std::vector<std::uint32_t> roster;
};

void baseline_checked_direct(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  checked_fighters world(n);
  const std::vector<std::int32_t>& attack = world.attack;
  std::vector<std::int64_t>& taken = world.taken;
  std::size_t dropped = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t target;
      if (!world.pick_alive_target(i, n, target)) {
        ++dropped;
        continue;
      }
      taken[target & checked_fighters::kIndexMask] += attack[i];
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(taken.data());
  if (dropped != 0) state.SkipWithError("messages dropped");
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void baseline_checked_buffer(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  checked_fighters world(n);
  const std::vector<std::int32_t>& attack = world.attack;
  std::vector<std::int64_t>& taken = world.taken;
  std::vector<hit> buffer;
  buffer.reserve(n);
  std::size_t dropped = 0;
  for (auto _ : state) {
    buffer.clear();
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t target;
      if (!world.pick_alive_target(i, n, target)) {
        ++dropped;
        continue;
      }
      buffer.push_back({target & checked_fighters::kIndexMask, attack[i]});
    }
    for (const hit& h : buffer) taken[h.target] += h.amount;
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(taken.data());
  if (dropped != 0) state.SkipWithError("messages dropped");
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// ---------------------------------------------------------------- strata

struct fighter {
  std::uint32_t seed = 1;
  std::int32_t attack = 1;
};
struct wounds {
  std::int64_t taken = 0;
};
struct damage {
  std::int32_t amount = 0;
};
// Every entity's id, by creation order: what a random pick indexes.
struct roster {
  std::vector<entity_id> ids;
};
namespace ct {
inline constexpr auto fighter = strata::tag<::fighter>;
inline constexpr auto wounds = strata::tag<::wounds>;
}  // namespace ct
namespace mt {
inline constexpr auto damage = strata::tag<::damage>;
}  // namespace mt

struct strike {
  template <typename Data>
  void process(Data& data) const {
    const std::vector<entity_id>& ids = data.template resource<roster>().ids;
    const std::size_t n = ids.size();
    data.for_each([&](entity_id self, fighter& f) {
      f.seed = next_random(f.seed);
      data.send(self, ids[f.seed % n], damage{f.attack});
    });
  }
};
struct absorb {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, wounds& w) {
      for (const auto& m : data.messages(mt::damage, self)) {
        w.taken += m.value.amount;
      }
    });
  }
};
// Never splits: applies every message in send order, writing the target.
struct apply {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_message(mt::damage, [&](const auto& m) {
      data.write(ct::wounds, m.target).taken += m.value.amount;
    });
  }
};
namespace st {
inline constexpr auto strike = strata::tag<::strike>;
inline constexpr auto absorb = strata::tag<::absorb>;
inline constexpr auto apply = strata::tag<::apply>;
}  // namespace st

constexpr auto kSystems = strata::system_signatures(
    strata::system_signature::make(st::strike)
        .write(ct::fighter)
        .read_resource<roster>()
        .sends<damage>()
        .parallelism(strata::inner_parallelism::split_evenly_per_core()),
    strata::system_signature::make(st::absorb)
        .write(ct::wounds)
        .receives<damage>()
        .dependencies(st::strike)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()));

constexpr auto kBase =
    strata::settings()
        .resources(strata::resources(strata::resource<roster>))
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::fighter),
            strata::component_signature::make(ct::wounds)));
constexpr auto kOneThread = kBase.system_signatures(kSystems)
                                .scheduler(strata::scheduler::sequential)
                                .threads(1);
constexpr auto kOneThreadApply =
    kBase.scheduler(strata::scheduler::sequential)
        .threads(1)
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::strike)
                .write(ct::fighter)
                .read_resource<roster>()
                .sends<damage>()
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::apply)
                .write(ct::wounds)
                .receives<damage>()
                .dependencies(st::strike)
                .parallelism(strata::inner_parallelism::none())));
constexpr auto kTwoThreads = kBase.system_signatures(kSystems)
                                 .allow_inner_parallelism()
                                 .scheduler(strata::scheduler::atomic_counter)
                                 .threads(2);

template <const auto& Settings>
void strata_damage(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto ctx = strata::make_context<Settings>();
  std::vector<entity_id>& ids = ctx.template resource<roster>().ids;
  ids.reserve(n);
  ctx.step([&](auto& proxy) {
    for (std::size_t i = 0; i < n; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::fighter, e, fighter{first_seed(i), attack_of(i)});
      proxy.add_component(ct::wounds, e);
      ids.push_back(e);
    }
  });
  const auto frame = [](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };
  ctx.step(frame);  // buffers at their steady size
  for (auto _ : state) ctx.step(frame);
  if (ctx.dropped_messages() != 0) state.SkipWithError("messages dropped");
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void damage_counts(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1 << 14, 1 << 18, 1 << 20}) b->Arg(n);
}

BENCHMARK(baseline_direct)
    ->Name("BM_Damage/baseline_direct")
    ->Apply(damage_counts);
BENCHMARK(baseline_buffer_1t)
    ->Name("BM_Damage/baseline_buffer_1t")
    ->Apply(damage_counts);
BENCHMARK(baseline_grouped_1t)
    ->Name("BM_Damage/baseline_grouped_1t")
    ->Apply(damage_counts);
BENCHMARK(baseline_checked_direct)
    ->Name("BM_Damage/baseline_checked_direct")
    ->Apply(damage_counts);
BENCHMARK(baseline_checked_buffer)
    ->Name("BM_Damage/baseline_checked_buffer")
    ->Apply(damage_counts);
BENCHMARK(baseline_thread_buffers)
    ->Name("BM_Damage/baseline_thread_buffers")
    ->Apply(damage_counts)
    ->UseRealTime();
BENCHMARK(strata_damage<kOneThread>)
    ->Name("BM_Damage/strata_1t")
    ->Apply(damage_counts);
BENCHMARK(strata_damage<kOneThreadApply>)
    ->Name("BM_Damage/strata_1t_apply")
    ->Apply(damage_counts);
BENCHMARK(strata_damage<kTwoThreads>)
    ->Name("BM_Damage/strata_2t")
    ->Apply(damage_counts)
    ->UseRealTime();

}  // namespace
