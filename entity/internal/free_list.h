// Internal to //entity: the free list that basic_entity_storage
// (entity/entity_storage.h) threads through its id slots, and with it the
// version policy: how a reclaimed index's version moves on.
//
// Layout. The storage keeps one id-sized slot per index ever handed out, in
// an array of their own:
//   * live slot i holds the entity's id, combine(i, version);
//   * free slot i holds combine(next_free, version_to_hand_out_next): the
//     version is bumped (next_version, skipping the tombstone) when the
//     entity is reclaimed, and the index part links the free list (an
//     implicit list), ending in the null index.
// Since a free slot's index part is never its own index, the storage's
// alive(id) is one bounds check and one compare: slots[id.index()] == id.
// Null ids (index out of range), tombstone ids (that version is never
// stored) and stale ids (older version) all fail it; no separate "alive"
// flag is needed.
//
// Order: FIFO. A reclaimed index goes to the back and is reused only after
// every index freed before it. Versions have finitely many values (1023
// with 32-bit ids) and wrap; FIFO spreads reuse over all free indices, so a
// stale id or handle can only alias a new entity after its index went
// through tombstone_version full create/reclaim cycles; under LIFO, a loop
// that creates and kills one entity gets there in tombstone_version
// iterations (about 2000 operations with 32-bit ids). LIFO would
// reuse the most recently touched (cache-warm) slot; Strata trades that
// locality for the longer quarantine.
//
// The list is two indices (front and back, null_index when empty); pop and
// push are O(1) and touch at most two slots. Not thread-safe: the storage's
// writes are not.
#ifndef STRATA_ENTITY_INTERNAL_FREE_LIST_H_
#define STRATA_ENTITY_INTERNAL_FREE_LIST_H_

#include <cstddef>

#include "entity/entity_id.h"

namespace strata::entity_internal {

template <typename Traits>
class free_list {
 public:
  using id_type = basic_entity_id<Traits>;
  using value_type = typename Traits::value_type;

  static_assert(Traits::version_bits >= 2,
                "entity storage needs at least 2 version bits: with one, a "
                "recycled index would get its old version back and stale ids "
                "would be alive again");

  free_list() = default;
  free_list(value_type head, value_type tail) noexcept
      : head_(head), tail_(tail) {}

  bool empty() const noexcept { return head_ == Traits::null_index; }
  value_type head() const noexcept { return head_; }
  value_type tail() const noexcept { return tail_; }

  // Takes the front index off a non-empty list and makes its slot the live
  // id it hands out (the version the free slot held), which it returns.
  template <typename Slots>
  id_type pop(Slots& slots) noexcept {
    const value_type index = head_;
    const id_type free_slot = id_type::from_value(slots[index]);
    head_ = free_slot.index();
    if (head_ == Traits::null_index) tail_ = Traits::null_index;
    const id_type id = id_type::combine(index, free_slot.version());
    slots[index] = id.value();
    return id;
  }

  // Frees live `id`'s slot, holding its next version, at the back.
  template <typename Slots>
  void push(Slots& slots, id_type id) noexcept {
    const value_type index = id.index();
    slots[index] =
        id_type::combine(Traits::null_index, id.next_version().version())
            .value();
    if (tail_ == Traits::null_index) {
      head_ = index;
    } else {
      const id_type back = id_type::from_value(slots[tail_]);
      slots[tail_] = id_type::combine(index, back.version()).value();
    }
    tail_ = index;
  }

  // Whether slots[0, n) and a list from `head` to `tail` form a storage:
  // every index either live (holding its own index) or free and on the
  // list exactly once, the list ending at `tail`. O(n).
  static bool forms_storage(const value_type* slots, std::size_t n,
                            value_type head, value_type tail) noexcept {
    std::size_t free = 0;
    for (std::size_t i = 0; i < n; ++i) {
      free += id_type::from_value(slots[i]).index() != i;
    }
    // Walk the list: `free` steps, each to a free index, ending at tail,
    // whose link is null. Visiting an index twice would take more steps
    // than there are free indices.
    value_type at = head;
    value_type last = Traits::null_index;
    for (std::size_t step = 0; step < free; ++step) {
      if (at >= n) return false;
      const id_type link = id_type::from_value(slots[at]);
      if (link.index() == at) return false;  // a live index
      last = at;
      at = link.index();
    }
    return at == Traits::null_index && last == tail &&
           (free > 0 || head == Traits::null_index);
  }

 private:
  value_type head_ = Traits::null_index;
  value_type tail_ = Traits::null_index;
};

}  // namespace strata::entity_internal

#endif  // STRATA_ENTITY_INTERNAL_FREE_LIST_H_
