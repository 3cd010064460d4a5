// steady_clock_ns(): the time Strata measures with, in nanoseconds.
//
// The reading of std::chrono::steady_clock, in nanoseconds since the
// clock's unspecified start: it never goes back, so the difference of two
// readings is a duration, while a reading alone means nothing. Strata reads
// time in two places, and both read it here: the cost model that times
// system runs for the adaptive run policy (run_cost::now_ns,
// scheduler/hand_off.h) and trace spans (trace_span::now_ns,
// context/trace.h). One spelling keeps a span and a measured cost on one
// clock in one unit, so that a trace shows the times the policy decided on
// (context/trace_test.cc checks).
//
// Brings <chrono>: include it from the .cc files that read the clock, not
// from headers the context includes, so that a file using Strata does not
// parse <chrono> for it.
//
// Thread-safety: no state; callable from any thread.
#ifndef STRATA_BASE_STEADY_CLOCK_NS_H_
#define STRATA_BASE_STEADY_CLOCK_NS_H_

#include <chrono>
#include <cstdint>

namespace strata {

inline std::int64_t steady_clock_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace strata

#endif  // STRATA_BASE_STEADY_CLOCK_NS_H_
