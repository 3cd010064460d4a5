// A small strict JSON parser for the demos' tests (RFC 8259 values; no
// extensions), enough to prove a Chrome trace is well formed and to walk it.
//
//   absl::StatusOr<json> doc = json_parser(text).parse();
//   const json_array* events = doc->object()->at("traceEvents").array();
//
// parse() returns the document or InvalidArgumentError naming the offset of
// the first error. Numbers are doubles; \u escapes are read as '?'. The
// parser keeps a reference to the text, which must outlive it. Test code
// only: recursive (deep nesting uses stack), not tuned for size.
#ifndef STRATA_DEMOS_JSON_TESTING_H_
#define STRATA_DEMOS_JSON_TESTING_H_

#include <cctype>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace strata::demos {

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

class json_parser {
 public:
  explicit json_parser(const std::string& text) : text_(text) {}

  // The document, or an error naming the offset.
  absl::StatusOr<json> parse() {
    json result;
    if (!value(result)) return error();
    skip_space();
    if (pos_ != text_.size()) return error();
    return result;
  }

 private:
  absl::Status error() const {
    return absl::InvalidArgumentError("malformed JSON at offset " +
                                      std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool consume(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }
  bool value(json& out) {
    skip_space();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{') return object(out);
    if (c == '[') return array(out);
    if (c == '"') {
      std::string s;
      if (!string(s)) return false;
      out.value = std::move(s);
      return true;
    }
    if (c == 't' && literal("true")) return out.value = true, true;
    if (c == 'f' && literal("false")) return out.value = false, true;
    if (c == 'n' && literal("null")) return out.value = nullptr, true;
    return number(out);
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
  bool string(std::string& out) {
    if (pos_ >= text_.size() || text_[pos_] != '"') return false;
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
      const char e = text_[pos_++];
      if (e == 'u') {
        for (int i = 0; i < 4; ++i) {
          if (pos_ >= text_.size() || !std::isxdigit(text_[pos_++]))
            return false;
        }
        out += '?';
      } else if (std::string("\"\\/bfnrt").find(e) != std::string::npos) {
        out += e;
      } else {
        return false;
      }
    }
    return false;
  }
  bool number(json& out) {
    const std::size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    auto digits = [&] {
      const std::size_t from = pos_;
      while (pos_ < text_.size() && std::isdigit(text_[pos_])) ++pos_;
      return pos_ > from;
    };
    if (!digits()) return false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) return false;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digits()) return false;
    }
    out.value = std::stod(text_.substr(start, pos_ - start));
    return true;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace strata::demos

#endif  // STRATA_DEMOS_JSON_TESTING_H_
