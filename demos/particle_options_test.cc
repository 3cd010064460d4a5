// The command-line values of //demos:particles: defaults, every value
// copied, and each rejection naming its flag (counts, the scheduler,
// unwritable paths), without creating anything.
#include "demos/particle_options.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "demos/particle_simulation.h"
#include "gtest/gtest.h"

namespace strata::demos {
namespace {

namespace fs = std::filesystem;

std::string temp_dir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : fs::temp_directory_path().string();
}

void expect_rejected(const particle_flags& flags, const std::string& mention) {
  absl::StatusOr<simulation_config> config = config_from_flags(flags);
  ASSERT_FALSE(config.ok()) << "accepted; expected an error about " << mention;
  EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(config.status().message().find(mention), std::string::npos)
      << config.status().message();
}

TEST(ParticleOptionsTest, DefaultsAreValid) {
  absl::StatusOr<simulation_config> config = config_from_flags({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->particles, 10'000u);
  EXPECT_EQ(config->scheduler, scheduler_kind::atomic_counter);
}

TEST(ParticleOptionsTest, CopiesEveryValue) {
  particle_flags flags;
  flags.particles = 5;
  flags.frames = 6;
  flags.threads = 3;
  flags.seed = 99;
  flags.scheduler = "sequential";
  flags.width = 128;
  flags.height = 96;
  flags.frame_every = 2;
  flags.png = temp_dir() + "/x.png";
  absl::StatusOr<simulation_config> config = config_from_flags(flags);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->particles, 5u);
  EXPECT_EQ(config->frames, 6u);
  EXPECT_EQ(config->threads, 3u);
  EXPECT_EQ(config->seed, 99u);
  EXPECT_EQ(config->scheduler, scheduler_kind::sequential);
  EXPECT_EQ(config->width, 128);
  EXPECT_EQ(config->height, 96);
  EXPECT_EQ(config->frame_every, 2u);
  EXPECT_EQ(config->png_path, flags.png);
  EXPECT_FALSE(fs::exists(flags.png));  // validation creates nothing
}

TEST(ParticleOptionsTest, RejectsBadCounts) {
  particle_flags flags;
  flags.particles = -5;
  expect_rejected(flags, "--particles");
  flags.particles = 0;
  expect_rejected(flags, "(got 0)");
  flags.particles = kMaxParticles + 1;
  expect_rejected(flags, "--particles");
  flags = {};
  flags.frames = 0;
  expect_rejected(flags, "--frames must be between 1");
  flags = {};
  flags.threads = -1;
  expect_rejected(flags, "--threads");
  flags = {};
  flags.frames = kMaxTracedFrames + 1;
  EXPECT_TRUE(config_from_flags(flags).ok());
  flags.trace = temp_dir() + "/long_trace.json";
  expect_rejected(flags, "--trace keeps every event in memory");
  flags = {};
  flags.frame_every = 0;
  expect_rejected(flags, "--frame_every");
  flags = {};
  flags.width = 10;
  expect_rejected(flags, "--width");
  flags = {};
  flags.height = 100'000;
  expect_rejected(flags, "--height");
}

TEST(ParticleOptionsTest, RejectsUnknownScheduler) {
  particle_flags flags;
  flags.scheduler = "round_robin";
  expect_rejected(flags, "--scheduler must be atomic_counter or sequential");
  flags.scheduler = "";
  expect_rejected(flags, "--scheduler");
  EXPECT_TRUE(parse_scheduler("sequential").ok());
}

TEST(ParticleOptionsTest, RejectsUnwritablePaths) {
  const std::string dir = temp_dir() + "/options_paths";
  fs::remove_all(dir);
  ASSERT_TRUE(fs::create_directory(dir));
  const std::string file = dir + "/plain_file";
  std::ofstream(file) << "x";

  particle_flags flags;
  flags.png = "/nonexistent-strata-dir/out.png";
  expect_rejected(flags, "does not exist");
  flags.png = dir;  // a directory
  expect_rejected(flags, "is a directory");
  flags.png = file + "/out.png";  // under a regular file
  expect_rejected(flags, "is not a directory");
  flags.png = dir + "/";
  expect_rejected(flags, "--png");

  flags = {};
  flags.trace = "/nonexistent-strata-dir/trace.json";
  expect_rejected(flags, "--trace");
  flags = {};
  flags.dot = file + "/graph.dot";
  expect_rejected(flags, "--dot");

  flags = {};
  flags.frames_dir = file;  // exists, not a directory
  expect_rejected(flags, "exists and is not a directory");
  flags.frames_dir = "/nonexistent-strata-dir/a/b";
  expect_rejected(flags, "--frames_dir");

  // Writable ones pass; a missing frames_dir under a writable parent too.
  flags = {};
  flags.png = file;  // overwriting an existing file is fine
  flags.frames_dir = dir + "/frames";
  flags.trace = dir + "/t.json";
  flags.dot = dir + "/g.dot";
  EXPECT_TRUE(config_from_flags(flags).ok());
}

}  // namespace
}  // namespace strata::demos
