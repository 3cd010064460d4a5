// A sparse set of versioned ids with a paginated sparse array.
//
//   strata::versioned_sparse_set<Id, PageSize = 4096>
//
// `Id` is any `strata::versioned_id` (base/versioned_id.h), e.g.
// `strata::entity_id`. The dense array holds the ids;
// sparse slot `i` (for index i) holds `combine(position, version)` of the id
// with index i, or all ones when no such id is present. Storing the
// version in the slot lets contains() reject stale ids, null and tombstones
// with one XOR-and-compare and without reading the dense array:
//
//   ((id.value() & version_mask) ^ slot) < null_index
//
// holds only when the versions match (high bits cancel) and the slot is not
// empty (an empty slot leaves the index bits all ones == null_index).
//
// The sparse array is split into PageSize-slot pages allocated on first use,
// so memory follows the indices in use rather than the largest index: a set
// holding ids {3, 4'000'000} owns two pages plus one pointer per 4096 indices.
//
// Contract:
//   * insert(id): inserting a null id or an id with the tombstone version is a
//     STRATA_CHECK failure. At most one id per index: if an id with the same
//     index is present (whatever its version) insert returns false and keeps
//     the stored id. Erase the old id first to replace it with a newer one.
//   * erase(id): swap-and-pop; returns false (no-op) unless contains(id).
//   * contains(id): true only for the exact id (index and version) inserted.
//   * index_of(id): STRATA_CHECK failure unless contains(id); find(id) is the
//     non-failing variant (returns npos).
//
// Complexity: insert, erase, contains, find: O(1) (insert amortized; the first
// use of a page allocates PageSize slots). clear: O(size) (empties only the
// slots in use; pages are kept). Iteration: O(size). sort: O(n log n) compares
// plus O(n) for applying the permutation. sort_as(order): O(|order|) swaps.
//
// Memory: sizeof(Id) per dense element; PageSize * sizeof(Id) per page that
// ever held an id (release_pages() frees pages no longer used); one pointer
// per page up to the largest index used.
//
// Iterators and references: iterators are `const Id*` into the dense array.
// insert invalidates all iterators (the dense vector may reallocate). erase(id)
// moves the last element into id's position: it invalidates iterators to id
// and to the last element. To erase while iterating, iterate in reverse
// (rbegin/rend or positions from size()-1 down to 0): the element moved into
// the current slot has already been visited. sort and sort_as reorder the
// dense array in place (iterators stay valid, values change).
//
// Thread-safety: not thread-safe for writes; concurrent const calls (contains,
// find, iteration) on one set are safe.
#ifndef STRATA_SPARSE_SET_VERSIONED_SPARSE_SET_H_
#define STRATA_SPARSE_SET_VERSIONED_SPARSE_SET_H_

#include <bit>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/internal/standard_parts.h"
#include "base/internal/trivial_vector.h"
#include "base/versioned_id.h"

namespace strata {

namespace sparse_set_internal {

// Used by sort() when only the ids are sorted: there is nothing to permute.
struct no_data_swap {
  void operator()(std::size_t, std::size_t) const noexcept {}
};

}  // namespace sparse_set_internal

template <versioned_id Id, std::size_t PageSize = 4096>
class versioned_sparse_set {
  static_assert(std::has_single_bit(PageSize),
                "versioned_sparse_set: PageSize must be a power of two");

 public:
  using id_type = Id;
  using value_type = Id;
  using traits_type = typename Id::traits;
  using underlying_type = typename traits_type::value_type;
  using size_type = std::size_t;
  using const_iterator = const Id*;
  using iterator = const_iterator;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  static constexpr size_type page_size = PageSize;
  static constexpr size_type npos = static_cast<size_type>(-1);

