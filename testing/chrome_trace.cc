#include "testing/chrome_trace.h"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace strata::testing {
namespace {

// A parsed JSON value.
struct json;
using json_object = std::map<std::string, json>;
using json_array = std::vector<json>;
struct json {
  std::variant<std::nullptr_t, bool, double, std::string,
               std::shared_ptr<json_array>, std::shared_ptr<json_object>>
      value;
  const json_object* object() const {
    auto* p = std::get_if<std::shared_ptr<json_object>>(&value);
    return p ? p->get() : nullptr;
  }
  const json_array* array() const {
    auto* p = std::get_if<std::shared_ptr<json_array>>(&value);
    return p ? p->get() : nullptr;
  }
  const std::string* string() const { return std::get_if<std::string>(&value); }
  const double* number() const { return std::get_if<double>(&value); }
};

// A strict RFC 8259 parser. Counts "ph" members on the way.
class json_parser {
 public:
  explicit json_parser(std::string_view text) : text_(text) {}

  // The document, or an error naming the offset.
  absl::StatusOr<json> parse() {
    json result;
    if (!value(result)) return error();
    skip_space();
    if (pos_ != text_.size()) return error();
    return result;
  }
  std::size_t ph_members() const { return ph_members_; }

 private:
  absl::Status error() const {
    return absl::InvalidArgumentError("malformed JSON at offset " +
                                      std::to_string(pos_));
  }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  bool peek(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  // JSON white space only: space, tab, line feed, carriage return.
  void skip_space() {
    while (peek(' ') || peek('\t') || peek('\n') || peek('\r')) ++pos_;
  }
  bool consume(char c) {
    skip_space();
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool value(json& out) {
    skip_space();
    if (pos_ >= text_.size()) return false;
    switch (text_[pos_]) {
      case '{':
        return object(out);
      case '[':
        return array(out);
      case '"': {
        std::string s;
        if (!string(s)) return false;
        out.value = std::move(s);
        return true;
      }
      case 't':
        return literal("true") && (out.value = true, true);
      case 'f':
        return literal("false") && (out.value = false, true);
      case 'n':
        return literal("null") && (out.value = nullptr, true);
      default:
        return number(out);
    }
  }
  bool object(json& out) {
    auto members = std::make_shared<json_object>();
    ++pos_;  // {
    if (!consume('}')) {
      do {
        skip_space();
        std::string key;
        if (!string(key) || !consume(':')) return false;
        json member;
        if (!value(member)) return false;
        if (key == "ph") ++ph_members_;
        (*members)[key] = std::move(member);
      } while (consume(','));
      if (!consume('}')) return false;
    }
    out.value = std::move(members);
    return true;
  }
  bool array(json& out) {
    auto items = std::make_shared<json_array>();
    ++pos_;  // [
    if (!consume(']')) {
      do {
        json item;
        if (!value(item)) return false;
        items->push_back(std::move(item));
      } while (consume(','));
      if (!consume(']')) return false;
    }
    out.value = std::move(items);
    return true;
  }
  // Four hex digits after "\u".
  bool hex4(unsigned& code) {
    code = 0;
    for (int i = 0; i < 4; ++i) {
      if (pos_ >= text_.size()) return false;
      const int digit = hex_value(text_[pos_++]);
      if (digit < 0) return false;
      code = code * 16 + static_cast<unsigned>(digit);
    }
    return true;
  }
  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }
  bool string(std::string& out) {
    if (!peek('"')) return false;
    ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return false;
      switch (const char e = text_[pos_++]) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned code;
          if (!hex4(code)) return false;
          // A surrogate pair is one code point; a lone surrogate is
          // well-formed JSON but no character: U+FFFD.
          if (code >= 0xD800 && code < 0xDC00 &&
              text_.substr(pos_, 2) == "\\u") {
            const std::size_t after_high = pos_;
            pos_ += 2;
            unsigned low;
            if (!hex4(low)) return false;
            if (low >= 0xDC00 && low < 0xE000) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            } else {
              pos_ = after_high;  // not a pair: read it on its own
            }
          }
          if (code >= 0xD800 && code < 0xE000) code = 0xFFFD;
          append_utf8(out, code);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }
  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  bool number(json& out) {
    const std::size_t start = pos_;
    if (peek('-')) ++pos_;
    if (peek('0')) {
      ++pos_;
    } else if (!digits()) {
      return false;
    }
    if (peek('.')) {
      ++pos_;
      if (!digits()) return false;
    }
    if (peek('e') || peek('E')) {
      ++pos_;
      if (peek('+') || peek('-')) ++pos_;
      if (!digits()) return false;
    }
    const std::string token(text_.substr(start, pos_ - start));
    out.value = std::strtod(token.c_str(), nullptr);
    return true;
  }
  bool digits() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    return pos_ > start;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t ph_members_ = 0;
};

absl::Status event_error(std::size_t index, const std::string& what) {
  return absl::InvalidArgumentError("trace event " + std::to_string(index) +
                                    ": " + what);
}

// Reads the string member `key` of `event` into `out`.
absl::Status read_string(const json_object& event, std::size_t index,
                         const char* key, std::string& out) {
  const auto it = event.find(key);
  if (it == event.end() || it->second.string() == nullptr) {
    return event_error(index, std::string("no \"") + key + "\" string");
  }
  out = *it->second.string();
  return absl::OkStatus();
}

// Reads the number member `key` of `event` into `out`.
absl::Status read_number(const json_object& event, std::size_t index,
                         const char* key, double& out) {
  const auto it = event.find(key);
  if (it == event.end() || it->second.number() == nullptr) {
    return event_error(index, std::string("no \"") + key + "\" number");
  }
  out = *it->second.number();
  return absl::OkStatus();
}

absl::StatusOr<chrome_trace_event> read_event(const json& value,
                                              std::size_t index) {
  const json_object* event = value.object();
  if (event == nullptr) return event_error(index, "not an object");
  chrome_trace_event e;
  absl::Status status = read_string(*event, index, "name", e.name);
  if (status.ok()) status = read_string(*event, index, "cat", e.cat);
  if (status.ok()) status = read_string(*event, index, "ph", e.ph);
  double tid = 0;
  if (status.ok()) status = read_number(*event, index, "tid", tid);
  if (status.ok()) status = read_number(*event, index, "ts", e.ts);
  if (status.ok()) status = read_number(*event, index, "dur", e.dur);
  if (!status.ok()) return status;
  if (tid != std::floor(tid)) {
    return event_error(index, "\"tid\" is not an integer");
  }
  e.tid = static_cast<std::int64_t>(tid);
  if (const auto it = event->find("args"); it != event->end()) {
    const json_object* args = it->second.object();
    if (args == nullptr) return event_error(index, "\"args\" not an object");
    for (const auto& [key, arg] : *args) {
      if (arg.number() == nullptr) {
        return event_error(index, "args member \"" + key + "\" not a number");
      }
      e.args[key] = *arg.number();
    }
  }
  return e;
}

}  // namespace

absl::Status check_json(std::string_view text) {
  return json_parser(text).parse().status();
}

absl::StatusOr<chrome_trace> parse_chrome_trace(std::string_view text) {
  json_parser parser(text);
  absl::StatusOr<json> doc = parser.parse();
  if (!doc.ok()) return doc.status();
  if (doc->object() == nullptr) {
    return absl::InvalidArgumentError("a trace is a JSON object");
  }
  const auto events_it = doc->object()->find("traceEvents");
  if (events_it == doc->object()->end() ||
      events_it->second.array() == nullptr) {
    return absl::InvalidArgumentError("no \"traceEvents\" array");
  }
  chrome_trace trace;
  trace.ph_members = parser.ph_members();
  const json_array& events = *events_it->second.array();
  for (std::size_t i = 0; i < events.size(); ++i) {
    absl::StatusOr<chrome_trace_event> event = read_event(events[i], i);
    if (!event.ok()) return event.status();
    trace.events.push_back(*std::move(event));
  }
  return trace;
}

}  // namespace strata::testing
