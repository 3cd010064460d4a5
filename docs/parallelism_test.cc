// The snippets of docs/guide/03-parallelism.md, compiled and run. The text
// between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <cstddef>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct value {
  int v;
};
namespace ct {
inline constexpr auto value = strata::tag<::value>;
}  // namespace ct

// --- snippet: subtask-view ---
struct doubler {
  template <typename Data>
  void process(Data& data) const {
    // Each subtask sees its own slice of the system's entities, in index
    // order; slices differ in size by at most one.
    data.for_each([](value& x) { x.v *= 2; });
    data.output() = data.subtask_index() * 1000 + data.slice_entity_count();
    (void)data.subtask_count();     // how many slices this run has
    (void)data.subscribed_count();  // the system's entities, every slice
    data.for_other_entities([](strata::entity_id) {});  // outside the slice
    data.for_all_entities([](strata::entity_id) {});    // every slice
  }
};
// --- end snippet ---

template <int I>
struct reader {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](const value&) {});
  }
};

// --- snippet: custom-strategy ---
// Any type with subtasks(entities, threads) is a strategy; describe() is
// optional and names it in the DOT graph.
struct one_per_1000 {
  constexpr std::size_t subtasks(std::size_t entities, std::size_t) const {
    return entities / 1000;  // clamped by the context to [1, entities]
  }
  std::string describe() const { return "one_per_1000"; }
};
// --- end snippet ---

namespace st {
inline constexpr auto doubler = strata::tag<::doubler>;
}  // namespace st

// --- snippet: strategies ---
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::doubler)
        .write(ct::value)
        .parallelism(strata::inner_parallelism::split_evenly(3))
        .output<std::size_t>(),
    strata::system_signature::make(strata::tag<reader<0>>)
        .read(ct::value)
        .dependencies(st::doubler)
        .parallelism(strata::inner_parallelism::split_every_n(1000)),
    strata::system_signature::make(strata::tag<reader<1>>)
        .read(ct::value)
        .dependencies(st::doubler)
        .parallelism(strata::inner_parallelism_composer::none_below_threshold(
            10'000, strata::inner_parallelism::split_evenly_per_core())),
    strata::system_signature::make(strata::tag<reader<2>>)
        .read(ct::value)
        .dependencies(st::doubler)
        .parallelism(strata::inner_parallelism_composer::fixed_threshold(
            2'000, one_per_1000{}, strata::inner_parallelism::none())),
    strata::system_signature::make(
        strata::tag<reader<3>>)  // no .parallelism(...):
        .read(ct::value)         // inner_parallelism::automatic()
        .dependencies(st::doubler));
// --- end snippet ---

// --- snippet: threads ---
constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::value)))
        .system_signatures(systems)
        .allow_inner_parallelism()  // off by default: one subtask each
        .scheduler(strata::scheduler::atomic_counter)  // default: sequential
        .threads(4)  // the caller and 3 pool workers; default: all cores
        .hand_off(strata::hand_off::automatic)  // the default
        .refresh_parallelism(true);             // the default
// --- end snippet ---

template <typename Context>
std::vector<std::size_t> subtask_counts(Context& ctx) {
  std::vector<std::size_t> counts;
  ctx.step([&](auto& proxy) {
    counts = {proxy.instance(st::doubler).subtask_count(),
              proxy.instance(strata::tag<reader<0>>).subtask_count(),
              proxy.instance(strata::tag<reader<1>>).subtask_count(),
              proxy.instance(strata::tag<reader<2>>).subtask_count(),
              proxy.instance(strata::tag<reader<3>>).subtask_count()};
  });
  return counts;
}

TEST(ParallelismGuideTest, RunOptionsPickThreadsAndSchedulerAtRunTime) {
  const std::size_t threads_flag = 2;  // as if from --threads=2
  const bool sequential_flag = true;   // as if from --scheduler=sequential
  // --- snippet: run-options ---
  auto ctx = strata::make_context<settings>(
      strata::run_options()
          .threads(threads_flag)  // instead of the settings' threads(4)
          .scheduler(sequential_flag ? strata::scheduler_kind::sequential
                                     : strata::scheduler_kind::atomic_counter));
  EXPECT_EQ(ctx.thread_count(), 2u);
  // --- end snippet ---
}

TEST(ParallelismGuideTest, StrategiesSplitAsDocumented) {
  // --- snippet: run ---
  auto ctx = strata::make_context(settings);
  EXPECT_EQ(ctx.thread_count(), 4u);
  ctx.step([](auto& proxy) {
    proxy.create_entities(3'500, [](value& x) { x.v = 1; });
  });
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
    std::vector<std::size_t> outputs;
    proxy.for_system_outputs(st::doubler, [&](doubler&, std::size_t out) {
      outputs.push_back(out);
    });
    // split_evenly(3) of 3500: slices of 1166, 1167 and 1167.
    EXPECT_EQ(outputs, (std::vector<std::size_t>{1166, 2167, 3167}));
  });
  // --- end snippet ---
  // split_evenly(3), split_every_n(1000), none below 10000, one_per_1000
  // from 2000 up, automatic with no measured cost yet.
  EXPECT_EQ(subtask_counts(ctx), (std::vector<std::size_t>{3, 4, 1, 3, 1}));
  ctx.for_each([](const value& x) { EXPECT_EQ(x.v, 2); });
}

TEST(ParallelismGuideTest, HandOffModesAndDisallowedInnerParallelism) {
  // --- snippet: hand-off ---
  constexpr auto forced =
      strata::settings()
          .component_signatures(strata::component_signatures(
              strata::component_signature::make(ct::value)))
          .system_signatures(systems)
          .allow_inner_parallelism()
          .scheduler(strata::scheduler::atomic_counter)
          .threads(4)
          .hand_off(strata::hand_off::always);
  auto ctx = strata::make_context(forced);
  ctx.step([](auto& proxy) {
    proxy.create_entities(100, [](value& x) { x.v = 1; });
  });
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
    // Under hand_off::always, inner_parallelism::automatic() splits as for
    // unbounded work: 4 slices per thread, 16 on 4 threads (under
    // hand_off::never: one subtask).
    EXPECT_EQ(proxy.instance(strata::tag<reader<3>>).subtask_count(), 16u);
  });
  // --- end snippet ---
}

}  // namespace
