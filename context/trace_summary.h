// Summaries of a trace: per system, how long its runs took, and the table
// //demos:particles prints. An opt-in header beside context/trace.h: the
// context records a trace_log without it, and a program that summarizes one
// includes it (with its std::string and sorting).
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
#ifndef STRATA_CONTEXT_TRACE_SUMMARY_H_
#define STRATA_CONTEXT_TRACE_SUMMARY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/internal/standard_parts.h"
#include "context/trace.h"

namespace strata {

// The nearest-rank percentile (see the top of this file), p in [0, 100];
// T{} for no samples.
template <typename T>
T nearest_rank_percentile(std::vector<T> samples, double p) {
  if (samples.empty()) return T{};
  std::sort(samples.begin(), samples.end());
  const double n = static_cast<double>(samples.size());
  // ceil(p * n / 100) clamped to [1, n]; the clamp first, so the cast below
  // sees a value in [1, n] (no <cmath> for std::ceil in this header).
  const double rank = std::clamp(p * n / 100.0, 1.0, n);
  auto k = static_cast<std::size_t>(rank);
  if (static_cast<double>(k) < rank) ++k;
  return samples[k - 1];
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
  std::int64_t percentile_ns(double p) const;
  std::int64_t max_ns() const;
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
  void add(const trace_event& event);
  void add(const trace_log& log);
  void clear() { *this = {}; }

  // Indexed by system id, up to the highest id seen.
  const std::vector<system_timing>& systems() const { return systems_; }
  const duration_series& refresh() const { return refresh_; }

 private:
  system_timing& timing_of(const trace_event& event);

  std::vector<system_timing> systems_;
  duration_series refresh_;
};

trace_summary summarize(const trace_log& log);

// The table (see the top of this file).
std::string format_trace_summary(const trace_summary& summary,
                                 double share_base_ms = 0);

}  // namespace strata

#endif  // STRATA_CONTEXT_TRACE_SUMMARY_H_
