// Ordering: under the atomic_counter scheduler every system starts only after
// all of its (selected) dependencies ended. Each system takes a number from
// one global sequence counter when it starts and another when it ends (around
// all of its subtasks); after each step the test checks, for every executed
// system and every dependency that executed in the same call,
// end[dependency] < start[system]. Also: each selected system ran exactly
// once, unselected systems did not run, and execute_systems_from runs exactly
// the chain (the starts and everything that depends on them, transitively).
// Runs many steps with 2 and 8 threads on a diamond and on random DAGs
// (dependencies from random_dag_testing.h's generator), with subtasks that do
// enough work for systems to overlap.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "context/context.h"
#include "context/random_dag_testing.h"
#include "gtest/gtest.h"
#include "testing/components.h"
#include "testing/timeout.h"

namespace {

using strata::entity_id;
using strata::testing::mix64;

constexpr std::size_t kMaxSystems = 32;

// What the systems record during one execute call.
struct recorder {
  std::atomic<std::int64_t> sequence{0};
  std::array<std::atomic<std::int64_t>, kMaxSystems> start{};
  std::array<std::atomic<std::int64_t>, kMaxSystems> end{};
  std::array<std::atomic<int>, kMaxSystems> runs{};

  void reset() {
    sequence = 0;
    for (auto& r : runs) r = 0;
    for (auto& s : start) s = -1;
    for (auto& e : end) e = -1;
  }
};

// A system that only burns a little time per entity (so systems overlap).
template <typename Tag, std::size_t I>
struct busy_system {
  std::uint64_t sink = 0;
  template <typename Data>
  void process(Data& data) const {
    std::uint64_t h = I;
    data.for_entities([&](entity_id e) {
      for (int k = 0; k < 20; ++k) h = mix64(h + e.index());
    });
    data.output() += h;
  }
};

// depends[i][j] (i depends on j) for the systems of a list, from the
// library's graph; the test checks the recorded order against it.
template <typename Systems>
constexpr auto depends_of(const Systems&) {
  return Systems::graph.depends;
}

// Runs `steps` steps of `execute(proxy)` and checks the order after each.
// `expected_run[i]`: whether system i must run in each step.
template <std::size_t N, typename Ctx, typename Execute>
void check_steps(Ctx& ctx, recorder& rec,
                 const std::array<std::array<bool, N>, N>& depends,
                 const std::array<bool, N>& expected_run, int steps,
                 Execute execute) {
  for (int step = 0; step < steps; ++step) {
    rec.reset();
    ctx.step([&](auto& proxy) { execute(proxy); });
    for (std::size_t i = 0; i < N; ++i) {
      ASSERT_EQ(rec.runs[i].load(), expected_run[i] ? 1 : 0)
          << "system " << i << " at step " << step;
      if (!expected_run[i]) continue;
      ASSERT_LT(rec.start[i].load(), rec.end[i].load());
      for (std::size_t j = 0; j < N; ++j) {
        if (!depends[i][j] || !expected_run[j]) continue;
        ASSERT_LT(rec.end[j].load(), rec.start[i].load())
            << "system " << i << " started before its dependency " << j
            << " ended, at step " << step;
      }
    }
  }
}

// The adapter: records start and end around all subtasks of a system.
auto recording_adapter(recorder& rec) {
  return strata::execution_adapter::all().detailed_instance(
      [&rec](auto& instance, auto& executor) {
        constexpr std::size_t id =
            std::remove_reference_t<decltype(instance)>::id;
        rec.start[id] = rec.sequence.fetch_add(1);
        executor.for_subtasks(
            [](auto& system, auto& data) { system.process(data); });
        rec.end[id] = rec.sequence.fetch_add(1);
        rec.runs[id].fetch_add(1);
      });
}

namespace ct = strata::testing::ct;

template <typename Ctx>
void populate(Ctx& ctx, int entities) {
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < entities; ++i)
      proxy.add_component(ct::position, proxy.create_entity());
  });
}

