// Internal to //context: the entities a system is subscribed to, as ids
// (system_instance::subscribed()). Users hold one through `auto` and use
// its members; they never name the type.
//
// A view over the subscription's indices (internal/subscription.h) and
// the entity storage that names them: ascending index order; size(),
// empty() and contains() are O(1), operator[] O(blocks + 64). It is
// invalidated by anything that changes the subscription or the storage (a
// refresh, a restore). Thread-safety: const, like the set it reads.
#ifndef STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_VIEW_H_
#define STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_VIEW_H_

#include <cstddef>

#include "base/internal/standard_parts.h"
#include "entity/entity_id.h"
#include "sparse_set/ordered_index_set.h"

namespace strata::context_internal {

// The entities a system is subscribed to, as ids: a view over the
// subscription's indices and the entity storage that names them. Ascending
// index order; size() and contains() are O(1).
template <typename EntityStorage>
class subscription_view {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = entity_id;
    using difference_type = std::ptrdiff_t;
    using pointer = const entity_id*;
    using reference = entity_id;

    iterator() = default;
    iterator(ordered_index_set::const_iterator at,
             const EntityStorage* entities)
        : at_(at), entities_(entities) {}
    entity_id operator*() const { return entities_->live_id_at(*at_); }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++at_;
      return before;
    }
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.at_ == b.at_;
    }

   private:
    ordered_index_set::const_iterator at_;
    const EntityStorage* entities_ = nullptr;
  };

  subscription_view(const ordered_index_set& indices,
                    const EntityStorage& entities)
      : indices_(&indices), entities_(&entities) {}

  std::size_t size() const noexcept { return indices_->size(); }
  bool empty() const noexcept { return indices_->empty(); }
  // True for the exact live id (a stale id of a subscribed index is not).
  bool contains(entity_id id) const {
    return entities_->alive(id) && indices_->contains(id.index());
  }
  // The entity of rank `rank` (0 = lowest index): O(blocks + 64).
  entity_id operator[](std::size_t rank) const {
    const ordered_index_set::position at = indices_->position_of_rank(rank);
    return entities_->live_id_at(at.word * ordered_index_set::word_bits +
                                 at.bit);
  }
  iterator begin() const { return {indices_->begin(), entities_}; }
  iterator end() const { return {indices_->end(), entities_}; }
  const ordered_index_set& indices() const noexcept { return *indices_; }

 private:
  const ordered_index_set* indices_;
  const EntityStorage* entities_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_VIEW_H_
