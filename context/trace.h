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
// The summary of a log, its durations and its table are in
// context/trace_summary.h, which programs that read them include.
#ifndef STRATA_CONTEXT_TRACE_H_
#define STRATA_CONTEXT_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>
#include <vector>

namespace strata {

// Which thread recorded a span: equal for the spans of one thread while it
// runs, distinct between threads running at the same time (the address of
// a thread-local object). Not std::thread::id, and the clock and the JSON
// writer are out of line (trace.cc), so that this header, which every
// context includes, needs neither <thread>, <chrono> nor <ostream>.
using thread_token = std::uintptr_t;
thread_token this_thread_token() noexcept;

struct trace_event {
  enum class kind { system, subtask, refresh };
  kind what;
  std::string_view name;  // the system's name, or "refresh"
  std::size_t system_id = 0;
  std::size_t subtask = 0;
  thread_token thread = 0;
  std::int64_t start_ns = 0;  // steady_clock
  std::int64_t end_ns = 0;
  std::uint64_t step = 0;
};

// A span being measured, kept in subtask states when tracing is on.
struct trace_span {
  thread_token thread = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;

  // The clock system costs are measured with (base/steady_clock_ns.h, as
  // run_cost::now_ns in scheduler/hand_off.h), read in trace.cc: spans and
  // costs read the same time.
  static std::int64_t now_ns() noexcept;
  void begin() {
    thread = this_thread_token();
    start_ns = now_ns();
  }
  void end() { end_ns = now_ns(); }
};

class trace_log {
 public:
  const std::vector<trace_event>& events() const { return events_; }
  void clear() { events_.clear(); }
  void add(const trace_event& event) { events_.push_back(event); }

  // The events as Chrome trace JSON; tid 0 is `main_thread`'s.
  void write_chrome_json(std::ostream& out, thread_token main_thread) const;

 private:
  std::vector<trace_event> events_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_TRACE_H_
