// A set of indices kept as a bitmap, visited in ascending order by runs.
//
//   strata::ordered_index_set set;
//   set.insert(7); set.insert(8); set.insert(9); set.insert(42);
//   set.for_each_run(0, set.size(),
//                    [](std::size_t first, std::size_t count) { ... });
//   // (7, 3), then (42, 1)
//
// What a system's subscription needs: membership changes in O(1) at any
// time, iteration in a deterministic order (ascending index, whatever the
// history of inserts and erases) that hands out runs of consecutive indices,
// so a caller can loop over contiguous arrays indexed by entity index with a
// plain, vectorizable loop, and splitting into slices of equal count
// (`rank` r = the r-th smallest member) for inner parallelism.
//
// Layout: one bit per index up to the largest index ever inserted, plus a
// member count per block of 4096 indices (64 words) so that finding the
// r-th member skips whole blocks.
//
// Complexity: insert, erase, contains O(1) (insert amortized: the bitmap
// grows to the index); insert_all / erase_all O(1) per index, with the
// counts kept in registers. size O(1). position_of_rank(r) O(blocks + 64).
// for_each_run / for_each / for_each_member over [begin, end) ranks: O(words
// from the first member visited to the last + runs),
// and O(blocks) over blocks that are full (a dense world).
// clear O(words). Memory: capacity / 8 bytes, plus 4 bytes per 4096
// indices.
//
// Invalidation: iteration must not run concurrently with insert/erase; an
// insert or erase during a for_each callback is not allowed (the visit is of
// a fixed snapshot only if nothing changes).
//
// Compiled once (ordered_index_set.cc): growing, clearing and finding a
// rank, which do not depend on a caller's types and were compiled inline
// into every program. The per-index and per-member paths (insert, erase,
// contains, the batch and visiting templates) stay inline: the walk over
// the members is part of every system's loop, and compiled into it the
// loop runs faster than through a call per stretch (BM_Damage).
//
// Thread-safety: const members (contains, size, for_each_run, ...) may run
// concurrently with each other; insert/erase/clear/reserve need exclusive
// access.
#ifndef STRATA_SPARSE_SET_ORDERED_INDEX_SET_H_
#define STRATA_SPARSE_SET_ORDERED_INDEX_SET_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/check.h"
#include "base/internal/standard_parts.h"
#include "sparse_set/internal/batch_counter.h"

namespace strata {

class ordered_index_set {
 public:
  using size_type = std::size_t;
  using word_type = std::uint64_t;
  static constexpr size_type word_bits = 64;
  static constexpr size_type block_words = 64;
  static constexpr size_type block_indices = block_words * word_bits;

  // Where the member of a rank sits: word and bit. Past the last member, the
  // word is words().
  struct position {
    size_type word = 0;
    size_type bit = 0;
  };

  ordered_index_set() = default;

  // Adds `index`; false if it was present.
  bool insert(size_type index) {
    const size_type w = index / word_bits;
    if (w >= words_.size()) grow_to(w + 1);
    const word_type bit = word_type{1} << (index % word_bits);
    if (words_[w] & bit) return false;
    words_[w] |= bit;
    ++block_counts_[w / block_words];
    ++size_;
    return true;
  }

  // Removes `index`; false if it was absent.
  bool erase(size_type index) noexcept {
    const size_type w = index / word_bits;
    if (w >= words_.size()) return false;
    const word_type bit = word_type{1} << (index % word_bits);
    if (!(words_[w] & bit)) return false;
    words_[w] &= ~bit;
    --block_counts_[w / block_words];
    --size_;
    return true;
  }

  // Removes every index of [first, last) (index_of(*it) each) that is
  // present; returns how many were. The same as erase() on each, with the
  // counts kept in registers: a batch of kills erased one at a time waited
  // on the previous erase's size_ and block count in memory.
  template <typename It, typename IndexOf>
  size_type erase_all(It first, It last, IndexOf index_of) noexcept {
    sparse_set_internal::batch_counter counter(block_counts_, size_,
                                               block_words,
                                               /*added=*/false);
    word_type* const words = words_.data();
    const size_type word_count = words_.size();
    for (; first != last; ++first) {
      const size_type index = index_of(*first);
      const size_type w = index / word_bits;
      if (w >= word_count) continue;
      const word_type bit = word_type{1} << (index % word_bits);
      if (!(words[w] & bit)) continue;
      words[w] &= ~bit;
      counter.count(w);
    }
    return counter.finish();
  }

