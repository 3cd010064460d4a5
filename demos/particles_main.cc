// //demos:particles: the particle simulation, headless. Runs anywhere, shows
// progress, ends with a per-system timing table, and on request writes the
// final frame and every k-th frame as PNG, a Chrome trace and the system DAG.
//
//   bazel run -c opt //demos:particles -- --png=/tmp/particles.png
//
// Exit status: 0 on success, 2 for bad flags (with a message saying which
// and why), 1 when an output cannot be written during the run.
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "demos/particle_options.h"
#include "demos/particle_simulation.h"
#include "demos/run_report.h"

ABSL_FLAG(int64_t, particles, 10'000,
          "number of particles (1 to 3700000: with the respawns' slack they "
          "must fit the entity id's 22 index bits); expired ones respawn, so "
          "the count stays constant");
ABSL_FLAG(int64_t, frames, 600, "frames (steps) to simulate, at 1/60 s each");
ABSL_FLAG(int64_t, threads, 0,
          "threads that run systems, the caller included; 0 = every hardware "
          "thread");
ABSL_FLAG(uint64_t, seed, 1,
          "seed of the initial population; the same seed gives the same final "
          "state with any scheduler and thread count");
ABSL_FLAG(std::string, scheduler, "atomic_counter",
          "system scheduler: atomic_counter (independent systems and "
          "subtasks run in parallel) or sequential (one thread, topological "
          "order)");
ABSL_FLAG(int64_t, width, 800, "world and image width in pixels (64 to 8192)");
ABSL_FLAG(int64_t, height, 600,
          "world and image height in pixels (64 to 8192)");
ABSL_FLAG(std::string, png, "", "write the final frame to this PNG file");
ABSL_FLAG(std::string, frames_dir, "",
          "write every --frame_every-th frame to DIR/frame_NNNNNN.png "
          "(DIR is created if its parent exists)");
ABSL_FLAG(int64_t, frame_every, 10,
          "with --frames_dir: write every k-th frame");
ABSL_FLAG(std::string, trace, "",
          "write a Chrome trace (JSON: chrome://tracing or ui.perfetto.dev) "
          "of every system run and refresh to this file");
ABSL_FLAG(std::string, dot, "",
          "write the system dependency graph as Graphviz DOT to this file "
          "(render with: dot -Tpng FILE -o graph.png)");

namespace {

constexpr char kUsage[] =
    "a headless particle simulation on the Strata ECS.\n"
    "\n"
    "Ten systems (physics, a spatial grid, collision detection and solving,\n"
    "colors, lifetimes with deferred respawns, rendering) run on Strata's\n"
    "scheduler each frame. The run prints its progress and a per-system\n"
    "timing table, and can write the final frame (--png), a frame sequence\n"
    "(--frames_dir), a Chrome trace (--trace) and the system graph (--dot).\n"
    "\n"
    "Usage: particles [--particles=N] [--frames=N] [--threads=N] [--seed=N]\n"
    "                 [--scheduler=atomic_counter|sequential]\n"
    "                 [--png=FILE] [--frames_dir=DIR --frame_every=K]\n"
    "                 [--trace=FILE] [--dot=FILE] [--width=W --height=H]\n"
    "Example: particles --particles=20000 --frames=600 --png=/tmp/p.png";

// Progress on stderr: redrawn in place on a terminal, a plain line every
// tenth of the run (or every 5 s) otherwise, so logs stay short.
class progress_printer {
 public:
  progress_printer() : tty_(isatty(STDERR_FILENO) == 1) {}

