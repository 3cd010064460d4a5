#include "sparse_set/ordered_index_set.h"

#include <algorithm>
#include <bit>

namespace strata {
namespace {

// The position (0..63) of the `n`-th set bit of `word` (which has more
// than n).
std::size_t nth_set_bit(std::uint64_t word, std::size_t n) noexcept {
  for (; n > 0; --n) word &= word - 1;
  return static_cast<std::size_t>(std::countr_zero(word));
}

}  // namespace

void ordered_index_set::clear() noexcept {
  std::fill(words_.begin(), words_.end(), word_type{0});
  std::fill(block_counts_.begin(), block_counts_.end(), 0u);
  size_ = 0;
}

ordered_index_set::position ordered_index_set::position_of_rank(
    size_type rank) const noexcept {
  if (rank >= size_) return {words_.size(), 0};
  size_type block = 0;
  while (rank >= block_counts_[block]) rank -= block_counts_[block++];
  size_type w = block * block_words;
  for (;; ++w) {
    const auto count = static_cast<size_type>(std::popcount(words_[w]));
    if (rank < count) break;
    rank -= count;
  }
  return {w, nth_set_bit(words_[w], rank)};
}

ordered_index_set::index_span ordered_index_set::span_of_ranks(
    size_type begin_rank, size_type end_rank) const noexcept {
  const position first = position_of_rank(begin_rank);
  const position last = position_of_rank(end_rank - 1);
  return {first.word * word_bits + first.bit,
          last.word * word_bits + last.bit + 1};
}

void ordered_index_set::grow_to(size_type words) {
  size_type target = std::max(words, words_.size() * 2);
  target = (target + block_words - 1) / block_words * block_words;
  words_.resize(target, word_type{0});
  block_counts_.resize(target / block_words, 0u);
}

}  // namespace strata
