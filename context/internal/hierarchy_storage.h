// Internal to //context: the storage behind context/hierarchy.h.
//
// Per entity index a node: parent, first and last child, next and previous
// sibling (an intrusive doubly linked list of children: attaching and
// detaching are O(1), no allocation per entity), depth, and the position in
// its depth level. Per depth d >= 1 a dense array of the entries at depth
// d (levels_[d]): each entry the index and its parent's, so that a pass
// over a level reads both in one contiguous sweep (internal/hierarchy_loop.h)
// instead of a node per entity; each node's `position` points back into
// it, so moving an entity between levels is a swap-remove and a push, and a
// new parent at the same depth rewrites one entry.
//
// Each level is kept near index order, so that a pass reads the entities'
// components (stored by index) forward through memory whatever order they
// were attached in, or their indices reused: a push or a swap-remove may
// put an entry out of order, each level counts its neighbouring pairs out
// of order (descents_, kept in O(1) by both), and tidy_levels, which the
// refresh calls once its changes are applied, sorts a level when more than
// one in sorted_share of its pairs are. A sort of n entries (a radix sort,
// O(n)) follows at least n / (2 sorted_share) changes to the level (each
// puts at most two pairs out of order), so its cost, linear in the level,
// is amortized over them; re-parenting at the same depth moves no entry and
// costs nothing here. Depth 0 has no array:
// roots are every entity with no parent, which the entity storage already
// lists; a bit per index (set: has a parent) lets a pass over the roots
// skip 64 non-roots per word.
//
// Indices, not ids: a node lives only while its entity does (the refresh
// clears the nodes of killed entities before their ids are reclaimed), so
// an index names one live entity; the caller maps it back with the entity
// storage.
//
// Not thread-safe: changed by the refresh only, read concurrently between.
//
// A class template with one (unused) parameter, named through the alias
// `hierarchy_storage`: the compiler then instantiates its members, and the
// vector operations and sorts they call, only in programs that declare a
// hierarchy; a program without one only parses them
// (//benchmarks/compile:include_only).
#ifndef STRATA_CONTEXT_INTERNAL_HIERARCHY_STORAGE_H_
#define STRATA_CONTEXT_INTERNAL_HIERARCHY_STORAGE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "base/internal/standard_parts.h"

namespace strata::context_internal {

template <typename Unused = void>
class basic_hierarchy_storage {
 public:
  using index_type = std::uint32_t;
  static constexpr index_type none = ~index_type{0};

  struct node {
    index_type parent = none;
    index_type first_child = none;
    index_type last_child = none;
    index_type next_sibling = none;
    index_type previous_sibling = none;
    index_type depth = 0;
    index_type position = none;  // in levels_[depth] (depth >= 1)
    friend bool operator==(const node&, const node&) = default;
  };
  // An entity of a depth level d >= 1 and its parent (at depth d - 1).
  struct level_entry {
    index_type index;
    index_type parent;
    friend bool operator==(const level_entry&, const level_entry&) = default;
  };
  using word_type = std::uint64_t;
  static constexpr std::size_t word_bits = 64;

  // Queries on any index; an index never linked reads as a root.
  index_type parent(std::size_t index) const {
    return index < nodes_.size() ? nodes_[index].parent : none;
  }
  index_type first_child(std::size_t index) const {
    return index < nodes_.size() ? nodes_[index].first_child : none;
  }
  index_type next_sibling(std::size_t index) const {
    return nodes_[index].next_sibling;
  }
  std::size_t depth(std::size_t index) const {
    return index < nodes_.size() ? nodes_[index].depth : 0;
  }
  std::size_t root(std::size_t index) const {
    while (parent(index) != none) index = nodes_[index].parent;
    return index;
  }
  // Whether `ancestor` is `index` or above it.
  bool is_ancestor_or_self(std::size_t ancestor, std::size_t index) const {
    for (std::size_t at = index; at != none; at = parent(at)) {
      if (at == ancestor) return true;
    }
    return false;
  }
  // Whether `index` has a parent (depth >= 1); a word of 64 such bits,
  // indices [64 w, 64 w + 64) (0 past the last linked index).
  bool has_parent(std::size_t index) const {
    return (parent_word(index / word_bits) >> (index % word_bits)) & 1;
  }
  word_type parent_word(std::size_t w) const {
    return w < has_parent_.size() ? has_parent_[w] : 0;
  }
  // The entries at depth d >= 1, in index order but for the entries moved
  // since the level was last sorted (tidy_levels); the order is a function
  // of the operations applied, not of threads or timing.
  std::span<const level_entry> level(std::size_t d) const {
    if (d >= levels_.size()) return {};
    return levels_[d];
  }
  // One past the deepest level that may hold entities.
  std::size_t level_count() const { return levels_.size(); }

