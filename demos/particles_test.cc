// Runs the particle simulation in-process, briefly (small enough for the
// sanitizer configs): determinism across schedulers and thread counts, the
// physics invariants, the trace, the images, the DOT graph and the report.
// The command-line values are tested in particle_options_test.cc, the grid
// in spatial_grid_test.cc.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "demos/canvas.h"
#include "demos/particle_options.h"
#include "demos/particle_simulation.h"
#include "demos/run_report.h"
#include "gtest/gtest.h"
#include "testing/chrome_trace.h"

namespace strata::demos {
namespace {

namespace fs = std::filesystem;

std::string temp_dir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : fs::temp_directory_path().string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Small and dense enough that particles collide, die and respawn within a
// second of simulated time.
simulation_config small_config() {
  simulation_config config;
  config.particles = 300;
  config.frames = 40;
  config.seed = 7;
  config.width = 160;
  config.height = 120;
  return config;
}

simulation_result run_or_die(const simulation_config& config) {
  absl::StatusOr<simulation_result> result = run_particle_simulation(config);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : simulation_result{};
}

TEST(ParticleSimulationTest, SameFinalStateForEverySchedulerAndThreadCount) {
  simulation_config config = small_config();
  config.scheduler = scheduler_kind::sequential;
  config.threads = 1;
  const simulation_result reference = run_or_die(config);
  ASSERT_EQ(reference.particles.size(), config.particles);
  // The run did something worth comparing.
  EXPECT_GT(reference.contacts, 0u);
  EXPECT_GT(reference.deaths, 0u);

  struct variant {
    scheduler_kind scheduler;
    std::size_t threads;
  };
  for (variant v : {variant{scheduler_kind::sequential, 4},
                    variant{scheduler_kind::atomic_counter, 1},
                    variant{scheduler_kind::atomic_counter, 2},
                    variant{scheduler_kind::atomic_counter, 4}}) {
    SCOPED_TRACE(std::string(scheduler_name(v.scheduler)) + " with " +
                 std::to_string(v.threads) + " threads");
    config.scheduler = v.scheduler;
    config.threads = v.threads;
    const simulation_result result = run_or_die(config);
    EXPECT_EQ(result.threads, v.threads);
    EXPECT_EQ(result.state_hash, reference.state_hash);
    EXPECT_EQ(result.deaths, reference.deaths);
    EXPECT_EQ(result.respawns, reference.respawns);
    EXPECT_EQ(result.contacts, reference.contacts);
    ASSERT_EQ(result.particles.size(), reference.particles.size());
    for (std::size_t i = 0; i < result.particles.size(); ++i) {
      EXPECT_EQ(result.particles[i].index, reference.particles[i].index);
      EXPECT_EQ(result.particles[i].x, reference.particles[i].x);
      EXPECT_EQ(result.particles[i].vy, reference.particles[i].vy);
    }
  }
}

TEST(ParticleSimulationTest, SeedChangesTheOutcome) {
  simulation_config config = small_config();
  config.frames = 5;
  const std::uint64_t a = run_or_die(config).state_hash;
  config.seed = 8;
  EXPECT_NE(run_or_die(config).state_hash, a);
}

TEST(ParticleSimulationTest, ParticlesStayInBoundsAndMove) {
  simulation_config config = small_config();
  config.threads = 2;
  const simulation_result result = run_or_die(config);
  ASSERT_EQ(result.particles.size(), config.particles);
  std::size_t moving = 0;
  for (const particle_state& p : result.particles) {
    EXPECT_GE(p.x, p.radius);
    EXPECT_LE(p.x, config.width - p.radius);
    EXPECT_GE(p.y, p.radius);
    EXPECT_LE(p.y, config.height - p.radius);
    moving += (p.vx != 0 || p.vy != 0);
  }
  EXPECT_GT(moving, config.particles / 2);
}

TEST(ParticleSimulationTest, ExpiredParticlesDieAndRespawn) {
  simulation_config config = small_config();
  config.threads = 2;
  const simulation_result result = run_or_die(config);
  EXPECT_GT(result.deaths, 0u);
  // One deferred respawn per death keeps the population constant.
  EXPECT_EQ(result.respawns, result.deaths);
  EXPECT_EQ(result.particles.size(), config.particles);
  std::size_t mortal = 0;
  std::size_t glowing = 0;
  for (const particle_state& p : result.particles) {
    mortal += p.mortal;
    glowing += p.glowing;
  }
  EXPECT_GT(mortal, 0u);   // the sparse component is in use
  EXPECT_GT(glowing, 0u);  // and the hash-map one
  EXPECT_LT(glowing, config.particles / 4);
}

TEST(ParticleSimulationTest, TraceIsValidJsonWithOneEventPerSystemPerFrame) {
  simulation_config config = small_config();
  config.frames = 12;
  config.threads = 2;
  config.trace_path = temp_dir() + "/particles_trace.json";
  const simulation_result result = run_or_die(config);

  const absl::StatusOr<strata::testing::chrome_trace> trace =
      strata::testing::parse_chrome_trace(read_file(config.trace_path));
  // Every event has a string "name", "cat" and "ph", and numbers "ts", "dur"
  // and "tid" (checked by the parser).
  ASSERT_TRUE(trace.ok()) << trace.status();

  std::map<std::string, std::size_t> system_runs;
  std::size_t refreshes = 0;
  for (const strata::testing::chrome_trace_event& e : trace->events) {
    EXPECT_GE(e.dur, 0.0);
    if (e.cat == "system") ++system_runs[e.name];
    if (e.cat == "refresh") ++refreshes;
  }
  const std::vector<std::string> names = system_names();
  ASSERT_EQ(names.size(), 10u);
  EXPECT_EQ(system_runs.size(), names.size());
  for (const std::string& name : names) {
    EXPECT_EQ(system_runs[name], config.frames) << name;
  }
  // The spawning step, the frames and the final snapshot step.
  EXPECT_EQ(refreshes, config.frames + 2);

  // The timing table is built from the same events.
  for (const system_stats& s : result.systems) {
    EXPECT_EQ(s.run_ms.size(), config.frames) << s.name;
    EXPECT_GE(s.subtasks_total, static_cast<double>(config.frames));
  }
  const std::string report = format_report(result);
  for (const std::string& name : names) {
    EXPECT_NE(report.find(name), std::string::npos) << name;
  }
  EXPECT_NE(report.find("frames/s"), std::string::npos);
}

TEST(ParticleSimulationTest, PngHasTheRequestedSizeAndShowsParticles) {
  simulation_config config = small_config();
  config.frames = 5;
  config.width = 200;
  config.height = 150;
  config.png_path = temp_dir() + "/particles_final.png";
  const simulation_result result = run_or_die(config);
  EXPECT_EQ(result.images_written, 1u);

  absl::StatusOr<decoded_png> png = read_png(config.png_path);
  ASSERT_TRUE(png.ok()) << png.status();
  EXPECT_EQ(png->width, 200);
  EXPECT_EQ(png->height, 150);
  ASSERT_EQ(png->rgb.size(), 200u * 150u * 3u);
  // A dark background with bright particles on it.
  std::size_t dark = 0;
  std::size_t bright = 0;
  for (std::size_t i = 0; i < png->rgb.size(); i += 3) {
    const int sum = png->rgb[i] + png->rgb[i + 1] + png->rgb[i + 2];
    dark += sum < 120;
    bright += sum > 300;
  }
  const std::size_t pixels = 200u * 150u;
  EXPECT_GT(dark, pixels / 3);
  EXPECT_GT(bright, 300u);
}

TEST(ParticleSimulationTest, FramesDirGetsEveryKthFrame) {
  simulation_config config = small_config();
  config.frames = 10;
  config.frames_dir = temp_dir() + "/particle_frames/nested";
  fs::remove_all(temp_dir() + "/particle_frames");
  ASSERT_TRUE(fs::create_directory(temp_dir() + "/particle_frames"));
  config.frame_every = 4;
  const simulation_result result = run_or_die(config);
  EXPECT_EQ(result.images_written, 2u);
  EXPECT_TRUE(fs::exists(config.frames_dir + "/frame_000004.png"));
  EXPECT_TRUE(fs::exists(config.frames_dir + "/frame_000008.png"));
  EXPECT_FALSE(fs::exists(config.frames_dir + "/frame_000010.png"));
  EXPECT_TRUE(read_png(config.frames_dir + "/frame_000008.png").ok());
}

TEST(ParticleSimulationTest, UnwritableOutputFailsWithAStatus) {
  simulation_config config = small_config();
  config.frames = 2;
  config.png_path = "/nonexistent-strata-dir/final.png";
  absl::StatusOr<simulation_result> result = run_particle_simulation(config);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("final.png"), std::string::npos);

