// The summary's arithmetic, sort and table (context/trace_summary.h), out of
// line so that programs including the summary instantiate none of it.
#include "context/trace_summary.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace strata {
namespace {

template <typename... Args>
void append_format(std::string& out, const char* format, Args... args) {
  const int size = std::snprintf(nullptr, 0, format, args...);
  if (size <= 0) return;
  const std::size_t at = out.size();
  out.resize(at + static_cast<std::size_t>(size) + 1);
  std::snprintf(out.data() + at, static_cast<std::size_t>(size) + 1, format,
                args...);
  out.resize(at + static_cast<std::size_t>(size));
}

}  // namespace

std::int64_t duration_series::percentile_ns(double p) const {
  return nearest_rank_percentile(samples_, p);
}

std::int64_t duration_series::max_ns() const {
  return samples_.empty() ? 0
                          : *std::max_element(samples_.begin(), samples_.end());
}

void trace_summary::add(const trace_event& event) {
  const std::int64_t ns = event.end_ns - event.start_ns;
  switch (event.what) {
    case trace_event::kind::system:
      timing_of(event).runs.add(ns);
      break;
    case trace_event::kind::subtask:
      ++timing_of(event).subtasks;
      break;
    case trace_event::kind::refresh:
      refresh_.add(ns);
      break;
  }
}

void trace_summary::add(const trace_log& log) {
  for (const trace_event& event : log.events()) add(event);
}

system_timing& trace_summary::timing_of(const trace_event& event) {
  if (systems_.size() <= event.system_id) {
    systems_.resize(event.system_id + 1);
  }
  system_timing& timing = systems_[event.system_id];
  if (timing.name.empty()) timing.name = event.name;
  return timing;
}

trace_summary summarize(const trace_log& log) {
  trace_summary summary;
  summary.add(log);
  return summary;
}

std::string format_trace_summary(const trace_summary& summary,
                                 double share_base_ms) {
  auto share = [&](double ms) {
    std::string text;
    if (share_base_ms > 0) {
      append_format(text, "%5.1f%%", 100.0 * ms / share_base_ms);
    } else {
      text = "    -";
    }
    return text;
  };
  const std::string rule(60, '-');
  std::string out;
  append_format(out, "%-22s %9s %9s %7s %9s\n", "system", "mean ms", "p95 ms",
                "share", "subtasks");
  out += rule + "\n";
  for (const system_timing& s : summary.systems()) {
    if (s.runs.count() == 0) continue;
    append_format(out, "%-22s %9.3f %9.3f %7s %9.1f\n", s.name.c_str(),
                  s.runs.mean_ms(), s.runs.percentile_ms(95),
                  share(s.runs.mean_ms()).c_str(), s.mean_subtasks());
  }
  out += rule + "\n";
  const duration_series& refresh = summary.refresh();
  append_format(out, "%-22s %9.3f %9.3f %7s\n", "refresh", refresh.mean_ms(),
                refresh.percentile_ms(95), share(refresh.mean_ms()).c_str());
  return out;
}

}  // namespace strata
