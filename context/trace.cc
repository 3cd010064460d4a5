// The parts of context/trace.h that need <ostream>, <cstdio> or <chrono>,
// and the summary's arithmetic and sort: out of line, so that every file
// including the context neither parses nor instantiates them
// (//benchmarks/compile:include_only). The clock is the cost model's
// (base/steady_clock_ns.h, which run_cost::now_ns reads too), so that spans
// and measured costs read the same time (trace_test checks); read here
// directly rather than through run_cost::now_ns, so that a span's clock
// reading is one call.
#include "context/trace.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/steady_clock_ns.h"

namespace strata {
namespace {

void write_escaped(std::ostream& out, std::string_view text) {
  for (char c : text) {
    if (c == '"' || c == '\\') out << '\\';
    out << c;
  }
}

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

thread_token this_thread_token() noexcept {
  static thread_local const char marker = 0;
  return reinterpret_cast<thread_token>(&marker);
}

std::int64_t trace_span::now_ns() noexcept { return steady_clock_ns(); }

void trace_log::write_chrome_json(std::ostream& out,
                                  thread_token main_thread) const {
  std::vector<thread_token> threads{main_thread};
  auto tid = [&](thread_token id) {
    for (std::size_t i = 0; i < threads.size(); ++i) {
      if (threads[i] == id) return i;
    }
    threads.push_back(id);
    return threads.size() - 1;
  };
  const std::int64_t origin = events_.empty() ? 0 : events_.front().start_ns;
  out << "{\"traceEvents\":[";
  bool first = true;
  for (const trace_event& e : events_) {
    if (!first) out << ",";
    first = false;
    const char* category = e.what == trace_event::kind::system    ? "system"
                           : e.what == trace_event::kind::subtask ? "subtask"
                                                                  : "refresh";
    out << "\n{\"name\":\"";
    write_escaped(out, e.name);
    if (e.what == trace_event::kind::subtask) out << " #" << e.subtask;
    out << "\",\"cat\":\"" << category
        << "\",\"ph\":\"X\",\"pid\":1,\"tid\":" << tid(e.thread)
        << ",\"ts\":" << static_cast<double>(e.start_ns - origin) / 1000.0
        << ",\"dur\":" << static_cast<double>(e.end_ns - e.start_ns) / 1000.0
        << ",\"args\":{\"step\":" << e.step << ",\"system\":" << e.system_id
        << ",\"subtask\":" << e.subtask << "}}";
  }
  out << "\n]}\n";
}

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
