// The one checker of the Chrome trace JSON Strata writes
// (trace_log::write_chrome_json in context/trace.h, ctx.write_trace_json(),
// the particle demo's --trace): tests parse the text with it, then assert on
// the events.
//
//   check_json(text)          OK iff `text` is exactly one well-formed JSON
//                             value (RFC 8259, strictly: no trailing commas,
//                             no leading zeros, no raw control characters in
//                             strings, only space, tab, CR and LF as white
//                             space) with nothing but white space after it.
//   parse_chrome_trace(text)  check_json, then the trace: a top-level object
//                             whose "traceEvents" member is an array of
//                             event objects, each with the string members
//                             "name", "cat" and "ph", the number members
//                             "tid" (an integer), "ts" and "dur", and
//                             optionally "args", an object of numbers; other
//                             members (such as "pid") are allowed. Returns
//                             the events in document order.
//
// Errors are InvalidArgument statuses naming the offset of malformed JSON or
// the event and member that is missing or of the wrong type. String values
// are unescaped (\uXXXX into UTF-8). Not a general JSON library: it keeps
// only what the trace tests look at, and is meant for test-sized documents.
#ifndef STRATA_TESTING_CHROME_TRACE_H_
#define STRATA_TESTING_CHROME_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace strata::testing {

// One element of "traceEvents".
struct chrome_trace_event {
  std::string name;
  std::string cat;
  std::string ph;
  std::int64_t tid = 0;
  double ts = 0;   // microseconds
  double dur = 0;  // microseconds
  std::map<std::string, double> args;
};

struct chrome_trace {
  std::vector<chrome_trace_event> events;
  // How many objects, anywhere in the document, have a "ph" member: the
  // number of events when nothing else carries one.
  std::size_t ph_members = 0;
};

absl::Status check_json(std::string_view text);

absl::StatusOr<chrome_trace> parse_chrome_trace(std::string_view text);

}  // namespace strata::testing

#endif  // STRATA_TESTING_CHROME_TRACE_H_
