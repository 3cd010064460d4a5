// Tracing (settings().trace()) under the atomic_counter scheduler with 2
// threads: the recorded events are one `system` event per executed system
// per execute_systems call, one `subtask` event per subtask that ran, and
// one `refresh` event per step; spans are well-ordered (a subtask inside its
// system's span, a system after its dependencies); write_trace_json() writes
// well-formed JSON (checked by //testing:chrome_trace) with exactly one
// complete ("ph":"X") event per recorded event; the trace summary of the
// same events counts every run, subtask and refresh.
#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "context/context.h"
#include "context/trace_summary.h"
#include "gtest/gtest.h"
#include "scheduler/hand_off.h"
#include "testing/chrome_trace.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::trace_event;

namespace ct = strata::testing::ct;

struct first {
  static constexpr std::string_view name = "first";
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](strata::testing::position& p) { p.x += 1; });
  }
};
struct second {  // unnamed: the trace uses its type name
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](strata::testing::position& p) { p.x *= 2; });
  }
};
struct third {
  static constexpr std::string_view name = "third \"quoted\"";
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) { (void)data.read(ct::position, e); });
  }
};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<first>)
        .write(ct::position)
        .parallelism(strata::inner_parallelism::split_evenly(2)),
    strata::system_signature::make(strata::tag<second>)
        .write(ct::position)
        .dependencies(strata::tag<first>)
        .parallelism(strata::inner_parallelism::split_evenly(3)),
    // none(), not the automatic default: that one
    // splits by measured cost, so its count would
    // depend on the machine (under TSan, 30
    // entities are slow enough to split in two).
    strata::system_signature::make(strata::tag<third>)
        .read(ct::position)
        .dependencies(strata::tag<second>)
        .parallelism(strata::inner_parallelism::none()));
constexpr std::size_t kSubtasks[] = {2, 3, 1};

