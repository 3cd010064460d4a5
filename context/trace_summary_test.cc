// The trace summary from hand-built trace logs: exact means, nearest-rank
// percentiles, subtask counts, refreshes, gathering across cleared logs,
// and the exact text of the table.
#include "context/trace_summary.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace strata {
namespace {

using kind = trace_event::kind;

trace_event event(kind what, std::string_view name, std::size_t system,
                  std::int64_t start_ns, std::int64_t duration_ns,
                  std::size_t subtask = 0) {
  trace_event e;
  e.what = what;
  e.name = name;
  e.system_id = system;
  e.subtask = subtask;
  e.start_ns = start_ns;
  e.end_ns = start_ns + duration_ns;
  return e;
}

// One system run with `subtasks` subtask events inside it, as the context
// records them (the system's event first).
void add_run(trace_log& log, std::string_view name, std::size_t system,
             std::int64_t duration_ns, std::size_t subtasks) {
  log.add(event(kind::system, name, system, 1000, duration_ns));
  for (std::size_t s = 0; s < subtasks; ++s) {
    log.add(event(kind::subtask, name, system, 1000, duration_ns / 2, s));
  }
}

TEST(NearestRankPercentileTest, Definition) {
  EXPECT_EQ(nearest_rank_percentile(std::vector<int>{}, 95), 0);
  EXPECT_EQ(nearest_rank_percentile(std::vector<int>{7}, 0), 7);
  EXPECT_EQ(nearest_rank_percentile(std::vector<int>{7}, 100), 7);
  std::vector<int> twenty;
  for (int i = 20; i >= 1; --i) twenty.push_back(i);   // unsorted on purpose
  EXPECT_EQ(nearest_rank_percentile(twenty, 95), 19);  // ceil(19.0) = 19
  EXPECT_EQ(nearest_rank_percentile(twenty, 96), 20);  // ceil(19.2) = 20
  EXPECT_EQ(nearest_rank_percentile(twenty, 50), 10);
  EXPECT_EQ(nearest_rank_percentile(twenty, 0), 1);  // rank clamped to 1
  EXPECT_EQ(nearest_rank_percentile(twenty, 100), 20);
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  EXPECT_EQ(nearest_rank_percentile(hundred, 95), 95.0);
  EXPECT_EQ(nearest_rank_percentile(std::vector<double>{3, 1, 2}, 50), 2.0);
}

TEST(DurationSeriesTest, MeanPercentileMax) {
  duration_series series;
  EXPECT_EQ(series.count(), 0u);
  EXPECT_EQ(series.mean_ns(), 0.0);
  EXPECT_EQ(series.percentile_ns(95), 0);
  EXPECT_EQ(series.max_ns(), 0);
  for (int us = 1; us <= 20; ++us) series.add(us * 1000);
  EXPECT_EQ(series.count(), 20u);
  EXPECT_EQ(series.mean_ns(), 10'500.0);  // 10.5 us
  EXPECT_EQ(series.percentile_ns(95), 19'000);
  EXPECT_EQ(series.max_ns(), 20'000);
  EXPECT_DOUBLE_EQ(series.mean_ms(), 0.0105);
  EXPECT_DOUBLE_EQ(series.percentile_ms(95), 0.019);
  series.clear();
  EXPECT_EQ(series.count(), 0u);
  EXPECT_EQ(series.mean_ns(), 0.0);
}

TEST(TraceSummaryTest, PerSystemRunsSubtasksAndRefresh) {
  trace_log log;
  for (int us = 1; us <= 20; ++us) {
    add_run(log, "physics", 0, us * 1000, 2);
    add_run(log, "render", 2, 4000, us % 2 == 0 ? 3 : 1);  // 2 on average
    log.add(event(kind::refresh, "refresh", 0, 0, 500));
  }
  const trace_summary summary = summarize(log);
  ASSERT_EQ(summary.systems().size(), 3u);  // up to the highest id

  const system_timing& physics = summary.systems()[0];
  EXPECT_EQ(physics.name, "physics");
  EXPECT_EQ(physics.runs.count(), 20u);
  EXPECT_EQ(physics.runs.mean_ns(), 10'500.0);
  EXPECT_EQ(physics.runs.percentile_ns(95), 19'000);
  EXPECT_EQ(physics.subtasks, 40u);
  EXPECT_EQ(physics.mean_subtasks(), 2.0);

  const system_timing& absent = summary.systems()[1];  // never ran
  EXPECT_EQ(absent.name, "");
  EXPECT_EQ(absent.runs.count(), 0u);
  EXPECT_EQ(absent.mean_subtasks(), 0.0);

  const system_timing& render = summary.systems()[2];
  EXPECT_EQ(render.name, "render");
  EXPECT_EQ(render.runs.count(), 20u);
  EXPECT_EQ(render.runs.mean_ns(), 4000.0);
  EXPECT_EQ(render.mean_subtasks(), 2.0);

  EXPECT_EQ(summary.refresh().count(), 20u);
  EXPECT_EQ(summary.refresh().mean_ns(), 500.0);
}

TEST(TraceSummaryTest, GathersAcrossClearedLogs) {
  trace_log log;
  trace_summary summary;
  for (int us = 1; us <= 20; ++us) {
    add_run(log, "physics", 0, us * 1000, 1);
    summary.add(log);
    log.clear();
  }
  EXPECT_EQ(summary.systems()[0].runs.count(), 20u);
  EXPECT_EQ(summary.systems()[0].runs.mean_ns(), 10'500.0);
  EXPECT_EQ(summary.systems()[0].runs.percentile_ns(95), 19'000);
  EXPECT_EQ(summary.refresh().count(), 0u);
  summary.clear();
  EXPECT_TRUE(summary.systems().empty());
}

TEST(TraceSummaryTest, TableText) {
  trace_log log;
  for (int ms = 1; ms <= 20; ++ms) {
    add_run(log, "physics", 0, ms * 1'000'000, 2);
    add_run(log, "render", 2, 4'000'000, 1);
    log.add(event(kind::refresh, "refresh", 0, 0, 500'000));
  }
  const trace_summary summary = summarize(log);
  const std::string rule(60, '-');
  // Shares of a 50 ms frame.
  EXPECT_EQ(
      format_trace_summary(summary, 50),
      "system                   mean ms    p95 ms   share  subtasks\n" + rule +
          "\n"
          "physics                   10.500    19.000   21.0%       2.0\n"
          "render                     4.000     4.000    8.0%       1.0\n" +
          rule +
          "\n"
          "refresh                    0.500     0.500    1.0%\n");
  // Without a base, no shares; the system that never ran has no row.
  EXPECT_EQ(
      format_trace_summary(summary),
      "system                   mean ms    p95 ms   share  subtasks\n" + rule +
          "\n"
          "physics                   10.500    19.000       -       2.0\n"
          "render                     4.000     4.000       -       1.0\n" +
          rule +
          "\n"
          "refresh                    0.500     0.500       -\n");
  // An empty summary still has the frame of the table.
  EXPECT_EQ(format_trace_summary(trace_summary{}),
            "system                   mean ms    p95 ms   share  subtasks\n" +
                rule + "\n" + rule +
                "\n"
                "refresh                    0.000     0.000       -\n");
}

}  // namespace
}  // namespace strata
