// Command-line values of //demos:particles, checked before anything runs.
//
//   strata::demos::particle_flags flags;     // filled from absl flags by main
//   absl::StatusOr<simulation_config> config = config_from_flags(flags);
//   if (!config.ok()) { print config.status().message(); exit non-zero; }
//
// config_from_flags() rejects, with InvalidArgumentError naming the flag and
// the value: counts out of range (particles, frames, frame_every, width,
// height, threads), an unknown scheduler, --trace with more than
// kMaxTracedFrames frames, and output paths that cannot be written (see
// check_output_file / check_output_dir). It never creates or truncates
// anything: a bad value caught here costs no partial output.
// run_particle_simulation() creates a missing --frames_dir (whose parent
// exists and is writable, checked here).
#ifndef STRATA_DEMOS_PARTICLE_OPTIONS_H_
#define STRATA_DEMOS_PARTICLE_OPTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "demos/particle_simulation.h"

namespace strata::demos {

// Raw flag values, as typed: signed, so a negative count is reported rather
// than wrapped around.
struct particle_flags {
  std::int64_t particles = 10'000;
  std::int64_t frames = 600;
  std::int64_t threads = 0;
  std::uint64_t seed = 1;
  std::string scheduler = "atomic_counter";
  std::int64_t width = 800;
  std::int64_t height = 600;
  std::string png;
  std::string frames_dir;
  std::int64_t frame_every = 10;
  std::string trace;
  std::string dot;
};

// The entities the world reserves for `particles`: respawns are created in
// the refresh before the expired particles' ids are reclaimed, so the world
// holds more entities than particles.
constexpr std::int64_t entity_capacity_for(std::int64_t particles) {
  return particles + particles / 8 + 64;
}

// Limits, so that a typo cannot ask for terabytes. kMaxParticles: the
// world's entities must fit strata::entity_id's 22 index bits.
inline constexpr std::int64_t kMaxParticles = 3'700'000;
static_assert(entity_capacity_for(kMaxParticles) <= (std::int64_t{1} << 22) - 1,
              "kMaxParticles: the world's entities must fit entity_id");
inline constexpr std::int64_t kMaxFrames = 10'000'000;
inline constexpr std::int64_t kMaxTracedFrames = 100'000;
inline constexpr std::int64_t kMaxThreads = 256;
inline constexpr std::int64_t kMinSide = 64;
inline constexpr std::int64_t kMaxSide = 8192;

absl::StatusOr<simulation_config> config_from_flags(
    const particle_flags& flags);

absl::StatusOr<scheduler_kind> parse_scheduler(const std::string& name);
std::string_view scheduler_name(scheduler_kind kind);

// OK when `path` can be created or overwritten as a regular file: it is not
// a directory, its directory exists, and that directory (or the existing
// file) is writable. `flag` names the flag in the message.
absl::Status check_output_file(const std::string& flag,
                               const std::string& path);
// OK when `path` is a writable directory, or does not exist and its parent
// is a writable directory (it will be created).
absl::Status check_output_dir(const std::string& flag, const std::string& path);

}  // namespace strata::demos

#endif  // STRATA_DEMOS_PARTICLE_OPTIONS_H_
