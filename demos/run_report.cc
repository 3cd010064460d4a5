#include "demos/run_report.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "context/trace_summary.h"
#include "demos/particle_simulation.h"

namespace strata::demos {

double mean(const std::vector<double>& samples) {
  if (samples.empty()) return 0;
  double sum = 0;
  for (double s : samples) sum += s;
  return sum / static_cast<double>(samples.size());
}

double percentile(std::vector<double> samples, double p) {
  return strata::nearest_rank_percentile(std::move(samples), p);
}

std::string format_report(const simulation_result& result) {
  const std::size_t frames = result.frame_ms.size();
  const double frame_mean = mean(result.frame_ms);
  std::string out = strata::format_trace_summary(result.timing, frame_mean);
  absl::StrAppendFormat(
      &out, "%-22s %9.3f %9.3f %7s\n", "frame (whole step)", frame_mean,
      percentile(result.frame_ms, 95),
      frame_mean > 0 ? absl::StrFormat("%5.1f%%", 100.0) : "    -");
  if (!result.compose_ms.empty()) {
    absl::StrAppendFormat(
        &out, "%-22s %9.3f %9.3f   (%zu images, not in frames)\n",
        "image + PNG", mean(result.compose_ms),
        percentile(result.compose_ms, 95), result.compose_ms.size());
  }
  absl::StrAppend(&out,
                  "(systems that run at the same time overlap, so "
                  "shares can add up to more than 100%)\n\n");
  absl::StrAppendFormat(
      &out,
      "%zu frames in %.2f s: %.1f frames/s on %zu threads\n"
      "%zu particles alive; %zu died and %zu respawned; %zu contacts "
      "solved\n"
      "final state hash %016x\n",
      frames, result.wall_seconds,
      result.wall_seconds > 0
          ? static_cast<double>(frames) / result.wall_seconds
          : 0.0,
      result.threads, result.particles.size(), result.deaths, result.respawns,
      result.contacts, result.state_hash);
  return out;
}

}  // namespace strata::demos
