// Internal to //context: what a step leaves for the refresh
// (context/refresh.h), and how it is noted.
//
//   * kills: the ids marked dead, applied in phase 2
//     (internal/kill_phase.h);
//   * matches: one entry per entity created or changed one at a time, made
//     on its first change in the step, with the components it had at the
//     last refresh; matched again in phase 3 (internal/match_phase.h);
//   * batches: entities made by one create_entities(n, f) call, all with the
//     same components: phase 3 matches the components once per system
//     instead of once per entity and system, and adds the batch to each
//     matching system in one pass (ordered_index_set::insert_all).
// An entity is in at most one of matches and batches: both mark it `queued`
// in its refresh flags (internal/subscription.h), so its later changes in
// the step add no entry; a batch entity whose components changed after its
// batch was made is matched on its own in phase 3.
//
// The buffers keep their capacity from step to step: a steady state
// allocates nothing.
#ifndef STRATA_CONTEXT_INTERNAL_PENDING_CHANGES_H_
#define STRATA_CONTEXT_INTERNAL_PENDING_CHANGES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "context/internal/append_buffer.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

template <typename EntityStorage>
struct pending_changes {
  using bitset_type = typename EntityStorage::metadata_type::bitset_type;

  struct pending_match {
    entity_id id;
    bitset_type before;  // its components at the last refresh
  };
  // batch_ids[first, first + count) were created with components `bits`.
  struct created_batch {
    bitset_type bits;
    std::size_t first;
    std::size_t count;
  };

  // The entry of live entity `id` in the match queue, made on its first
  // change. Unchecked (metadata_at): every caller has just checked or
  // created the id, so a second check here would only add to every
  // change. Always inlined, with its callers: GCC kept it out of line (it
  // has many call sites), a call per change (BM_RemoveAddComponent,
  // benchmarks/entity_benchmark.cc).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void queue_change(EntityStorage& entities,
                                                 entity_id id) {
    auto& meta = entities.metadata_at(id.index());
    if (!meta.extra.queued) {
      meta.extra.queued = true;
      // Fields written in place: a braced temporary was assembled on the
      // stack in pieces and copied with one wide load, a store-forwarding
      // stall on every change (BM_RemoveAddComponent).
      pending_match& change = to_match.append();
      change.id = id;
      change.before = meta.components;
    }
  }

  // A batch of entities with components `bits` starts; each is then added
  // with add_to_batch.
  void begin_batch(const bitset_type& bits) {
    batches.push_back({bits, batch_ids.size(), 0});
  }
  // Live entity `id`, just created with the components of the last batch
  // begun (none of its changes noted before).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void add_to_batch(EntityStorage& entities,
                                                 entity_id id) {
    entities.metadata_at(id.index()).extra.queued = true;
    batch_ids.append() = id;
    ++batches.back().count;
  }

  std::size_t queued_entities() const noexcept {
    return to_match.size() + batch_ids.size();
  }

  std::vector<entity_id> to_kill;
  append_buffer<pending_match> to_match;
  append_buffer<entity_id> batch_ids;
  std::vector<created_batch> batches;
  // Phase 2's index of the match queue: slots[i] is the entry of the
  // queued entity with index i (index_match_entries).
  std::vector<std::uint32_t> slots;
  // A subscription grew past its growth limit (subscription.h).
  bool subscription_grew = false;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_PENDING_CHANGES_H_
