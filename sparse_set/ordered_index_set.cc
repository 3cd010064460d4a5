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

void ordered_index_set::walk_members(size_type begin_rank, size_type end_rank,
                                     batch_visitor visit, void* context) const {
  if (end_rank > size_) end_rank = size_;
  if (begin_rank >= end_rank) return;
  member_batch batches[batch_capacity];
  size_type batch_count = 0;
  const auto add = [&](const member_batch& batch) {
    batches[batch_count++] = batch;
    if (batch_count == batch_capacity) {
      visit(context, batches, batch_count);
      batch_count = 0;
    }
  };
  // Words [first word, stop word], masked at both ends; no per-member
  // count is needed inside the loops.
  const index_span span = span_of_ranks(begin_rank, end_rank);
  const size_type stop_word = span.stop / word_bits;
  const word_type last_mask =
      stop_word < words_.size() ? (word_type{1} << (span.stop % word_bits)) - 1
                                : 0;
  size_type w = span.first / word_bits;
  word_type bits = words_[w] & (~word_type{0} << (span.first % word_bits));
  for (;;) {
    // The last word keeps only its bits before the stop (none past the
    // bitmap's end): never full, it ends the walk below.
    if (w == stop_word) bits &= last_mask;
    if (bits == ~word_type{0}) {
      const size_type first = w * word_bits;
      do {
        // A whole full block at once, when the walk is at its start.
        if (w % block_words == 0 && w + block_words <= stop_word &&
            block_counts_[w / block_words] == block_indices) {
          w += block_words;
        } else {
          ++w;
        }
        bits = w < words_.size() ? words_[w] : 0;
      } while (w < stop_word && bits == ~word_type{0});
      add({first, w * word_bits - first, 0});
      continue;
    }
    if (bits != 0) add({w * word_bits, 0, bits});
    if (w == stop_word) break;
    ++w;
    bits = w < words_.size() ? words_[w] : 0;
  }
  if (batch_count > 0) visit(context, batches, batch_count);
}

void ordered_index_set::grow_to(size_type words) {
  size_type target = std::max(words, words_.size() * 2);
  target = (target + block_words - 1) / block_words * block_words;
  words_.resize(target, word_type{0});
  block_counts_.resize(target / block_words, 0u);
}

}  // namespace strata
