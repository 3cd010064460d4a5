#include "context/internal/append_buffer.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace strata::context_internal {
namespace {

// Plain new for the usual alignments, aligned new past them (an element
// type declared alignas).
std::byte* allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    return static_cast<std::byte*>(::operator new(bytes));
  }
  return static_cast<std::byte*>(
      ::operator new(bytes, static_cast<std::align_val_t>(alignment)));
}

void deallocate(std::byte* bytes, std::size_t alignment) noexcept {
  if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    ::operator delete(bytes);
  } else {
    ::operator delete(bytes, static_cast<std::align_val_t>(alignment));
  }
}

}  // namespace

void append_bytes::grow(std::size_t element_size, std::size_t alignment) {
  const auto used = static_cast<std::size_t>(end_ - begin_);
  const auto capacity = static_cast<std::size_t>(limit_ - begin_);
  const std::size_t bigger = std::max(64 * element_size, 2 * capacity);
  std::byte* storage = allocate(bigger, alignment);
  if (used > 0) std::memcpy(storage, begin_, used);
  if (begin_ != nullptr) deallocate(begin_, alignment);
  begin_ = storage;
  end_ = storage + used;
  limit_ = storage + bigger;
}

void append_bytes::release(std::size_t alignment) noexcept {
  if (begin_ != nullptr) deallocate(begin_, alignment);
  begin_ = end_ = limit_ = nullptr;
}

void append_bytes::take(append_bytes& other, std::size_t alignment) noexcept {
  release(alignment);
  begin_ = std::exchange(other.begin_, nullptr);
  end_ = std::exchange(other.end_, nullptr);
  limit_ = std::exchange(other.limit_, nullptr);
}

}  // namespace strata::context_internal