  versioned_sparse_set() = default;
  versioned_sparse_set(versioned_sparse_set&&) noexcept = default;
  versioned_sparse_set& operator=(versioned_sparse_set&& other) noexcept {
    if (this != &other) {
      free_pages();
      pages_ = std::move(other.pages_);
      dense_ = std::move(other.dense_);
    }
    return *this;
  }
  versioned_sparse_set(const versioned_sparse_set& other)
      : dense_(other.dense_) {
    pages_.resize(other.pages_.size());  // null pointers
    try {
      for (size_type p = 0; p < pages_.size(); ++p) {
        if (other.pages_[p] == nullptr) continue;
        pages_[p] = allocate_page();
        std::copy_n(other.pages_[p], PageSize, pages_[p]);
      }
    } catch (...) {
      free_pages();  // no destructor runs for a constructor that throws
      throw;
    }
  }
  versioned_sparse_set& operator=(const versioned_sparse_set& other) {
    if (this != &other) *this = versioned_sparse_set(other);
    return *this;
  }
  ~versioned_sparse_set() { free_pages(); }

  // Adds `id`; false if an id with the same index is already present.
  bool insert(Id id) {
    STRATA_CHECK(!id.is_null(), "cannot insert the null id in a sparse set");
    STRATA_CHECK(
        !id.has_tombstone_version(),
        "cannot insert an id with the tombstone version in a sparse set");
    underlying_type& slot = assure_slot(id.index());
    if (slot != kEmptySlot) return false;
    dense_.push_back(id);  // before writing the slot: a throw leaves no trace
    slot = make_slot(dense_.size() - 1, id);
    return true;
  }

  // Swap-and-pop; false (no-op) unless contains(id).
  bool erase(Id id) noexcept {
    underlying_type* const slot = find_slot(id.index());
    if (slot == nullptr || !matches(id, *slot)) return false;
    const size_type position = *slot & traits_type::index_mask;
    const Id last = dense_.back();
    dense_[position] = last;
    slot_of(last.index()) = make_slot(position, last);
    // After repointing `last`: when id is the last element both are one slot.
    *slot = kEmptySlot;
    dense_.pop_back();
    return true;
  }

  bool contains(Id id) const noexcept {
    const underlying_type* const slot = find_slot(id.index());
    return slot != nullptr && matches(id, *slot);
  }

  // True if some id (any version) with this index is present.
  bool contains_index(underlying_type index) const noexcept {
    const underlying_type* const slot = find_slot(index);
    return slot != nullptr && *slot != kEmptySlot;
  }

  // The stored id with this index, or the null id.
  Id current(underlying_type index) const noexcept {
    const underlying_type* const slot = find_slot(index);
    if (slot == nullptr || *slot == kEmptySlot) return Id::null();
    return dense_[*slot & traits_type::index_mask];
  }

  // Dense position of `id`, or npos unless contains(id).
  size_type find(Id id) const noexcept {
    const underlying_type* const slot = find_slot(id.index());
    if (slot == nullptr || !matches(id, *slot)) return npos;
    return *slot & traits_type::index_mask;
  }

  // Dense position of `id`; STRATA_CHECK failure unless contains(id).
  size_type index_of(Id id) const {
    const size_type position = find(id);
    STRATA_CHECK(position != npos, "index_of: id not in the sparse set");
    return position;
  }

  // Empties every slot in use; keeps pages and dense capacity.
  void clear() noexcept {
    for (const Id id : dense_) slot_of(id.index()) = kEmptySlot;
    dense_.clear();
  }

  void reserve(size_type n) { dense_.reserve(n); }

  // Frees every page that holds no id and trims the page table.
  void release_pages() {
    std::vector<bool> used(pages_.size());
    for (const Id id : dense_) used[id.index() / PageSize] = true;
    for (size_type p = 0; p < pages_.size(); ++p) {
      if (!used[p]) {
        delete[] pages_[p];
        pages_[p] = nullptr;
      }
    }
    while (!pages_.empty() && pages_.back() == nullptr) pages_.pop_back();
    pages_.shrink_to_fit();
  }

  // release_pages() and returns unused dense capacity.
  void shrink_to_fit() {
    release_pages();
    dense_.shrink_to_fit();
  }

