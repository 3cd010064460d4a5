// The snippets of docs/guide/04-outputs-and-adapters.md, compiled and run.
// The text between `// --- snippet: NAME ---` and `// --- end snippet ---`
// is the page's code block NAME (docs:check_snippets_test).
#include <atomic>
#include <cstddef>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct position {
  float x, y;
};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
}  // namespace ct

// --- snippet: output-systems ---
struct contact {
  strata::entity_id entity;
  float depth;
};

// Finds entities below the floor; each subtask fills its own vector.
struct detect {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, const position& p) {
      if (p.y < 0) data.output().push_back({e, -p.y});
    });
  }
};

// Reads every subtask output of detect (a dependency) and pushes back: one
// subtask, the only kind that may write entities by id (3. Parallelism).
struct solve {
  template <typename Data>
  void process(Data& data) const {
    data.for_previous_outputs(strata::tag<detect>,
                              [&](detect&, const std::vector<contact>& found) {
                                for (const contact& c : found) {
                                  data.get(ct::position, c.entity).y += c.depth;
                                  ++data.output();
                                }
                              });
  }
};
// --- end snippet ---

struct gravity {
  static constexpr std::string_view name = "gravity";
  static constexpr bool takes_dt =
      true;  // see execution_adapter::matching below
  template <typename Data>
  void process(float dt, Data& data) const {
    data.for_each([dt](position& p) { p.y -= dt; });
  }
};

namespace st {
inline constexpr auto gravity = strata::tag<::gravity>;
inline constexpr auto detect = strata::tag<::detect>;
inline constexpr auto solve = strata::tag<::solve>;
}  // namespace st

// --- snippet: output-signatures ---
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::gravity).write(ct::position),
    strata::system_signature::make(st::detect)
        .read(ct::position)
        .dependencies(st::gravity)
        .parallelism(strata::inner_parallelism::split_evenly(2))
        .output<std::vector<contact>>(),  // reset (clear()) before each run
    strata::system_signature::make(st::solve)
        .write(ct::position)
        .dependencies(st::detect)  // required to read detect's outputs
        .parallelism(strata::inner_parallelism::none())  // writes by id
        .output<int>());  // reset to 0 before each run
// --- end snippet ---

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position)))
        .system_signatures(systems)
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2);

auto make_world() {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 4; ++i) {
      proxy.add_component(ct::position, proxy.create_entity(), 0.f,
                          static_cast<float>(i));
    }
  });
  return ctx;
}

TEST(OutputsGuideTest, AdaptersAndOutputs) {
  auto ctx = make_world();
  // --- snippet: adapters ---
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(
        // The first adapter whose selector matches a system runs it.
        strata::execution_adapter::t(st::gravity)
            .for_subtasks(
                [](auto& system, auto& data) { system.process(1.5f, data); }),
        strata::execution_adapter::all().for_subtasks(
            [](auto& system, auto& data) { system.process(data); }));

    std::size_t contacts = 0;  // detect's outputs, one per subtask
    proxy.for_system_outputs(st::detect,
                             [&](detect&, const std::vector<contact>& found) {
                               contacts += found.size();
                             });
    EXPECT_EQ(contacts, 2u);  // y = 0 and 1 fell below 0
    proxy.for_system_outputs(st::solve,
                             [](solve&, int fixed) { EXPECT_EQ(fixed, 2); });
  });
  // --- end snippet ---
  ctx.for_each([](const position& p) { EXPECT_GE(p.y, 0.f); });
}

TEST(OutputsGuideTest, MatchingAndDetailedInstance) {
  auto ctx = make_world();
  // --- snippet: detailed ---
  std::size_t merged = 0;
  ctx.step([&](auto& proxy) {
    proxy.execute_systems()(
        strata::execution_adapter::matching([](auto tag) {
          return requires { strata::tag_type<decltype(tag)>::takes_dt; };
        }).for_subtasks([](auto& system, auto& data) {
          system.process(2.f, data);
        }),
        strata::execution_adapter::t(st::detect)
            .detailed_instance([&](auto& instance, auto& executor) {
              executor.for_subtasks(
                  [](auto& system, auto& data) { system.process(data); });
              // Right after the subtasks, before any dependent starts.
              instance.for_outputs([&](detect&, std::vector<contact>& found) {
                merged += found.size();
              });
            }),
        strata::execution_adapter::all().for_subtasks(
            [](auto& system, auto& data) { system.process(data); }));
  });
  EXPECT_EQ(merged, 2u);  // y = 0 and 1 fell to -2 and -1
  // --- end snippet ---
}

TEST(OutputsGuideTest, ExecuteSystemsFrom) {
  auto ctx = make_world();
  // --- snippet: execute-from ---
  ctx.step([](auto& proxy) {
    std::atomic<int> runs = 0;
    // detect and everything that depends on it; gravity does not run.
    proxy.execute_systems_from(st::detect)(
        strata::execution_adapter::all().for_subtasks(
            [&runs](auto& system, auto& data) {
              ++runs;  // subtasks may run on several threads at once
              system.process(data);
            }));
    EXPECT_EQ(runs.load(), 3);  // detect's 2 subtasks, solve's 1
  });
  // --- end snippet ---
}

}  // namespace
