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
#ifndef STRATA_CONTEXT_TRACE_H_
#define STRATA_CONTEXT_TRACE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ostream>
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

}  // namespace strata

#endif  // STRATA_CONTEXT_TRACE_H_