  // Sorts the ids by `compare` (a strict weak order on Id) and repoints the
  // sparse slots. `swap_data(a, b)` is called to swap the elements at dense
  // positions a and b of every array kept in lockstep with this set, so that
  // they end up in the new order: the permutation is applied in place by
  // walking its cycles through the sparse slots, which still hold the old
  // positions after the ids are sorted (the "mixed" method: sort the ids, then
  // permute the rest). While the ids are being sorted, find()/index_of() of an
  // id still return its old position, so `compare` may use them to look up
  // data.
  template <typename Compare = std::less<Id>,
            typename SwapData = sparse_set_internal::no_data_swap>
  void sort(Compare compare = Compare{}, SwapData swap_data = SwapData{}) {
    std::sort(dense_.begin(), dense_.end(), std::move(compare));
    apply_sorted_ids(swap_data);
  }

  // Like sort(), but `compare(a, b)` receives the dense positions (before
  // sorting) of two ids, so a caller can compare its data arrays directly
  // instead of looking each id up through the sparse array. Sorts a temporary
  // array of positions (size() * sizeof(Id) bytes); the data arrays are still
  // permuted in place through the sparse array.
  template <typename ComparePositions,
            typename SwapData = sparse_set_internal::no_data_swap>
  void sort_by_position(ComparePositions compare,
                        SwapData swap_data = SwapData{}) {
    std::vector<underlying_type> order(dense_.size());
    for (size_type pos = 0; pos < order.size(); ++pos) {
      order[pos] = static_cast<underlying_type>(pos);
    }
    std::sort(order.begin(), order.end(),
              [&compare](underlying_type a, underlying_type b) {
                return compare(static_cast<size_type>(a),
                               static_cast<size_type>(b));
              });
    // Reuse the buffer for the sorted ids: each entry is read once, then
    // overwritten by the id it named.
    for (auto& entry : order) entry = dense_[entry].value();
    for (size_type pos = 0; pos < order.size(); ++pos) {
      dense_[pos] = Id::from_value(order[pos]);
    }
    apply_sorted_ids(swap_data);
  }

  // Gives this set the order of `order` (a range of Id, e.g. another sparse
  // set): the ids of `order` that this set contains come first, in `order`'s
  // order; the others follow in unspecified order. Ids of `order` absent here
  // (or present with another version) are skipped. `swap_data` as in sort().
  template <typename Range,
            typename SwapData = sparse_set_internal::no_data_swap>
  void sort_as(const Range& order, SwapData swap_data = SwapData{}) {
    size_type next = 0;
    for (const Id id : order) {
      if (next == dense_.size()) break;
      const size_type position = find(id);
      // position < next: a duplicate in `order`, already placed.
      if (position == npos || position < next) continue;
      if (position != next) swap_positions(position, next, swap_data);
      ++next;
    }
  }

  size_type size() const noexcept { return dense_.size(); }
  bool empty() const noexcept { return dense_.empty(); }
  size_type capacity() const noexcept { return dense_.capacity(); }
  // Pages currently allocated (for memory accounting and tests).
  size_type allocated_pages() const noexcept {
    return static_cast<size_type>(
        std::count_if(pages_.begin(), pages_.end(),
                      [](const auto& p) { return p != nullptr; }));
  }
  bool page_allocated(size_type page) const noexcept {
    return page < pages_.size() && pages_[page] != nullptr;
  }

  const Id* data() const noexcept { return dense_.data(); }
  std::span<const Id> ids() const noexcept {
    return {dense_.data(), dense_.size()};
  }
  const_iterator begin() const noexcept { return dense_.data(); }
  const_iterator end() const noexcept { return dense_.data() + dense_.size(); }
  const_reverse_iterator rbegin() const noexcept {
    return const_reverse_iterator(end());
  }
  const_reverse_iterator rend() const noexcept {
    return const_reverse_iterator(begin());
  }
  Id operator[](size_type position) const noexcept { return dense_[position]; }

