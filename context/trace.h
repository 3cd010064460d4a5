// Tracing what ran where: per system and per subtask, the thread and the
// start and end times, writable as Chrome trace JSON (chrome://tracing,
// Perfetto's ui.perfetto.dev).
//
// Tracing is a compile-time setting, `strata::settings()...trace()`. When it
// is off (the default) no timing code is compiled in: zero cost. When on,
// each subtask records its span in its own subtask state (no locking while
// systems run) and the context gathers the spans after each
// execute_systems() and each refresh into a `trace_log` (`ctx.trace()`), one
// event per system run, per subtask and per refresh.
//
// trace_log: events() in recording order; write_chrome_json(out) writes
// complete events ("ph": "X") with microsecond times relative to the first
// event, one "tid" per thread (0 = the thread that called step()); clear().
// Not thread-safe: read it between steps.
//
// trace_summary: how long each system's runs took. add(event) / add(log)
// gather the events of one context (system ids index the systems), also
// across logs cleared in between; summarize(log) is one log's. Per system:
// its name, a duration_series of its runs (count, mean, percentiles, max)
// and its subtask events, so mean_subtasks() = subtasks / runs; and a
// duration_series of the refreshes. Every duration is kept (8 bytes per
// run), so percentiles are exact; percentile_ns() sorts a copy, O(n log n).
// Percentiles are nearest-rank: for n sorted samples x_1 <= ... <= x_n, the
// p-th percentile is x_k with k = ceil(p * n / 100) clamped to [1, n] (the
// smallest sample with at least p% of the samples at or below it), e.g. the
// 95th of 1, 2, ..., 20 is 19; 0 for no samples. Not thread-safe (like
// the log it reads).
//
// format_trace_summary(summary, share_base_ms) is the plain-text table of
// //demos:particles: per system that ran, mean and p95 run time in ms, its
// share of `share_base_ms` (e.g. the mean frame; "-" when 0) and the mean
// subtasks, then the refresh. Systems that run at the same time overlap, so
// shares can add up to more than 100%. Names longer than the 22-character
// column push that row's numbers right.
#ifndef STRATA_CONTEXT_TRACE_H_
#define STRATA_CONTEXT_TRACE_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace strata {

struct trace_event {
  enum class kind { system, subtask, refresh };
  kind what;
  std::string_view name;  // the system's name, or "refresh"
  std::size_t system_id = 0;
  std::size_t subtask = 0;
  std::thread::id thread;
  std::int64_t start_ns = 0;  // steady_clock
  std::int64_t end_ns = 0;
  std::uint64_t step = 0;
};

// A span being measured, kept in subtask states when tracing is on.
struct trace_span {
  std::thread::id thread;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;

  static std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void begin() {
    thread = std::this_thread::get_id();
    start_ns = now_ns();
  }
  void end() { end_ns = now_ns(); }
};

class trace_log {
 public:
  const std::vector<trace_event>& events() const { return events_; }
  void clear() { events_.clear(); }
  void add(const trace_event& event) { events_.push_back(event); }

  void write_chrome_json(std::ostream& out, std::thread::id main_thread) const {
    std::vector<std::thread::id> threads{main_thread};
    auto tid = [&](std::thread::id id) {
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

 private:
  static void write_escaped(std::ostream& out, std::string_view text) {
    for (char c : text) {
      if (c == '"' || c == '\\') out << '\\';
      out << c;
    }
  }

  std::vector<trace_event> events_;
};

// The nearest-rank percentile (see the top of this file), p in [0, 100];
// T{} for no samples.
template <typename T>
T nearest_rank_percentile(std::vector<T> samples, double p) {
  if (samples.empty()) return T{};
  std::sort(samples.begin(), samples.end());
  const double n = static_cast<double>(samples.size());
  const double rank = std::clamp(std::ceil(p * n / 100.0), 1.0, n);
  return samples[static_cast<std::size_t>(rank) - 1];
}

// Durations in nanoseconds, every one kept.
class duration_series {
 public:
  void add(std::int64_t ns) {
    samples_.push_back(ns);
    sum_ns_ += ns;
  }
  void clear() { *this = {}; }

  std::size_t count() const { return samples_.size(); }
  const std::vector<std::int64_t>& samples_ns() const { return samples_; }
  double mean_ns() const {
    return samples_.empty() ? 0.0
                            : static_cast<double>(sum_ns_) /
                                  static_cast<double>(samples_.size());
  }
  std::int64_t percentile_ns(double p) const {
    return nearest_rank_percentile(samples_, p);
  }
  std::int64_t max_ns() const {
    return samples_.empty()
               ? 0
               : *std::max_element(samples_.begin(), samples_.end());
  }
  double mean_ms() const { return mean_ns() / 1e6; }
  double percentile_ms(double p) const {
    return static_cast<double>(percentile_ns(p)) / 1e6;
  }

 private:
  std::vector<std::int64_t> samples_;
  std::int64_t sum_ns_ = 0;
};

// One system's runs.
struct system_timing {
  std::string name;          // empty if the system never appeared
  duration_series runs;      // one sample per run (system event)
  std::size_t subtasks = 0;  // subtask events, over all runs
  double mean_subtasks() const {
    return runs.count() == 0 ? 0.0
                             : static_cast<double>(subtasks) /
                                   static_cast<double>(runs.count());
  }
};

class trace_summary {
 public:
  void add(const trace_event& event) {
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
  void add(const trace_log& log) {
    for (const trace_event& event : log.events()) add(event);
  }
  void clear() { *this = {}; }

  // Indexed by system id, up to the highest id seen.
  const std::vector<system_timing>& systems() const { return systems_; }
  const duration_series& refresh() const { return refresh_; }

 private:
  system_timing& timing_of(const trace_event& event) {
    if (systems_.size() <= event.system_id) {
      systems_.resize(event.system_id + 1);
    }
    system_timing& timing = systems_[event.system_id];
    if (timing.name.empty()) timing.name = event.name;
    return timing;
  }

  std::vector<system_timing> systems_;
  duration_series refresh_;
};

inline trace_summary summarize(const trace_log& log) {
  trace_summary summary;
  summary.add(log);
  return summary;
}

namespace trace_internal {

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

}  // namespace trace_internal

// The table (see the top of this file).
inline std::string format_trace_summary(const trace_summary& summary,
                                        double share_base_ms = 0) {
  using trace_internal::append_format;
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

#endif  // STRATA_CONTEXT_TRACE_H_