  config.png_path.clear();
  config.trace_path = "/nonexistent-strata-dir/trace.json";
  result = run_particle_simulation(config);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("trace.json"), std::string::npos);
}

TEST(SystemGraphTest, DotNamesEverySystemAndDependency) {
  const std::string dot = system_graph_dot();
  EXPECT_EQ(dot.find("digraph"), dot.find("digraph strata_particles"));
  for (const char* edge :
       {"acceleration -> velocity;", "velocity -> keep_in_bounds;",
        "keep_in_bounds -> spatial_partition;",
        "spatial_partition -> collision_detection;",
        "collision_detection -> solve_contacts;", "solve_contacts -> render;",
        "cycle_color -> render;", "solve_contacts -> halo;"}) {
    EXPECT_NE(dot.find(edge), std::string::npos) << edge;
  }
  EXPECT_EQ(dot.find("-> life"), std::string::npos);  // independent
  EXPECT_NE(dot.find("fixed_threshold("), std::string::npos);
  EXPECT_EQ(dot.back(), '\n');
}

// ---------------------------------------------------------------------------

TEST(RunReportTest, PercentileUsesNearestRank) {
  EXPECT_EQ(percentile({}, 95), 0.0);
  EXPECT_EQ(percentile({3, 1, 2}, 50), 2.0);
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  EXPECT_EQ(percentile(hundred, 95), 95.0);
  EXPECT_EQ(percentile(hundred, 100), 100.0);
  EXPECT_EQ(mean({1, 2, 3}), 2.0);
}

}  // namespace
}  // namespace strata::demos