TEST(TraceTest, EventsAndChromeJson) {
  auto ctx =
      strata::make_context(strata::settings()
                               .allow_inner_parallelism()
                               .component_signatures(components)
                               .system_signatures(systems)
                               .scheduler(strata::scheduler::atomic_counter)
                               .threads(2)
                               .trace());
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 30; ++i)
      proxy.add_component(ct::position, proxy.create_entity());
  });
  constexpr int kExecutes = 4;
  for (int i = 0; i < kExecutes; ++i) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  }
  // A partial chain: only third runs.
  ctx.step([](auto& proxy) {
    proxy.execute_systems_from(strata::tag<third>)(
        strata::execution_adapter::all().for_subtasks(
            [](auto& system, auto& data) { system.process(data); }));
  });
  const int steps = 1 + kExecutes + 1;

  const auto& events = ctx.trace().events();
  std::map<trace_event::kind, int> by_kind;
  std::map<std::pair<std::uint64_t, std::size_t>, const trace_event*>
      systems_run;
  std::map<std::pair<std::uint64_t, std::size_t>, int> subtasks_run;
  for (const trace_event& e : events) {
    ++by_kind[e.what];
    EXPECT_LE(e.start_ns, e.end_ns);
    EXPECT_LT(e.step, static_cast<std::uint64_t>(steps));
    if (e.what == trace_event::kind::system) {
      EXPECT_TRUE(
          systems_run.emplace(std::pair(e.step, e.system_id), &e).second)
          << "two events for one system run";
    }
  }
  EXPECT_EQ(by_kind[trace_event::kind::refresh], steps);
  EXPECT_EQ(by_kind[trace_event::kind::system], kExecutes * 3 + 1);
  EXPECT_EQ(by_kind[trace_event::kind::subtask], kExecutes * (2 + 3 + 1) + 1);
  for (const trace_event& e : events) {
    if (e.what != trace_event::kind::subtask) continue;
    auto it = systems_run.find({e.step, e.system_id});
    ASSERT_NE(it, systems_run.end()) << "a subtask without its system";
    EXPECT_LT(e.subtask, kSubtasks[e.system_id]);
    EXPECT_GE(e.start_ns, it->second->start_ns);
    EXPECT_LE(e.end_ns, it->second->end_ns);
    EXPECT_EQ(e.name, it->second->name);
    ++subtasks_run[{e.step, e.system_id}];
  }
  for (const auto& [key, count] : subtasks_run) {
    EXPECT_EQ(static_cast<std::size_t>(count), kSubtasks[key.second]);
  }
  // Systems after their dependencies (first -> second -> third).
  for (std::uint64_t step = 1; step <= kExecutes; ++step) {
    const trace_event* a = systems_run.at({step, 0});
    const trace_event* b = systems_run.at({step, 1});
    const trace_event* c = systems_run.at({step, 2});
    EXPECT_LE(a->end_ns, b->start_ns);
    EXPECT_LE(b->end_ns, c->start_ns);
    EXPECT_EQ(a->name, "first");
    EXPECT_NE(b->name.find("second"), std::string_view::npos);
  }

  // The summary of the same events (its arithmetic: trace_summary_test.cc).
  const strata::trace_summary summary = strata::summarize(ctx.trace());
  ASSERT_EQ(summary.systems().size(), 3u);
  EXPECT_EQ(summary.systems()[0].name, "first");
  EXPECT_EQ(summary.systems()[2].name, "third \"quoted\"");
  for (std::size_t id = 0; id < 3; ++id) {
    const strata::system_timing& timing = summary.systems()[id];
    EXPECT_EQ(timing.runs.count(), kExecutes + (id == 2 ? 1u : 0u)) << id;
    EXPECT_EQ(timing.mean_subtasks(), static_cast<double>(kSubtasks[id]));
    EXPECT_GE(timing.runs.percentile_ns(95), 0);
  }
  EXPECT_EQ(summary.refresh().count(), static_cast<std::size_t>(steps));
  EXPECT_NE(strata::format_trace_summary(summary).find("third \"quoted\""),
            std::string::npos);

  std::ostringstream out;
  ctx.write_trace_json(out);
  const std::string json = out.str();
  const absl::StatusOr<strata::testing::chrome_trace> trace =
      strata::testing::parse_chrome_trace(json);
  EXPECT_TRUE(trace.ok()) << trace.status() << "\n" << json;
  if (trace.ok()) {
    EXPECT_EQ(trace->ph_members, events.size());
    EXPECT_EQ(trace->events.size(), events.size());
  }
  std::size_t complete = 0;
  for (std::size_t at = json.find("\"ph\":\"X\""); at != std::string::npos;
       at = json.find("\"ph\":\"X\"", at + 1)) {
    ++complete;
  }
  EXPECT_EQ(complete, events.size());
  EXPECT_NE(json.find(R"(third \"quoted\")"), std::string::npos);

  ctx.trace().clear();
  EXPECT_TRUE(ctx.trace().events().empty());
  std::ostringstream empty;
  ctx.write_trace_json(empty);
  const absl::StatusOr<strata::testing::chrome_trace> empty_trace =
      strata::testing::parse_chrome_trace(empty.str());
  EXPECT_TRUE(empty_trace.ok()) << empty_trace.status() << "\n" << empty.str();
  if (empty_trace.ok()) {
    EXPECT_TRUE(empty_trace->events.empty());
  }
}

// Spans and measured costs read one clock: a span's reading taken between
// two of the cost model's lies between them (another clock, or another
// unit, would not).
TEST(TraceTest, SpansReadTheCostModelsClock) {
  const std::int64_t before = strata::run_cost::now_ns();
  const std::int64_t span = strata::trace_span::now_ns();
  const std::int64_t after = strata::run_cost::now_ns();
  EXPECT_LE(before, span);
  EXPECT_LE(span, after);
}

}  // namespace