  void operator()(const strata::demos::frame_progress& p) {
    const double since = p.elapsed_seconds - last_print_;
    const bool last = p.frame == p.frames;
    const std::size_t tenth = std::max<std::size_t>(p.frames / 10, 1);
    const bool due = tty_ ? since >= 0.1 : (p.frame % tenth == 0 || since >= 5);
    if (!due && !last) return;
    const double fps =
        since > 0 ? static_cast<double>(p.frame - last_frame_) / since : 0.0;
    const std::string line =
        absl::StrFormat("frame %*zu/%zu  particles alive %zu  %.1f frames/s",
                        static_cast<int>(std::to_string(p.frames).size()),
                        p.frame, p.frames, p.alive, fps);
    if (tty_) {
      std::fprintf(stderr, "\r%s\x1b[K%s", line.c_str(), last ? "\n" : "");
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
    last_print_ = p.elapsed_seconds;
    last_frame_ = p.frame;
  }

 private:
  bool tty_;
  double last_print_ = 0;
  std::size_t last_frame_ = 0;
};

int fail(const absl::Status& status, int code) {
  std::fprintf(stderr, "particles: %s\n",
               std::string(status.message()).c_str());
  return code;
}

// absl::ParseCommandLine exits with status 1 on an unknown flag or a value
// its flag cannot parse, where this program documents 2: every flag is
// looked up and its value parsed here first, by the flag's own parser.
// (Abseil's built-in flags, --help and the like, are left to it.)
absl::Status check_flags(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (!absl::ConsumePrefix(&arg, "--") && !absl::ConsumePrefix(&arg, "-")) {
      continue;  // a positional argument: main reports it
    }
    const std::size_t equals = arg.find('=');
    const absl::string_view name = arg.substr(0, equals);
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr && absl::StartsWith(name, "no")) {
      flag = absl::FindCommandLineFlag(name.substr(2));  // --noflag
      if (flag != nullptr && flag->IsOfType<bool>()) continue;
      flag = nullptr;
    }
    if (flag == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", name, " (see --help)"));
    }
    if (flag->IsOfType<bool>() && equals == absl::string_view::npos) continue;
    if (flag->Filename() != __FILE__) continue;  // Abseil's own
    std::string value;
    if (equals != absl::string_view::npos) {
      value = std::string(arg.substr(equals + 1));
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, " needs a value"));
    }
    // (Sets the flag; ParseCommandLine sets it again, to the same value.)
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, "=", value, ": ", error));
    }
  }
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  if (absl::Status flags_ok = check_flags(argc, argv); !flags_ok.ok()) {
    std::fprintf(stderr, "particles: %s\n",
                 std::string(flags_ok.message()).c_str());
    return 2;
  }
  const std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() > 1) {
    return fail(absl::InvalidArgumentError(absl::StrCat(
                    "unexpected argument \"", positional[1],
                    "\" (flags look like --name=value; see --help)")),
                2);
  }

  strata::demos::particle_flags flags;
  flags.particles = absl::GetFlag(FLAGS_particles);
  flags.frames = absl::GetFlag(FLAGS_frames);
  flags.threads = absl::GetFlag(FLAGS_threads);
  flags.seed = absl::GetFlag(FLAGS_seed);
  flags.scheduler = absl::GetFlag(FLAGS_scheduler);
  flags.width = absl::GetFlag(FLAGS_width);
  flags.height = absl::GetFlag(FLAGS_height);
  flags.png = absl::GetFlag(FLAGS_png);
  flags.frames_dir = absl::GetFlag(FLAGS_frames_dir);
  flags.frame_every = absl::GetFlag(FLAGS_frame_every);
  flags.trace = absl::GetFlag(FLAGS_trace);
  flags.dot = absl::GetFlag(FLAGS_dot);
  absl::StatusOr<strata::demos::simulation_config> config =
      strata::demos::config_from_flags(flags);
  if (!config.ok()) {
    std::fprintf(stderr, "particles: %s\nRun with --help to see the flags.\n",
                 std::string(config.status().message()).c_str());
    return 2;
  }

  if (!flags.dot.empty()) {
    std::ofstream out(flags.dot, std::ios::trunc);
    out << strata::demos::system_graph_dot();
    out.close();
    if (!out) {
      return fail(absl::UnavailableError(
                      absl::StrCat("cannot write --dot file ", flags.dot)),
                  1);
    }
  }

  std::printf(
      "Strata particles: %zu particles, %zu frames, %dx%d, seed %llu, "
      "scheduler %s\n",
      config->particles, config->frames, config->width, config->height,
      static_cast<unsigned long long>(config->seed),
      std::string(strata::demos::scheduler_name(config->scheduler)).c_str());
  std::fflush(stdout);

  progress_printer progress;
  absl::StatusOr<strata::demos::simulation_result> result =
      strata::demos::run_particle_simulation(
          *config,
          [&](const strata::demos::frame_progress& p) { progress(p); });
  if (!result.ok()) return fail(result.status(), 1);

  std::printf("\n%s", strata::demos::format_report(*result).c_str());
  if (!config->png_path.empty()) {
    std::printf("final frame: %s\n", config->png_path.c_str());
  }
  if (!config->frames_dir.empty()) {
    std::printf("frames: %zu images in %s\n",
                result->images_written - (config->png_path.empty() ? 0 : 1),
                config->frames_dir.c_str());
  }
  if (!config->trace_path.empty()) {
    std::printf("trace: %s (open in chrome://tracing or ui.perfetto.dev)\n",
                config->trace_path.c_str());
  }
  if (!flags.dot.empty()) {
    std::printf("system graph: %s (dot -Tpng %s -o graph.png)\n",
                flags.dot.c_str(), flags.dot.c_str());
  }
  return 0;
}