// ---- Diamond: a -> (b, c) -> d, plus an independent e. -------------------

struct diamond_tag {};
using sa = busy_system<diamond_tag, 0>;
using sb = busy_system<diamond_tag, 1>;
using sc = busy_system<diamond_tag, 2>;
using sd = busy_system<diamond_tag, 3>;
using se = busy_system<diamond_tag, 4>;
constexpr auto diamond = strata::system_signatures(
    strata::system_signature::make(strata::tag<sa>)
        .read(ct::position)
        .parallelism(strata::inner_parallelism::split_evenly_per_core())
        .output<std::uint64_t>(),
    strata::system_signature::make(strata::tag<sb>)
        .read(ct::position)
        .dependencies(strata::tag<sa>)
        .parallelism(strata::inner_parallelism::split_evenly(3))
        .output<std::uint64_t>(),
    strata::system_signature::make(strata::tag<sc>)
        .read(ct::position)
        .dependencies(strata::tag<sa>)
        .parallelism(strata::inner_parallelism::split_every_n(7))
        .output<std::uint64_t>(),
    strata::system_signature::make(strata::tag<sd>)
        .read(ct::position)
        .dependencies(strata::tag<sb>, strata::tag<sc>)
        .parallelism(strata::inner_parallelism::split_evenly(4))
        .output<std::uint64_t>(),
    strata::system_signature::make(strata::tag<se>)
        .read(ct::position)
        .parallelism(strata::inner_parallelism::split_evenly(2))
        .output<std::uint64_t>());
constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position));

// (threads, hand-off mode): 0, 1, 2 and 8 workers, the hand-off decisions
// automatic and forced both ways.
class OrderingTest : public ::testing::TestWithParam<
                         std::tuple<std::size_t, strata::hand_off>> {
 protected:
  std::size_t threads() const { return std::get<0>(GetParam()); }
  strata::hand_off mode() const { return std::get<1>(GetParam()); }
};

TEST_P(OrderingTest, DiamondAllAndPartialChains) {
  strata::testing::run_with_timeout(std::chrono::seconds(60), "diamond", [&] {
    auto ctx =
        strata::make_context(strata::settings()
                                 .allow_inner_parallelism()
                                 .component_signatures(components)
                                 .system_signatures(diamond)
                                 .scheduler(strata::scheduler::atomic_counter)
                                 .threads(threads())
                                 .hand_off(mode()));
    populate(ctx, 64);
    recorder rec;
    constexpr auto depends = depends_of(diamond);
    check_steps<5>(
        ctx, rec, depends, {true, true, true, true, true}, 300,
        [&](auto& proxy) { proxy.execute_systems()(recording_adapter(rec)); });
    // From b: b and d run; d's other dependency c is outside the chain.
    check_steps<5>(
        ctx, rec, depends, {false, true, false, true, false}, 100,
        [&](auto& proxy) {
          proxy.execute_systems_from(strata::tag<sb>)(recording_adapter(rec));
        });
    // From b and c: d waits for both.
    check_steps<5>(ctx, rec, depends, {false, true, true, true, false}, 100,
                   [&](auto& proxy) {
                     proxy.execute_systems_from(
                         strata::tag<sb>,
                         strata::tag<sc>)(recording_adapter(rec));
                   });
    check_steps<5>(
        ctx, rec, depends, {false, false, false, false, true}, 50,
        [&](auto& proxy) {
          proxy.execute_systems_from(strata::tag<se>)(recording_adapter(rec));
        });
  });
}

// ---- Random DAGs. ----------------------------------------------------------

template <typename Dag, std::size_t I>
struct dag_system : busy_system<Dag, I> {};

