// Internal to //entity: the id array of basic_entity_storage
// (entity/entity_storage.h), the column every liveness check reads alone,
// with the FIFO free list threaded through it (internal/free_list.h) and
// the counts of indices handed out and entities alive.
//
// One id-sized slot per index ever handed out: a live slot holds its
// entity's id, a free slot the free list's link and the version it hands
// out next. alive(id) is one bounds check and one compare. The storage
// keeps its metadata column beside this one, indexed alike, and adds a
// metadata entry before each create_fresh.
//
// Complexity: O(1) but assign (O(n)); a dynamic array's push_back is
// amortized O(1). Thread-safety: const members may run concurrently with
// each other, never with a write.
#ifndef STRATA_ENTITY_INTERNAL_ID_SLOTS_H_
#define STRATA_ENTITY_INTERNAL_ID_SLOTS_H_

#include <cstddef>

#include "base/check.h"
#include "base/limit.h"
#include "entity/entity_id.h"
#include "entity/internal/free_list.h"
#include "entity/internal/storage_records.h"

namespace strata::entity_internal {

template <typename LimitPolicy, typename Traits>
class id_slots {
 public:
  using id_type = basic_entity_id<Traits>;
  using value_type = typename Traits::value_type;
  using size_type = std::size_t;
  using free_list_type = free_list<Traits>;
  static constexpr bool is_fixed = LimitPolicy::is_fixed;

  // Fixed: all N slots are inline and start as the null id, which no live
  // id ever equals.
  id_slots() noexcept {
    if constexpr (is_fixed) ids_.fill(id_type::null().value());
  }

  static constexpr size_type max_size() noexcept {
    if constexpr (is_fixed) {
      return LimitPolicy::value;
    } else {
      return Traits::max_entities;
    }
  }
  void reserve(size_type n) requires(!is_fixed) { ids_.reserve(n); }

  bool alive(id_type id) const noexcept {
    const value_type index = id.index();
    return index < slot_count() && ids_[index] == id.value();
  }
  const value_type* data() const noexcept { return ids_.data(); }
  size_type slot_count() const noexcept {
    if constexpr (is_fixed) {
      return LimitPolicy::value;  // untouched slots hold null: never alive
    } else {
      return ids_.size();
    }
  }
  size_type capacity() const noexcept {
    if constexpr (is_fixed) {
      return LimitPolicy::value;
    } else {
      return ids_.capacity();
    }
  }
  size_type size() const noexcept { return size_; }
  size_type used() const noexcept { return used_; }
  const free_list_type& free() const noexcept { return free_; }
  id_type slot(size_type index) const noexcept {
    return id_type::from_value(ids_[index]);
  }

  // Creation in two parts, so that the storage's create path reads like the
  // algorithm and inlines into creation loops (no callback for the storage's
  // metadata column). create_recycled: the front free index's id, made live
  // (free_list::pop); the free list must not be empty.
  id_type create_recycled() noexcept {
    ++size_;
    return free_.pop(ids_);
  }
  // create_fresh: index used() appended as a live slot, version 0; used()
  // must be below max_size().
  id_type create_fresh() {
    const id_type id = id_type::combine(static_cast<value_type>(used_), 0);
    if constexpr (is_fixed) {
      ids_[used_] = id.value();
    } else {
      ids_.push_back(id.value());
    }
    ++used_;
    ++size_;
    return id;
  }

  // Frees live `id`'s slot (free_list::push).
  void release(id_type id) noexcept {
    free_.push(ids_, id);
    --size_;
  }

  // Makes the slots slots[0, n) and the free list head..tail, values
  // free_list::forms_storage accepted.
  void assign(const value_type* slots, size_type n, value_type head,
              value_type tail) {
    if constexpr (is_fixed) {
      ids_.fill(id_type::null().value());
    } else {
      ids_.assign(n, value_type{});
    }
    size_type live = 0;
    for (size_type i = 0; i < n; ++i) {
      ids_[i] = slots[i];
      live += slot(i).index() == i;
    }
    free_ = free_list_type(head, tail);
    used_ = n;
    size_ = live;
  }

 private:
  // Raw values rather than ids: a trivial element type lets std::vector
  // relocate with memmove when it grows (BM_Create1M_Dynamic).
  typename limit_container<LimitPolicy, value_type>::type ids_;
  free_list_type free_;
  size_type used_ = 0;  // indices ever handed out
  size_type size_ = 0;  // live entities
};

}  // namespace strata::entity_internal

#endif  // STRATA_ENTITY_INTERNAL_ID_SLOTS_H_
