#include "base/internal/trivial_vector.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace strata::base_internal {
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
  if (bytes == nullptr) return;
  if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    ::operator delete(bytes);
  } else {
    ::operator delete(bytes, static_cast<std::align_val_t>(alignment));
  }
}

}  // namespace

void trivial_bytes::grow_by_one(std::size_t element_size,
                                std::size_t alignment) {
  const auto capacity = static_cast<std::size_t>(limit_ - begin_);
  reallocate(std::max(16 * element_size, 2 * capacity), alignment);
}

void trivial_bytes::grow_to(std::size_t bytes, std::size_t alignment) {
  const auto capacity = static_cast<std::size_t>(limit_ - begin_);
  reallocate(std::max(bytes, 2 * capacity), alignment);
}

void trivial_bytes::reallocate(std::size_t bytes, std::size_t alignment) {
  const auto used = static_cast<std::size_t>(end_ - begin_);
  std::byte* storage = bytes > 0 ? allocate(bytes, alignment) : nullptr;
  if (used > 0) std::memcpy(storage, begin_, used);
  deallocate(begin_, alignment);
  begin_ = storage;
  end_ = storage + used;
  limit_ = storage + bytes;
}

void trivial_bytes::copy_from(const trivial_bytes& other,
                              std::size_t alignment) {
  const auto bytes = static_cast<std::size_t>(other.end_ - other.begin_);
  if (bytes > static_cast<std::size_t>(limit_ - begin_)) {
    // Allocated before anything is freed: a failure changes nothing.
    std::byte* storage = allocate(bytes, alignment);
    deallocate(begin_, alignment);
    begin_ = storage;
    limit_ = storage + bytes;
  }
  if (bytes > 0) std::memcpy(begin_, other.begin_, bytes);
  end_ = begin_ + bytes;
}

void trivial_bytes::release(std::size_t alignment) noexcept {
  deallocate(begin_, alignment);
  begin_ = end_ = limit_ = nullptr;
}

void trivial_bytes::take(trivial_bytes& other, std::size_t alignment) noexcept {
  release(alignment);
  begin_ = std::exchange(other.begin_, nullptr);
  end_ = std::exchange(other.end_, nullptr);
  limit_ = std::exchange(other.limit_, nullptr);
}

}  // namespace strata::base_internal