  // Makes `child` the last child of `parent`, with its subtree (the caller
  // checked that this makes no cycle and that both are alive).
  void attach(std::size_t child, std::size_t parent) {
    grow_to(child > parent ? child : parent);
    if (nodes_[child].parent == parent) return;
    unlink(child);
    node& c = nodes_[child];
    node& p = nodes_[parent];
    c.parent = static_cast<index_type>(parent);
    c.previous_sibling = p.last_child;
    if (p.last_child == none) {
      p.first_child = static_cast<index_type>(child);
    } else {
      nodes_[p.last_child].next_sibling = static_cast<index_type>(child);
    }
    p.last_child = static_cast<index_type>(child);
    move_subtree(child, p.depth + 1);
    // A move at the same depth left the entry where it was.
    levels_[c.depth][c.position].parent = c.parent;
  }
  // Makes `child` a root with its subtree (nothing if it is one).
  void detach(std::size_t child) {
    if (parent(child) == none) return;
    unlink(child);
    move_subtree(child, 0);
  }
  // Forgets `index` (its entity dies). Its parent, if any, loses it as a
  // child when `parent_survives`; its children must be cleared or detached
  // by the caller (they are killed, or detached, in the same refresh).
  void clear(std::size_t index, bool parent_survives) {
    if (index >= nodes_.size()) return;
    if (parent_survives) unlink(index);
    place(index, 0);
    nodes_[index] = node{};
  }

  // Rebuilding a saved relation (internal/world_io.h): attaching every
  // entry level by level, each level in its saved order, gives the same
  // levels; then each parent's children are put back in their saved order
  // with order_children (`children`: a permutation of its children), and
  // the levels' count with keep_levels.
  void order_children(std::size_t parent,
                      std::span<const index_type> children) {
    index_type previous = none;
    for (const index_type child : children) {
      nodes_[child].previous_sibling = previous;
      if (previous == none) {
        nodes_[parent].first_child = child;
      } else {
        nodes_[previous].next_sibling = child;
      }
      previous = child;
    }
    if (previous != none) nodes_[previous].next_sibling = none;
    nodes_[parent].last_child = previous;
  }
  void keep_levels(std::size_t count) {
    if (levels_.size() < count) grow_levels(count);
  }

  // Sorts by index each level whose entries strayed from index order: more
  // than one in `sorted_share` of its neighbouring pairs out of order (each
  // change puts at most two out). The refresh calls it once its changes
  // are applied. Amortized over the changes that made a level stray: a
  // sort of n entries follows at least n / (2 sorted_share) changes to
  // that level. The result depends on the levels' contents alone, so a
  // loaded or restored world sorts when the saved one would have.
  static constexpr std::size_t sorted_share = 4;
  void tidy_levels() {
    for (std::size_t d = 1; d < levels_.size(); ++d) {
      if (descents_[d] * sorted_share > levels_[d].size()) sort_level(d);
    }
  }

  // f(index) for `root` and every descendant, parents before children
  // (pre-order); no allocation (walks back up through parent links). f
  // must not change links.
  template <typename F>
  void for_subtree(std::size_t root, F&& f) const {
    std::size_t at = root;
    while (true) {
      f(at);
      if (nodes_[at].first_child != none) {
        at = nodes_[at].first_child;
        continue;
      }
      while (at != root && nodes_[at].next_sibling == none) {
        at = nodes_[at].parent;
      }
      if (at == root) return;
      at = nodes_[at].next_sibling;
    }
  }

  friend bool operator==(const basic_hierarchy_storage&,
                         const basic_hierarchy_storage&) = default;

