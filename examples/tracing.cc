// Tracing to Chrome JSON, the per-system summary, and the system graph in
// Graphviz DOT.
//
// settings().trace() makes the context record, per system run, per subtask
// and per refresh, which thread ran it and when (context/trace.h; without
// .trace() none of that code is compiled in). After five steps the program
// counts the recorded events, prints the summary table of
// format_trace_summary() (context/trace_summary.h; times vary run to run), and
// writes the Chrome trace JSON (open it in chrome://tracing or ui.perfetto.dev)
// and the DOT graph of scheduler/dot.h (render it with `dot -Tpng FILE -o
// graph.png`).
//
//   bazel run //examples:tracing -- /tmp/trace.json /tmp/systems.dot
//
// Without arguments it writes nothing and prints the DOT text instead.
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "context/trace_summary.h"  // format_trace_summary
#include "scheduler/dot.h"          // target //scheduler:dot
#include "strata.h"

struct position {
  float x, y;
};
struct velocity {
  float x, y;
};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
}  // namespace ct

struct gravity {
  static constexpr std::string_view name = "gravity";  // shown in traces
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](velocity& v) { v.y -= 0.1f; });
  }
};
struct movement {
  static constexpr std::string_view name = "movement";
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x;
      p.y += v.y;
    });
  }
};
struct lowest {  // outputs the lowest y of its slice
  static constexpr std::string_view name = "lowest";
  template <typename Data>
  void process(Data& data) const {
    data.output() = 1e9f;
    data.for_each([&](const position& p) {
      if (p.y < data.output()) data.output() = p.y;
    });
  }
};

namespace st {
inline constexpr auto gravity = strata::tag<::gravity>;
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto lowest = strata::tag<::lowest>;
}  // namespace st

constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::gravity)
        .write(ct::velocity)
        .parallelism(strata::inner_parallelism::split_evenly(2)),
    strata::system_signature::make(st::movement)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::gravity)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()),
    strata::system_signature::make(st::lowest)
        .read(ct::position)
        .dependencies(st::movement)
        .parallelism(strata::inner_parallelism::none())
        .output<float>());

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity)))
        .system_signatures(systems)
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2)
        .trace();

int main(int argc, char** argv) {
  auto ctx = strata::make_context<settings>();
  ctx.step([](auto& proxy) {
    proxy.create_entities(10'000, [](position& p, velocity& v) {
      p = {0, 100};
      v = {1, 0};
    });
  });
  for (int i = 0; i < 5; ++i) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  }

  std::size_t runs = 0, subtasks = 0, refreshes = 0;
  for (const strata::trace_event& e : ctx.trace().events()) {
    switch (e.what) {
      case strata::trace_event::kind::system:
        ++runs;
        break;
      case strata::trace_event::kind::subtask:
        ++subtasks;
        break;
      case strata::trace_event::kind::refresh:
        ++refreshes;
        break;
    }
  }
  std::printf("%zu system runs, %zu subtasks, %zu refreshes recorded\n", runs,
              subtasks, refreshes);

  const strata::trace_summary summary = strata::summarize(ctx.trace());
  std::printf("%s", strata::format_trace_summary(summary).c_str());
  std::printf("movement: %zu runs, %.1f subtasks per run\n",
              summary.systems()[1].runs.count(),
              summary.systems()[1].mean_subtasks());

  strata::dot_options options;
  options.graph_name = "tracing_example";
  options.comment = "The systems of examples/tracing.cc";
  const std::string dot = strata::system_graph_dot(systems, options);

  if (argc > 2) {
    std::ofstream json(argv[1]);
    ctx.write_trace_json(json);
    std::ofstream(argv[2]) << dot;
    std::printf("wrote %s and %s\n", argv[1], argv[2]);
  } else {
    std::ostringstream json;
    ctx.write_trace_json(json);
    std::printf("Chrome trace JSON: %zu bytes, starts with %s\n",
                json.str().size(), json.str().substr(0, 15).c_str());
    std::printf("%s", dot.c_str());
  }
}
