#include "demos/particle_options.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "demos/particle_simulation.h"

namespace strata::demos {
namespace {

namespace fs = std::filesystem;

absl::Status check_range(const std::string& flag, std::int64_t value,
                         std::int64_t min, std::int64_t max) {
  if (value < min || value > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, " must be between ", min, " and ", max,
                     " (got ", value, ")"));
  }
  return absl::OkStatus();
}

// The directory a file path lives in ("." for a bare file name).
fs::path directory_of(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

absl::Status check_writable_dir(const std::string& flag,
                                const std::string& path, const fs::path& dir) {
  std::error_code error;
  if (!fs::exists(dir, error)) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag, "=", path,
                                                   ": directory ", dir.string(),
                                                   " does not exist"));
  }
  if (!fs::is_directory(dir, error)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, "=", path, ": ", dir.string(), " is not a directory"));
  }
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag, "=", path,
                                                   ": directory ", dir.string(),
                                                   " is not writable"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<scheduler_kind> parse_scheduler(const std::string& name) {
  if (name == "atomic_counter") return scheduler_kind::atomic_counter;
  if (name == "sequential") return scheduler_kind::sequential;
  return absl::InvalidArgumentError(absl::StrCat(
      "--scheduler must be atomic_counter or sequential (got \"", name, "\")"));
}

std::string_view scheduler_name(scheduler_kind kind) {
  return kind == scheduler_kind::atomic_counter ? "atomic_counter"
                                                : "sequential";
}

absl::Status check_output_file(const std::string& flag,
                               const std::string& path) {
  std::error_code error;
  const fs::path file(path);
  if (path.empty() || file.filename().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, "=", path, ": not a file name"));
  }
  if (fs::is_directory(file, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, "=", path, ": is a directory"));
  }
  if (absl::Status dir = check_writable_dir(flag, path, directory_of(path));
      !dir.ok()) {
    return dir;
  }
  if (fs::exists(file, error) && access(path.c_str(), W_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, "=", path, ": file is not writable"));
  }
  return absl::OkStatus();
}

absl::Status check_output_dir(const std::string& flag,
                              const std::string& path) {
  std::error_code error;
  if (path.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": empty directory name"));
  }
  if (fs::exists(path, error)) {
    if (!fs::is_directory(path, error)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, "=", path, ": exists and is not a directory"));
    }
    return check_writable_dir(flag, path, fs::path(path));
  }
  // Created by the run: its parent must take it.
  fs::path parent = fs::path(path).lexically_normal().parent_path();
  if (parent.empty()) parent = ".";
  return check_writable_dir(flag, path, parent);
}

absl::StatusOr<simulation_config> config_from_flags(
    const particle_flags& flags) {
  for (absl::Status status : {
           check_range("particles", flags.particles, 1, kMaxParticles),
           check_range("frames", flags.frames, 1, kMaxFrames),
           check_range("threads", flags.threads, 0, kMaxThreads),
           check_range("width", flags.width, kMinSide, kMaxSide),
           check_range("height", flags.height, kMinSide, kMaxSide),
           check_range("frame_every", flags.frame_every, 1, kMaxFrames),
       }) {
    if (!status.ok()) return status;
  }
  absl::StatusOr<scheduler_kind> scheduler = parse_scheduler(flags.scheduler);
  if (!scheduler.ok()) return scheduler.status();
  if (!flags.png.empty()) {
    if (absl::Status s = check_output_file("png", flags.png); !s.ok()) return s;
  }
  if (!flags.trace.empty()) {
    if (absl::Status s = check_output_file("trace", flags.trace); !s.ok()) {
      return s;
    }
    // The trace is kept in memory until the end (a few dozen events a frame).
    if (flags.frames > kMaxTracedFrames) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--trace keeps every event in memory: use at most ", kMaxTracedFrames,
          " --frames with it (got ", flags.frames, ")"));
    }
  }
  if (!flags.dot.empty()) {
    if (absl::Status s = check_output_file("dot", flags.dot); !s.ok()) return s;
  }
  if (!flags.frames_dir.empty()) {
    if (absl::Status s = check_output_dir("frames_dir", flags.frames_dir);
        !s.ok()) {
      return s;
    }
  }
  simulation_config config;
  config.particles = static_cast<std::size_t>(flags.particles);
  config.frames = static_cast<std::size_t>(flags.frames);
  config.threads = static_cast<std::size_t>(flags.threads);
  config.seed = flags.seed;
  config.scheduler = *scheduler;
  config.width = static_cast<int>(flags.width);
  config.height = static_cast<int>(flags.height);
  config.png_path = flags.png;
  config.frames_dir = flags.frames_dir;
  config.frame_every = static_cast<std::size_t>(flags.frame_every);
  config.trace_path = flags.trace;
  return config;
}

}  // namespace strata::demos
