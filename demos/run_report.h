// The end-of-run report of //demos:particles: a table of per-system timings
// (mean and 95th percentile per frame, share of the mean frame, mean
// subtasks) with the refresh and the whole step, then the totals.
//
//   std::cout << strata::demos::format_report(result);
//
// The systems and the refresh are the trace summary's table
// (strata::format_trace_summary, context/trace_summary.h); the report adds the
// whole step, the image composition and the totals in the same columns.
// Shares are of the mean frame time; systems that run at the same time
// overlap, so the shares may add up to more than 100%. Percentiles are
// nearest-rank (context/trace_summary.h) throughout.
#ifndef STRATA_DEMOS_RUN_REPORT_H_
#define STRATA_DEMOS_RUN_REPORT_H_

#include <string>
#include <vector>

#include "demos/particle_simulation.h"

namespace strata::demos {

double mean(const std::vector<double>& samples);
// Nearest-rank percentile, p in [0, 100]; 0 for no samples.
double percentile(std::vector<double> samples, double p);

std::string format_report(const simulation_result& result);

}  // namespace strata::demos

#endif  // STRATA_DEMOS_RUN_REPORT_H_