template <typename Dag, std::size_t I>
constexpr auto dag_signature() {
  using in = typename Dag::template info<I>;
  return []<std::size_t... D>(std::index_sequence<D...>) {
    return strata::system_signature::make(strata::tag<dag_system<Dag, I>>)
        .read(ct::position)
        .dependencies(strata::tag<dag_system<Dag, in::deps[D]>>...)
        .parallelism(strata::testing::strategy_for<Dag::spec.strategy[I]>())
        .template output<std::uint64_t>();
  }
  (std::make_index_sequence<in::deps.size()>{});
}

template <typename Dag>
constexpr auto dag_systems() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return strata::system_signatures(dag_signature<Dag, I>()...);
  }
  (std::make_index_sequence<Dag::count>{});
}

// Chain of `starts` by the generator's own closure (not the library's).
template <typename Dag>
std::array<bool, Dag::count> chain_of(std::array<bool, Dag::count> starts) {
  std::array<bool, Dag::count> in = starts;
  for (std::size_t s = 0; s < Dag::count; ++s) {
    if (!starts[s]) continue;
    for (std::size_t i = 0; i < Dag::count; ++i)
      in[i] = in[i] || Dag::spec.before[s][i];
  }
  return in;
}

template <typename Dag>
void check_random_dag(std::size_t threads, strata::hand_off mode) {
  static constexpr auto systems = dag_systems<Dag>();
  constexpr std::size_t n = Dag::count;
  static_assert(n <= kMaxSystems);
  auto ctx =
      strata::make_context(strata::settings()
                               .allow_inner_parallelism()
                               .component_signatures(components)
                               .system_signatures(systems)
                               .scheduler(strata::scheduler::atomic_counter)
                               .threads(threads)
                               .hand_off(mode));
  populate(ctx, 100);
  recorder rec;
  // The test checks against the generator's edges; they must be the
  // library's too.
  static_assert(depends_of(systems) == Dag::spec.depends);
  std::array<bool, n> all{};
  all.fill(true);
  check_steps<n>(ctx, rec, Dag::spec.depends, all, 200, [&](auto& proxy) {
    proxy.execute_systems()(recording_adapter(rec));
  });
  auto from = [&](auto... tags) {
    std::array<bool, n> starts{};
    ((starts[decltype(systems)::id(tags)] = true), ...);
    check_steps<n>(
        ctx, rec, Dag::spec.depends, chain_of<Dag>(starts), 50,
        [&](auto& proxy) {
          proxy.execute_systems_from(tags...)(recording_adapter(rec));
        });
  };
  from(strata::tag<dag_system<Dag, 1>>);
  from(strata::tag<dag_system<Dag, n / 2>>);
  from(strata::tag<dag_system<Dag, 3>>, strata::tag<dag_system<Dag, n / 3>>);
  from(strata::tag<dag_system<Dag, n - 2>>);
}

using dag_a = strata::testing::random_dag<11, 24, 20>;
using dag_b = strata::testing::random_dag<12, 32, 15>;

TEST_P(OrderingTest, RandomDag24) {
  strata::testing::run_with_timeout(
      std::chrono::seconds(60), "random dag",
      [&] { check_random_dag<dag_a>(threads(), mode()); });
}
TEST_P(OrderingTest, RandomDag32) {
  strata::testing::run_with_timeout(
      std::chrono::seconds(60), "random dag",
      [&] { check_random_dag<dag_b>(threads(), mode()); });
}

std::string param_name(
    const ::testing::TestParamInfo<OrderingTest::ParamType>& info) {
  const char* const modes[] = {"automatic", "always", "never"};
  return "threads" + std::to_string(std::get<0>(info.param)) + "_" +
         modes[static_cast<int>(std::get<1>(info.param))];
}

INSTANTIATE_TEST_SUITE_P(
    Threads, OrderingTest,
    ::testing::Combine(::testing::Values(std::size_t{1}, std::size_t{2},
                                         std::size_t{3}, std::size_t{9}),
                       ::testing::Values(strata::hand_off::automatic,
                                         strata::hand_off::always,
                                         strata::hand_off::never)),
    param_name);

}  // namespace
