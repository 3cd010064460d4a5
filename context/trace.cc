// The parts of context/trace.h that need <ostream> or <chrono>: out of line, so
// that every file including the context neither parses nor instantiates them
// (//benchmarks/compile:include_only). The clock is the cost model's
// (base/steady_clock_ns.h, which run_cost::now_ns reads too), so that spans
// and measured costs read the same time (trace_test checks); read here
// directly rather than through run_cost::now_ns, so that a span's clock
// reading is one call.
#include "context/trace.h"

#include <cstdint>
#include <ostream>
#include <string_view>

#include "base/steady_clock_ns.h"

namespace strata {
namespace {

void write_escaped(std::ostream& out, std::string_view text) {
  for (char c : text) {
    if (c == '"' || c == '\\') out << '\\';
    out << c;
  }
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

}  // namespace strata