 private:
  void grow_to(std::size_t index) {
    if (index >= nodes_.size()) nodes_.resize(index + 1);
  }
  void grow_levels(std::size_t count) {
    levels_.resize(count);
    descents_.resize(count);
  }
  // Whether entries k - 1 and k of `level` are out of index order (false
  // past either end).
  static bool descent(const std::vector<level_entry>& level, std::size_t k) {
    return k > 0 && k < level.size() && level[k].index < level[k - 1].index;
  }
  // Takes the entry at `position` out of level `depth` (the last entry
  // moves there), keeping the level's count of descents.
  void remove_entry(std::size_t depth, std::size_t position) {
    std::vector<level_entry>& level = levels_[depth];
    const std::size_t last = level.size() - 1;
    std::size_t& descents = descents_[depth];
    descents -= descent(level, position) + descent(level, position + 1);
    if (last > position + 1) descents -= descent(level, last);
    const level_entry moved = level.back();
    level[position] = moved;
    nodes_[moved.index].position = static_cast<index_type>(position);
    level.pop_back();
    descents += descent(level, position) + descent(level, position + 1);
  }
  // Sorts level `depth` by index: a comparison sort when small, else a
  // radix sort (passes of digit_bits bits over indices below
  // nodes_.size(), through scratch_), whose cost per entry is a few
  // instructions whatever the order it finds.
  static constexpr std::size_t small_level = 256;
  static constexpr unsigned digit_bits = 11;
  void sort_level(std::size_t depth) {
    std::vector<level_entry>* from = &levels_[depth];
    if (from->size() <= small_level) {
      std::sort(from->begin(), from->end(),
                [](const level_entry& a, const level_entry& b) {
                  return a.index < b.index;
                });
    } else {
      std::vector<level_entry>* to = &scratch_.entries;
      to->resize(from->size());
      for (unsigned shift = 0; (nodes_.size() - 1) >> shift != 0;
           shift += digit_bits) {
        radix_pass(*from, *to, shift);
        std::swap(from, to);
      }
      if (from != &levels_[depth]) levels_[depth].swap(*from);
    }
    const std::vector<level_entry>& level = levels_[depth];
    for (std::size_t k = 0; k < level.size(); ++k) {
      nodes_[level[k].index].position = static_cast<index_type>(k);
    }
    descents_[depth] = 0;
  }
  // `from` into `to`, stably by the digit of the index at `shift`.
  static void radix_pass(const std::vector<level_entry>& from,
                         std::vector<level_entry>& to, unsigned shift) {
    constexpr index_type mask = (index_type{1} << digit_bits) - 1;
    std::array<index_type, std::size_t{1} << digit_bits> starts{};
    for (const level_entry& e : from) ++starts[(e.index >> shift) & mask];
    index_type sum = 0;
    for (index_type& start : starts) sum += std::exchange(start, sum);
    for (const level_entry& e : from)
      to[starts[(e.index >> shift) & mask]++] = e;
  }
  // Takes `child` out of its parent's children (its depth unchanged).
  void unlink(std::size_t child) {
    node& c = nodes_[child];
    if (c.parent == none) return;
    node& p = nodes_[c.parent];
    if (c.previous_sibling == none) {
      p.first_child = c.next_sibling;
    } else {
      nodes_[c.previous_sibling].next_sibling = c.next_sibling;
    }
    if (c.next_sibling == none) {
      p.last_child = c.previous_sibling;
    } else {
      nodes_[c.next_sibling].previous_sibling = c.previous_sibling;
    }
    c.parent = c.next_sibling = c.previous_sibling = none;
  }
  // Gives `root` depth `depth` and its descendants theirs below it.
  void move_subtree(std::size_t root, std::size_t depth) {
    const std::size_t old_depth = nodes_[root].depth;
    if (old_depth == depth) return;
    for_subtree(root, [&](std::size_t at) {
      place(at, nodes_[at].depth - old_depth + depth);
    });
  }
  // Moves `index` to level `depth` (out of its old one).
  void place(std::size_t index, std::size_t depth) {
    node& n = nodes_[index];
    if (n.depth == depth) return;
    if (n.depth > 0) {
      remove_entry(n.depth, n.position);
      n.position = none;
    }
    if ((n.depth > 0) != (depth > 0)) flip_has_parent(index);
    n.depth = static_cast<index_type>(depth);
    if (depth > 0) {
      if (levels_.size() <= depth) grow_levels(depth + 1);
      std::vector<level_entry>& to = levels_[depth];
      n.position = static_cast<index_type>(to.size());
      to.push_back({static_cast<index_type>(index), n.parent});
      descents_[depth] += descent(to, to.size() - 1);
    }
  }
  void flip_has_parent(std::size_t index) {
    const std::size_t w = index / word_bits;
    if (w >= has_parent_.size()) has_parent_.resize(w + 1);
    has_parent_[w] ^= word_type{1} << (index % word_bits);
  }

  std::vector<node> nodes_;
  std::vector<std::vector<level_entry>> levels_;
  // Per level, how many neighbouring entries are out of index order.
  std::vector<std::size_t> descents_;
  // sort_level's second buffer (its capacity kept); no part of the
  // relation, so equal in every storage, and not copied with it (a
  // snapshot's copy starts without one).
  struct scratch {
    std::vector<level_entry> entries;
    scratch() = default;
    scratch(const scratch&) {}
    scratch(scratch&&) = default;
    scratch& operator=(const scratch&) { return *this; }
    scratch& operator=(scratch&&) = default;
    friend bool operator==(const scratch&, const scratch&) { return true; }
  };
  scratch scratch_;
  std::vector<word_type> has_parent_;
};

using hierarchy_storage = basic_hierarchy_storage<>;

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HIERARCHY_STORAGE_H_
