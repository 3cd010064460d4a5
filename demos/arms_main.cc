// //demos:arms: spinning hubs, arms, forearms and particles (a hierarchy
// propagated parents-first, demos/arms.h), drawn into a PNG.
//
//   bazel run -c opt //demos:arms -- --png=/tmp/arms.png
//
// Exit status: 0 on success, 2 for values out of range (with a message), 1
// when the PNG cannot be written.
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "demos/arms.h"

ABSL_FLAG(int32_t, hubs, 3, "spinning hubs, 34 entities each (1 to 64)");
ABSL_FLAG(int32_t, frames, 240, "frames (steps) to run, at 1/60 s each");
ABSL_FLAG(uint32_t, threads, 1,
          "threads that run systems, the caller included (0: every hardware "
          "thread)");
ABSL_FLAG(int32_t, width, 480, "image width in pixels (64 to 8192)");
ABSL_FLAG(int32_t, height, 360, "image height in pixels (64 to 8192)");
ABSL_FLAG(std::string, png, "/tmp/arms.png", "the PNG to write");

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "a scene graph on the Strata ECS: hubs, arms, forearms and particles, "
      "each placed from its parent's pose, parents first.\n"
      "Usage: arms [--hubs=N] [--frames=N] [--threads=N] [--png=FILE]");
  absl::ParseCommandLine(argc, argv);
  strata::demos::arms_options options;
  options.hubs = absl::GetFlag(FLAGS_hubs);
  options.frames = absl::GetFlag(FLAGS_frames);
  options.threads = absl::GetFlag(FLAGS_threads);
  options.width = absl::GetFlag(FLAGS_width);
  options.height = absl::GetFlag(FLAGS_height);
  absl::StatusOr<strata::demos::arms_run> run =
      strata::demos::run_arms(options);
  if (!run.ok()) {
    std::fprintf(stderr, "arms: %s\n",
                 std::string(run.status().message()).c_str());
    return 2;
  }
  const std::string png = absl::GetFlag(FLAGS_png);
  if (absl::Status written = run->image.write_png(png); !written.ok()) {
    std::fprintf(stderr, "arms: %s\n", std::string(written.message()).c_str());
    return 1;
  }
  std::printf("arms: %zu entities, %d frames; wrote %s\n", run->poses.size(),
              options.frames, png.c_str());
  return 0;
}