  // Swaps the ids at two dense positions (and, through `swap_data`, every
  // array kept in lockstep), keeping the sparse slots consistent.
  template <typename SwapData = sparse_set_internal::no_data_swap>
  void swap_positions(size_type a, size_type b,
                      SwapData swap_data = SwapData{}) {
    using std::swap;
    swap(dense_[a], dense_[b]);
    slot_of(dense_[a].index()) = make_slot(a, dense_[a]);
    slot_of(dense_[b].index()) = make_slot(b, dense_[b]);
    swap_data(a, b);
  }

 private:
  // A page of slots, owned by the set (allocate_page, free_pages).
  using page_type = underlying_type*;

  static constexpr underlying_type kEmptySlot = ~underlying_type{0};
  static constexpr underlying_type kVersionMask = traits_type::version_mask;
  static constexpr underlying_type kIndexMask = traits_type::index_mask;

  static bool matches(Id id, underlying_type slot) noexcept {
    return static_cast<underlying_type>((id.value() & kVersionMask) ^ slot) <
           traits_type::null_index;
  }
  static underlying_type make_slot(size_type position, Id id) noexcept {
    return static_cast<underlying_type>(
        (static_cast<underlying_type>(position) & kIndexMask) |
        (id.value() & kVersionMask));
  }

  static page_type allocate_page() {
    page_type page = new underlying_type[PageSize];
    std::fill_n(page, PageSize, kEmptySlot);
    return page;
  }
  void free_pages() noexcept {
    for (page_type page : pages_) delete[] page;
    pages_.clear();
  }

  const underlying_type* find_slot(underlying_type index) const noexcept {
    const size_type page = index / PageSize;
    if (page >= pages_.size()) return nullptr;
    const underlying_type* const slots = pages_[page];
    return slots == nullptr ? nullptr : slots + (index & (PageSize - 1));
  }
  underlying_type* find_slot(underlying_type index) noexcept {
    return const_cast<underlying_type*>(std::as_const(*this).find_slot(index));
  }
  // The slot of an index whose page exists.
  underlying_type& slot_of(underlying_type index) noexcept {
    return pages_[index / PageSize][index & (PageSize - 1)];
  }
  underlying_type& assure_slot(underlying_type index) {
    const size_type page = index / PageSize;
    if (page >= pages_.size()) pages_.resize(page + 1);
    if (pages_[page] == nullptr) pages_[page] = allocate_page();
    return pages_[page][index & (PageSize - 1)];
  }
  // The dense ids are in their final order; the sparse slots still hold the
  // old positions. Repoints the slots and, through `swap_data`, moves the
  // other arrays into the new order in place (the "mixed" method: sort the ids,
  // then permute the rest): the slots double as the visited marks, so no
  // permutation buffer is needed.
  template <typename SwapData>
  void apply_sorted_ids(SwapData& swap_data) {
    if constexpr (std::is_same_v<SwapData, sparse_set_internal::no_data_swap>) {
      for (size_type pos = 0; pos < dense_.size(); ++pos) {
        slot_of(dense_[pos].index()) = make_slot(pos, dense_[pos]);
      }
    } else {
      // A position is done once its slot points at itself.
      for (size_type start = 0; start < dense_.size(); ++start) {
        size_type hole = old_position(start);
        if (hole == start) continue;
        // The data of the id now at `start` sits at `hole`; carry it along
        // the cycle: each step pulls the right data into `hole` and pushes the
        // carried data to where the pulled data came from, until it lands on
        // `start`.
        while (hole != start) {
          const size_type from = old_position(hole);
          swap_data(hole, from);
          slot_of(dense_[hole].index()) = make_slot(hole, dense_[hole]);
          hole = from;
        }
        slot_of(dense_[start].index()) = make_slot(start, dense_[start]);
      }
    }
  }

  size_type old_position(size_type position) noexcept {
    return slot_of(dense_[position].index()) & kIndexMask;
  }

  // Plain arrays of pointers and ids, their growth compiled once
  // (base/internal/trivial_vector.h).
  base_internal::trivial_vector<page_type> pages_;
  base_internal::trivial_vector<Id> dense_;
};

}  // namespace strata

#endif  // STRATA_SPARSE_SET_VERSIONED_SPARSE_SET_H_
