// Internal to //sparse_set: the per-block member counts and the size of an
// ordered_index_set (ordered_index_set.h) during a batch of inserts or
// erases (insert_all, erase_all), kept in registers and written back once
// per block instead of once per index: a batch visits indices in mostly
// increasing order, and one at a time each update waited on the previous
// one in memory.
#ifndef STRATA_SPARSE_SET_INTERNAL_BATCH_COUNTER_H_
#define STRATA_SPARSE_SET_INTERNAL_BATCH_COUNTER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::sparse_set_internal {

class batch_counter {
 public:
  // `added`: the batch inserts (else it erases). `block_words`: words per
  // counted block.
  batch_counter(std::vector<std::uint32_t>& block_counts, std::size_t& size,
                std::size_t block_words, bool added) noexcept
      : block_counts_(block_counts),
        size_(size),
        block_words_(block_words),
        added_(added) {}

  // One index of word `word` changed.
  void count(std::size_t word) noexcept {
    if (word / block_words_ != block_) {
      flush();
      block_ = word / block_words_;
    }
    ++in_block_;
    ++total_;
  }
  // Writes the current block's count back (before the blocks grow).
  void flush() noexcept {
    if (in_block_ == 0) return;
    const auto n = static_cast<std::uint32_t>(in_block_);
    block_counts_[block_] =
        added_ ? block_counts_[block_] + n : block_counts_[block_] - n;
    in_block_ = 0;
  }
  // Writes everything back; the number of indices changed.
  std::size_t finish() noexcept {
    flush();
    size_ = added_ ? size_ + total_ : size_ - total_;
    return total_;
  }

 private:
  std::vector<std::uint32_t>& block_counts_;
  std::size_t& size_;
  std::size_t block_words_;
  bool added_;
  std::size_t block_ = 0;
  std::size_t in_block_ = 0;
  std::size_t total_ = 0;
};

}  // namespace strata::sparse_set_internal

#endif  // STRATA_SPARSE_SET_INTERNAL_BATCH_COUNTER_H_
