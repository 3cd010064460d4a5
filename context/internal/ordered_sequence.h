// Internal to //context: the order of a system declared
// .ordered_by(ct::x, compare) (scheduler/system_signature.h), kept up to date
// incrementally.
//
// An ordered_sequence holds the system's entities as (key, index) entries
// sorted by key (compare), ties by index: the order a std::stable_sort of
// the keys over ascending indices gives, a total order, so the result does
// not depend on how it was reached. update(set, key_of) brings it to the
// set and keys of now, in O(n + k log k) for k joined or changed entities
// out of n:
//   1. one pass over the entries, in order: an entity that left the set is
//      dropped; one whose current key is not equivalent to the stored copy
//      (compare(a, b) or compare(b, a)) is moved aside with its new key;
//      the others are compacted in place and stay sorted;
//   2. entities that joined (only looked for when the set has more members
//      than the pass kept and moved): each member without the "in order"
//      mark is moved aside too;
//   3. the entities moved aside are sorted and merged into the kept ones
//      (std::merge into a second buffer, then the buffers swap): the
//      insertion-style pass, O(n) however far the keys moved; when every
//      entity moved (the first update), that is a full sort.
// A key changes when the component is written; comparing stored copies
// finds every change whatever wrote it (a system's T&, data.write, a step
// proxy, add_component), at one comparison per entity and no cost on the
// write paths.
//
// No allocation in a steady state: the entries, the entries moved aside,
// the merge buffer and the marks (one byte per index up to the set's
// capacity) keep their capacity.
//
// Why no sort_as (a second packed component kept in the same order, as
// //sparse_set offers): a context stores each component at its entity's
// index (component_storage), shared by every system and addressed by index
// in their loops; reordering it for one system would reorder it for all.
// The order is a list of indices the loop gathers through, and the key
// itself is at hand in the entry.
//
// Thread-safety: updated by the thread running the system, before its
// subtasks start; the subtasks only read it.
#ifndef STRATA_CONTEXT_INTERNAL_ORDERED_SEQUENCE_H_
#define STRATA_CONTEXT_INTERNAL_ORDERED_SEQUENCE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "base/internal/standard_parts.h"

namespace strata::context_internal {

template <typename Key, typename Compare>
class ordered_sequence {
 public:
  struct entry {
    Key key;
    std::uint32_t index;
  };

  // The entities in order.
  std::span<const entry> entries() const noexcept { return entries_; }

  // Brings the order to the members of `set` (an ordered_index_set) with
  // the keys key_of(index) gives.
  template <typename Set, typename KeyOf>
  void update(const Set& set, KeyOf&& key_of) {
    if (marks_.size() < set.capacity()) marks_.resize(set.capacity(), 0);
    moved_.clear();
    std::size_t kept = 0;
    for (entry& e : entries_) {
      if (!set.contains(e.index)) {
        marks_[e.index] = 0;
        continue;
      }
      const Key& now = key_of(e.index);
      if (compare_(e.key, now) || compare_(now, e.key)) {
        moved_.push_back(entry{now, e.index});
      } else {
        if (&entries_[kept] != &e) entries_[kept] = e;
        ++kept;
      }
    }
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(kept),
                   entries_.end());
    if (kept + moved_.size() < set.size()) {
      set.for_each([&](std::size_t index) {
        if (marks_[index]) return;
        marks_[index] = 1;
        moved_.push_back(
            entry{key_of(index), static_cast<std::uint32_t>(index)});
      });
    }
    if (moved_.empty()) return;
    std::sort(moved_.begin(), moved_.end(), before_);
    if (entries_.empty()) {
      entries_.swap(moved_);
      return;
    }
    merged_.clear();
    std::merge(entries_.begin(), entries_.end(), moved_.begin(), moved_.end(),
               std::back_inserter(merged_), before_);
    entries_.swap(merged_);
  }

 private:
  struct by_key_then_index {
    bool operator()(const entry& a, const entry& b) const {
      if (compare(a.key, b.key)) return true;
      if (compare(b.key, a.key)) return false;
      return a.index < b.index;
    }
    [[no_unique_address]] Compare compare;
  };

  std::vector<entry> entries_;
  std::vector<entry> moved_;
  std::vector<entry> merged_;
  std::vector<std::uint8_t> marks_;  // 1: the index is in entries_
  [[no_unique_address]] Compare compare_;
  [[no_unique_address]] by_key_then_index before_;
};

// The order storage of a system with signature Signature: none without
// ordered_by.
struct no_ordered_sequence {};
template <typename Signature>
using ordered_sequence_for = std::conditional_t<
    Signature::visits_in_component_order,
    ordered_sequence<typename Signature::order_component_type,
                     typename Signature::order_compare_type>,
    no_ordered_sequence>;

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_ORDERED_SEQUENCE_H_
