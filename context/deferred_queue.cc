#include "context/deferred_queue.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace strata::deferred_queue_internal {

arena& arena::operator=(arena&& other) noexcept {
  if (this != &other) {
    for (const block& b : blocks_) delete[] b.bytes;
    blocks_ = std::move(other.blocks_);
    block_ = std::exchange(other.block_, 0);
    offset_ = std::exchange(other.offset_, 0);
  }
  return *this;
}

arena::~arena() {
  for (const block& b : blocks_) delete[] b.bytes;
}

void* arena::allocate(std::size_t size, std::size_t align) {
  for (; block_ < blocks_.size(); ++block_, offset_ = 0) {
    const std::size_t start = (offset_ + align - 1) / align * align;
    if (start + size <= blocks_[block_].size) {
      offset_ = start + size;
      return blocks_[block_].bytes + start;
    }
  }
  return allocate_in_new_block(size);
}

void* arena::allocate_in_new_block(std::size_t size) {
  const std::size_t bytes = std::max(block_size, size);
  // Room in the block list first: a failure after the block's allocation
  // would lose it.
  blocks_.reserve(blocks_.size() + 1);
  // new std::byte[] returns memory aligned for max_align_t; left
  // uninitialized, since every object is constructed in place.
  blocks_.push_back({new std::byte[bytes], bytes});
  block_ = blocks_.size() - 1;
  offset_ = size;
  return blocks_.back().bytes;
}

}  // namespace strata::deferred_queue_internal
