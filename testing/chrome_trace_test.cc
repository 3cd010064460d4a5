#include "testing/chrome_trace.h"

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace strata::testing {
namespace {

TEST(CheckJsonTest, AcceptsWellFormedJson) {
  for (const char* good : {
           R"({"a":[1,-2.5e3,"x\"y",true,null,{}]})",
           R"({"a":[1,-2.5e3,"x\"y",true,null],"b":{}})",
           R"( [ 0, -0.5, 1E+2, 3e-1, "\u00e9\/\b\f\n\r\t\\" ] )",
           "\t\r\n{}\n",
           "\"just a string\"",
           "42",
       }) {
    EXPECT_TRUE(check_json(good).ok()) << good;
  }
}

TEST(CheckJsonTest, RejectsMalformedJson) {
  for (const char* bad : {
           "",
           "{",
           R"({"a":[1,]})",
           R"({"a":1,})",
           R"({"a" 1})",
           R"({"a":"x"y"})",
           R"({"a":01})",
           "01x",
           "{\"a\":\"tab\there\"}",  // a raw control character in a string
           R"({"a":1}{)",
           "{} {}",
           "[1 2]",
           R"(["\q"])",
           R"(["\u12G4"])",
           R"([1.])",
           R"([.5])",
           R"([-])",
           R"([1e])",
           R"([+1])",
           R"([tru])",
           R"({a:1})",
           "\v{}",  // not JSON white space
       }) {
    EXPECT_FALSE(check_json(bad).ok()) << bad;
  }
}

TEST(CheckJsonTest, NamesTheOffset) {
  const absl::Status status = check_json(R"({"a":1,})");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("offset 7"), std::string::npos)
      << status.message();
}

// What trace_log::write_chrome_json writes (context/trace.h).
constexpr char kStrataTrace[] = R"({"traceEvents":[
{"name":"first","cat":"system","ph":"X","pid":1,"tid":0,"ts":0,"dur":12.5,"args":{"step":1,"system":0,"subtask":0}},
{"name":"first #1","cat":"subtask","ph":"X","pid":1,"tid":1,"ts":1.25,"dur":3,"args":{"step":1,"system":0,"subtask":1}},
{"name":"third \"quoted\"","cat":"system","ph":"X","pid":1,"tid":2,"ts":14,"dur":1.5e-05,"args":{"step":1,"system":2,"subtask":0}},
{"name":"refresh","cat":"refresh","ph":"X","pid":1,"tid":0,"ts":20,"dur":0.75,"args":{"step":1,"system":0,"subtask":0}}
]}
)";

TEST(ParseChromeTraceTest, ReturnsTheEvents) {
  const absl::StatusOr<chrome_trace> trace = parse_chrome_trace(kStrataTrace);
  ASSERT_TRUE(trace.ok()) << trace.status();
  ASSERT_EQ(trace->events.size(), 4u);
  EXPECT_EQ(trace->ph_members, 4u);
  const chrome_trace_event& first = trace->events[0];
  EXPECT_EQ(first.name, "first");
  EXPECT_EQ(first.cat, "system");
  EXPECT_EQ(first.ph, "X");
  EXPECT_EQ(first.tid, 0);
  EXPECT_EQ(first.ts, 0.0);
  EXPECT_EQ(first.dur, 12.5);
  EXPECT_EQ(first.args.at("step"), 1.0);
  EXPECT_EQ(first.args.at("system"), 0.0);
  EXPECT_EQ(first.args.at("subtask"), 0.0);
  EXPECT_EQ(trace->events[1].name, "first #1");
  EXPECT_EQ(trace->events[1].tid, 1);
  EXPECT_EQ(trace->events[1].ts, 1.25);
  EXPECT_EQ(trace->events[1].args.at("subtask"), 1.0);
  EXPECT_EQ(trace->events[2].name, "third \"quoted\"");  // unescaped
  EXPECT_EQ(trace->events[2].dur, 1.5e-05);
  EXPECT_EQ(trace->events[3].cat, "refresh");
}

TEST(ParseChromeTraceTest, AcceptsAnEmptyTrace) {
  const absl::StatusOr<chrome_trace> trace =
      parse_chrome_trace("{\"traceEvents\":[\n]}\n");
  ASSERT_TRUE(trace.ok()) << trace.status();
  EXPECT_TRUE(trace->events.empty());
  EXPECT_EQ(trace->ph_members, 0u);
}

TEST(ParseChromeTraceTest, RejectsMalformedJson) {
  const std::string trace = kStrataTrace;
  for (const std::string& bad : {
           trace.substr(0, trace.size() / 2),                  // cut short
           trace + ",",                                        // trailing
           std::string(R"({"traceEvents":[{"name":"a",}]})"),  // comma
       }) {
    const absl::Status status = parse_chrome_trace(bad).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find("malformed JSON"), std::string::npos)
        << status.message();
  }
}

TEST(ParseChromeTraceTest, RejectsWhatIsNotATrace) {
  auto trace_of = [](const std::string& event) {
    return "{\"traceEvents\":[" + event + "]}";
  };
  const std::string good =
      R"({"name":"a","cat":"system","ph":"X","tid":0,"ts":1,"dur":2})";
  ASSERT_TRUE(parse_chrome_trace(trace_of(good)).ok());

  std::vector<std::string> bad = {"[]", R"({"events":[]})",
                                  R"({"traceEvents":{}})", trace_of("1")};
  // Each required member missing, then null.
  for (const std::string member : {"name", "cat", "ph", "tid", "ts", "dur"}) {
    const std::string key = "\"" + member + "\"";
    const std::size_t at = good.find(key);
    std::string missing = good;
    bad.push_back(trace_of(missing.replace(at, key.size(), "\"other\"")));
    const std::size_t value = at + key.size() + 1;
    std::string null = good;
    bad.push_back(trace_of(
        null.replace(value, good.find_first_of(",}", value) - value, "null")));
  }
  std::string strings_for_numbers = good;
  bad.push_back(trace_of(
      strings_for_numbers.replace(good.find("\"ts\":1"), 6, R"("ts":"1")")));
  std::string fractional_tid = good;
  bad.push_back(trace_of(
      fractional_tid.replace(good.find("\"tid\":0"), 7, R"("tid":0.5)")));
  const std::string open = good.substr(0, good.size() - 1);
  bad.push_back(trace_of(open + R"(,"args":[]})"));
  bad.push_back(trace_of(open + R"(,"args":{"step":"1"}})"));

  for (const std::string& text : bad) {
    const absl::Status status = parse_chrome_trace(text).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << text;
  }
}

TEST(ParseChromeTraceTest, CountsPhMembersAnywhere) {
  const absl::StatusOr<chrome_trace> trace = parse_chrome_trace(
      R"({"traceEvents":[{"name":"a","cat":"c","ph":"X","tid":0,"ts":1,)"
      R"("dur":2}],"other":{"ph":"B"}})");
  ASSERT_TRUE(trace.ok()) << trace.status();
  EXPECT_EQ(trace->events.size(), 1u);
  EXPECT_EQ(trace->ph_members, 2u);
}

}  // namespace
}  // namespace strata::testing
