// Internal to //context: the payload of a saved world (context/save_load.h)
// in memory. payload_writer appends to a std::string; payload_reader reads
// one with bounds checks (a read past the end fails, it never overruns).
// A serializer (a signature's .serialize_with(io)) sees std streams: framed()
// gives it a std::ostream that appends to the payload after a u64 size, or
// a std::istream over exactly the bytes of one value.
#ifndef STRATA_CONTEXT_INTERNAL_BYTE_STREAMS_H_
#define STRATA_CONTEXT_INTERNAL_BYTE_STREAMS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <istream>
#include <ostream>
#include <streambuf>
#include <string>

namespace strata::context_internal {

// A streambuf that appends what is written to a std::string.
class string_appender : public std::streambuf {
 public:
  explicit string_appender(std::string& out) : out_(out) {}

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      out_.push_back(traits_type::to_char_type(c));
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.append(s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  std::string& out_;
};

// A streambuf that reads the bytes [first, last).
class bytes_source : public std::streambuf {
 public:
  bytes_source(const char* first, const char* last) {
    char* begin = const_cast<char*>(first);  // never written through
    setg(begin, begin, const_cast<char*>(last));
  }
};

class payload_writer {
 public:
  explicit payload_writer(std::string& out) : out_(out), appender_(out) {}

  void bytes(const void* data, std::size_t size) {
    out_.append(static_cast<const char*>(data), size);
  }
  template <typename T>
  void value(const T& v) {
    bytes(&v, sizeof(T));
  }
  // A u64 size, then what write(std::ostream&) writes.
  template <typename Write>
  void framed(Write&& write) {
    const std::size_t at = out_.size();
    value(std::uint64_t{0});
    std::ostream stream(&appender_);
    write(stream);
    stream.flush();
    const std::uint64_t size = out_.size() - at - sizeof(std::uint64_t);
    std::memcpy(out_.data() + at, &size, sizeof(size));
  }

 private:
  std::string& out_;
  string_appender appender_;
};

class payload_reader {
 public:
  payload_reader(const char* first, const char* last)
      : at_(first), end_(last) {}

  bool bytes(void* data, std::size_t size) {
    if (static_cast<std::size_t>(end_ - at_) < size) return false;
    std::memcpy(data, at_, size);
    at_ += size;
    return true;
  }
  template <typename T>
  bool value(T& v) {
    return bytes(&v, sizeof(T));
  }
  // A u64 size, then read(std::istream&) over exactly that many bytes,
  // which it must accept (return true) and consume whole. A throwing read
  // counts as a refusal.
  template <typename Read>
  bool framed(Read&& read) {
    std::uint64_t size = 0;
    if (!value(size) || static_cast<std::uint64_t>(end_ - at_) < size) {
      return false;
    }
    bytes_source source(at_, at_ + size);
    std::istream stream(&source);
    bool accepted = false;
    try {
      accepted = read(stream) && !stream.fail() &&
                 stream.peek() == std::istream::traits_type::eof();
    } catch (const std::exception&) {
      accepted = false;
    }
    at_ += size;
    return accepted;
  }
  bool at_end() const noexcept { return at_ == end_; }

 private:
  const char* at_;
  const char* end_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_BYTE_STREAMS_H_