  // Adds every index of [first, last) (index_of(*it) each) that is absent;
  // returns how many were. The same as insert() on each, with the counts
  // kept in registers (a batch of created entities joins a system this
  // way). Indices in increasing order make it one pass over the words.
  template <typename It, typename IndexOf>
  size_type insert_all(It first, It last, IndexOf index_of) {
    sparse_set_internal::batch_counter counter(block_counts_, size_,
                                               block_words,
                                               /*added=*/true);
    // The words in locals: stores through them cannot then be taken for
    // stores to the vectors' sizes (both are 64-bit integers), which
    // reloaded them per index.
    word_type* words = words_.data();
    size_type word_count = words_.size();
    for (; first != last; ++first) {
      const size_type index = index_of(*first);
      const size_type w = index / word_bits;
      if (w >= word_count) {
        counter.flush();
        grow_to(w + 1);
        words = words_.data();
        word_count = words_.size();
      }
      const word_type bit = word_type{1} << (index % word_bits);
      if (words[w] & bit) continue;
      words[w] |= bit;
      counter.count(w);
    }
    return counter.finish();
  }

  bool contains(size_type index) const noexcept {
    const size_type w = index / word_bits;
    return w < words_.size() &&
           ((words_[w] >> (index % word_bits)) & word_type{1}) != 0;
  }

  size_type size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  // Removes every member; keeps the memory.
  void clear() noexcept;

  // Makes room for indices below `indices` (never shrinks).
  void reserve(size_type indices) {
    const size_type w = (indices + word_bits - 1) / word_bits;
    if (w > words_.size()) grow_to(w);
  }

  // Indices the bitmap covers (a multiple of 64).
  size_type capacity() const noexcept { return words_.size() * word_bits; }

  // Where the member of rank `rank` (0-based, ascending) is; for rank ==
  // size(), the end position {words(), 0}.
  position position_of_rank(size_type rank) const noexcept;

  // f(first, count) for the members of ranks [begin_rank, end_rank), as
  // maximal runs of consecutive indices, ascending.
  template <typename F>
  void for_each_run(size_type begin_rank, size_type end_rank, F&& f) const {
    if (end_rank > size_) end_rank = size_;
    if (begin_rank >= end_rank) return;
    size_type remaining = end_rank - begin_rank;
    const position start = position_of_rank(begin_rank);
    size_type run_first = 0;
    size_type run_count = 0;
    size_type w = start.word;
    word_type bits = words_[w] & (~word_type{0} << start.bit);
    for (;;) {
      // Full words (the common case of a dense world) extend the run 64 at
      // a time: one load and one compare each.
      if (bits == ~word_type{0} && remaining >= word_bits) {
        const size_type first = w * word_bits;
        if (run_count == 0 || run_first + run_count != first) {
          if (run_count > 0) f(run_first, run_count);
          run_first = first;
          run_count = 0;
        }
        do {
          // A whole full block at once, when the run is at its start.
          if (w % block_words == 0 && remaining >= block_indices &&
              block_counts_[w / block_words] == block_indices) {
            run_count += block_indices;
            remaining -= block_indices;
            w += block_words;
          } else {
            run_count += word_bits;
            remaining -= word_bits;
            ++w;
          }
          if (remaining == 0) break;
          bits = words_[w];
        } while (bits == ~word_type{0} && remaining >= word_bits);
        if (remaining == 0) break;
      }
      while (bits != 0 && remaining > 0) {
        const auto low = static_cast<size_type>(std::countr_zero(bits));
        const word_type shifted = bits >> low;
        size_type length =
            shifted == ~word_type{0} >> low
                ? word_bits - low
                : static_cast<size_type>(std::countr_zero(~shifted));
        length = std::min(length, remaining);
        const size_type first = w * word_bits + low;
        if (run_count > 0 && run_first + run_count == first) {
          run_count += length;  // continues across the word boundary
        } else {
          if (run_count > 0) f(run_first, run_count);
          run_first = first;
          run_count = length;
        }
        remaining -= length;
        bits = low + length >= word_bits
                   ? word_type{0}
                   : bits & (~word_type{0} << (low + length));
      }
      if (remaining == 0) break;
      bits = words_[++w];
    }
    if (run_count > 0) f(run_first, run_count);
  }

