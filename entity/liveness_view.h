// A liveness view: an entity storage's alive(id) test over a copy of what
// it reads, for loops that check many ids.
//
//   const strata::liveness_view<strata::entity_id::traits> live =
//       storage.liveness();
//   for (strata::entity_id id : targets) {
//     if (live.alive(id)) deliver(id);  // one load and one compare
//   }
//
// The view holds the storage's id array's address and length
// (basic_entity_storage::liveness(), entity/entity_storage.h), so a loop
// keeps it in registers and reaches the array in one load, not through the
// storage and its vector. alive(id) answers exactly as the storage's
// alive(id) did when the view was taken: null, tombstone and stale ids are
// not alive.
//
// Complexity: alive() is O(1). A default-constructed view finds nothing
// alive.
// Invalidation: valid while the storage creates, reclaims, clears and
// reassigns nothing (a dynamic storage's array moves as it grows, and every
// reclaim changes what alive() must answer); after any of those, take a new
// view. Using an invalidated view reads freed or outdated memory.
// Thread-safety: a const value; alive() may run on any number of threads at
// once, never concurrently with a write to the storage.
#ifndef STRATA_ENTITY_LIVENESS_VIEW_H_
#define STRATA_ENTITY_LIVENESS_VIEW_H_

#include <cstddef>

#include "entity/entity_id.h"

namespace strata {

template <typename Traits>
class liveness_view {
 public:
  using id_type = basic_entity_id<Traits>;
  using value_type = typename Traits::value_type;

  constexpr liveness_view() noexcept = default;
  constexpr liveness_view(const value_type* ids, std::size_t count) noexcept
      : ids_(ids), count_(count) {}

  constexpr bool alive(id_type id) const noexcept {
    const value_type index = id.index();
    return index < count_ && ids_[index] == id.value();
  }

 private:
  const value_type* ids_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace strata

#endif  // STRATA_ENTITY_LIVENESS_VIEW_H_
