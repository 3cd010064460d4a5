// The snippets of docs/guide/07-tracing-and-graphs.md, compiled and run. The
// text between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>

#include "context/trace_summary.h"
#include "gtest/gtest.h"
#include "scheduler/dot.h"
#include "strata.h"

namespace {

// --- snippet: names ---
struct position {
  static constexpr std::string_view name = "position";
  float x;
};
struct velocity {
  static constexpr std::string_view name = "velocity";
  float x;
};
struct push {
  static constexpr std::string_view name = "push";  // else the type's name
  template <typename Data>
  void process(Data& data) {
    data.for_each([](velocity& v) { v.x += 1; });
  }
};
struct drift {
  static constexpr std::string_view name = "drift";
  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) { p.x += v.x; });
  }
};
// --- end snippet ---

namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
}  // namespace ct

namespace st {
inline constexpr auto push = strata::tag<::push>;
inline constexpr auto drift = strata::tag<::drift>;
}  // namespace st

constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::push)
        .write(ct::velocity)
        .parallelism(strata::inner_parallelism::none()),
    strata::system_signature::make(st::drift)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::push));

// --- snippet: trace-settings ---
constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity)))
        .system_signatures(systems)
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2)
        .trace();  // off by default, then compiled out
// --- end snippet ---

TEST(TracingGuideTest, TraceJsonAndSummary) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    proxy.create_entities(100, [](position& p, velocity& v) {
      p.x = 0;
      v.x = 0;
    });
  });
  // --- snippet: trace ---
  for (int i = 0; i < 3; ++i) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  }
  std::size_t runs = 0;  // event kinds: system, subtask, refresh
  for (const strata::trace_event& e : ctx.trace().events()) {
    if (e.what == strata::trace_event::kind::system) ++runs;
  }
  EXPECT_EQ(runs, 6u);  // 2 systems, 3 steps

  std::ostringstream json;  // e.g. a std::ofstream("trace.json")
  ctx.write_trace_json(json);
  EXPECT_EQ(json.str().rfind("{\"traceEvents\":[", 0), 0u);

  const strata::trace_summary summary = strata::summarize(ctx.trace());
  EXPECT_EQ(summary.systems()[1].name, "drift");  // indexed by system id
  EXPECT_EQ(summary.systems()[1].runs.count(), 3u);
  EXPECT_GE(summary.systems()[1].runs.percentile_ns(95), 0);
  EXPECT_EQ(summary.refresh().count(), 4u);  // one per step
  const std::string table = strata::format_trace_summary(summary);
  EXPECT_NE(table.find("drift"), std::string::npos);
  ctx.trace().clear();  // the log grows until cleared
  // --- end snippet ---
}

TEST(TracingGuideTest, Dot) {
  // --- snippet: dot ---
  strata::dot_options options;
  options.graph_name = "game";
  options.comment = "my game's systems";
  const std::string dot = strata::system_graph_dot(systems, options);
  EXPECT_EQ(dot.rfind("// my game's systems\ndigraph game {", 0), 0u);
  EXPECT_NE(dot.find("push [label=\"push\\nwrites: velocity\\nsplit: none\"]"),
            std::string::npos);
  EXPECT_NE(dot.find("push -> drift;"), std::string::npos);
  // --- end snippet ---
}

}  // namespace