  // The members of ranks [begin_rank, end_rank), ascending, the cheapest
  // way for each part of the bitmap: on_run(first, count) for consecutive
  // full words (count a multiple of 64: a dense stretch, worth a tight loop),
  // on_index(index) one by one for the members of other words (a sparse
  // stretch, where run detection would cost more than it saves).
  // Forced inline: each instantiation (its lambdas are its caller's) has
  // one caller, and GCC leaves COMDAT copies out of line, as they are in
  // a program whose context settings have external linkage.
  template <typename OnRun, typename OnIndex>
  [[gnu::always_inline]] inline void for_each_member(size_type begin_rank,
                                                     size_type end_rank,
                                                     OnRun&& on_run,
                                                     OnIndex&& on_index) const {
    if (end_rank > size_) end_rank = size_;
    if (begin_rank >= end_rank) return;
    // Words [first word, stop word], masked at both ends; no per-member
    // count is needed inside the loops.
    const index_span span = span_of_ranks(begin_rank, end_rank);
    const size_type stop_word = span.stop / word_bits;
    const word_type last_mask =
        stop_word < words_.size()
            ? (word_type{1} << (span.stop % word_bits)) - 1
            : 0;
    size_type w = span.first / word_bits;
    word_type bits = words_[w] & (~word_type{0} << (span.first % word_bits));
    for (;;) {
      // The last word keeps only its bits before the stop (none past the
      // bitmap's end): never full, it ends the walk below. One loop for
      // every word inlines on_run and on_index once each, not on_index
      // twice (compile time).
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
        on_run(first, w * word_bits - first);
        continue;
      }
      const size_type base = w * word_bits;
      for (; bits != 0; bits &= bits - 1) {
        on_index(base + static_cast<size_type>(std::countr_zero(bits)));
      }
      if (w == stop_word) return;
      ++w;
      bits = w < words_.size() ? words_[w] : 0;
    }
  }

  // f(index) for the members of ranks [begin_rank, end_rank), ascending.
  // Forced inline, as for_each_member is.
  template <typename F>
  [[gnu::always_inline]] inline void for_each(size_type begin_rank,
                                              size_type end_rank, F&& f) const {
    for_each_member(
        begin_rank, end_rank,
        [&](size_type first, size_type count) {
          for (size_type i = first; i < first + count; ++i) f(i);
        },
        f);
  }
  // f(index) for every member, ascending.
  template <typename F>
  void for_each(F&& f) const {
    for_each(0, size_, f);
  }

  // A forward iterator over the members, ascending (for range-for; the
  // run-based for_each_run is the fast way).
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = size_type;
    using difference_type = std::ptrdiff_t;
    using pointer = const size_type*;
    using reference = size_type;

    const_iterator() = default;
    size_type operator*() const noexcept {
      return word_ * word_bits +
             static_cast<size_type>(std::countr_zero(bits_));
    }
    const_iterator& operator++() noexcept {
      bits_ &= bits_ - 1;
      settle();
      return *this;
    }
    const_iterator operator++(int) noexcept {
      const_iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const const_iterator& a,
                           const const_iterator& b) noexcept {
      return a.word_ == b.word_ && a.bits_ == b.bits_;
    }

   private:
    friend class ordered_index_set;
    const_iterator(const ordered_index_set* set, size_type word) noexcept
        : set_(set), word_(word) {
      bits_ = word_ < set_->words_.size() ? set_->words_[word_] : 0;
      settle();
    }
    // Moves to the next word with a member, or to the end.
    void settle() noexcept {
      while (bits_ == 0 && word_ < set_->words_.size()) {
        ++word_;
        bits_ = word_ < set_->words_.size() ? set_->words_[word_] : 0;
      }
    }
    const ordered_index_set* set_ = nullptr;
    size_type word_ = 0;
    word_type bits_ = 0;
  };
  const_iterator begin() const noexcept { return const_iterator(this, 0); }
  const_iterator end() const noexcept {
    return const_iterator(this, words_.size());
  }

 private:
  // Where for_each_member's walk starts (the index of the member of rank
  // begin_rank) and stops (just past that of rank end_rank - 1, not at the
  // next member: a world of one entity in a large bitmap costs the words it
  // spans, not capacity). Returned in two registers; it runs once per
  // loop.
  struct index_span {
    size_type first;
    size_type stop;
  };
  index_span span_of_ranks(size_type begin_rank,
                           size_type end_rank) const noexcept;

  // Makes room for `words` words: geometric growth, rounded to whole
  // blocks.
  void grow_to(size_type words);

  std::vector<word_type> words_;
  std::vector<std::uint32_t> block_counts_;
  size_type size_ = 0;
};

}  // namespace strata

#endif  // STRATA_SPARSE_SET_ORDERED_INDEX_SET_H_
