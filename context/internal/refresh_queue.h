// Internal to //context: the refresh queue, what a step leaves for the
// refresh (context/refresh.h, which states the phases), and how it is
// noted. The context core runs the phases on it (internal/core.h).
//
//   context_internal::refresh_queue<EntityStorage> queue;
//   queue.note_created(entities, id);        // during the step
//   queue.note_change(entities, id);         // before a component's bit flips
//   queue.begin_batch(bits);                 // create_entities(n, f):
//   queue.note_created_in_batch(entities, id);  //   each of the n
//   queue.queue_kill(entities, id);          // mark dead
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
// What subtasks leave (kills, deferred functions) stays in their subtask
// states (internal/system_instance_parts.h); which systems left each kind
// is noted in a subtask_work_set, so the refresh visits only those.
//
// An entity is in at most one of matches and batches: both mark it `queued`
// in its refresh flags (internal/subscription.h), so its later changes in
// the step add no entry; a batch entity whose components changed after its
// batch was made is matched on its own in phase 3.
//
// The buffers keep their capacity from step to step: a steady state
// allocates nothing.
//
// Thread-safety: one thread (the context's) calls the queue, never while
// systems run; a subtask_work_set is noted from any thread.
#ifndef STRATA_CONTEXT_INTERNAL_REFRESH_QUEUE_H_
#define STRATA_CONTEXT_INTERNAL_REFRESH_QUEUE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/base/attributes.h"
#include "base/internal/atomic_value.h"
#include "base/internal/trivial_vector.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

template <typename EntityStorage>
class refresh_queue {
 public:
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

  // A new entity: matched against every system at the refresh.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_created(EntityStorage& entities,
                                                 entity_id id) {
    note_change(entities, id);
  }
  // A component of live entity `id` is about to be added or removed: its
  // entry in the match queue, made on its first change, with the
  // components it had at the last refresh (what changed is read at the
  // refresh). Unchecked (metadata_at): every caller has just checked or
  // created the id, so a second check here would only add to every
  // change. Always inlined, with its callers: GCC kept it out of line (it
  // has many call sites), a call per change (BM_RemoveAddComponent,
  // benchmarks/entity_benchmark.cc).
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_change(EntityStorage& entities,
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

  // create_entities(n, f): the entities noted with note_created_in_batch
  // until the next begin_batch were created with components `bits` (their
  // metadata already says so, none of their changes noted before), and are
  // matched as one at the refresh.
  void begin_batch(const bitset_type& bits) {
    batches.append({bits, batch_ids.size(), 0});
  }
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_created_in_batch(
      EntityStorage& entities, entity_id id) {
    entities.metadata_at(id.index()).extra.queued = true;
    batch_ids.append() = id;
    ++batches.back().count;
  }

  // Marks `id` dead; false if it is not alive or already marked.
  bool queue_kill(EntityStorage& entities, entity_id id) {
    if (!entities.alive(id)) return false;
    auto& flags = entities.metadata_at(id.index()).extra;
    if (flags.pending_kill) return false;
    flags.pending_kill = true;
    to_kill.push_back(id);
    return true;
  }

  std::size_t pending_kills() const noexcept { return to_kill.size(); }
  // Entities queued for matching, one at a time or in batches.
  std::size_t pending_matches() const noexcept {
    return to_match.size() + batch_ids.size();
  }
  // Whether a subscription grew past its growth limit since the last call
  // (subscription::set_growth_limit); resets the answer.
  bool take_subscription_growth() noexcept {
    return std::exchange(subscription_grew, false);
  }

  // The queues, worked through by the refresh's phases.

  base_internal::trivial_vector<entity_id> to_kill;
  base_internal::append_buffer<pending_match> to_match;
  base_internal::append_buffer<entity_id> batch_ids;
  base_internal::append_buffer<created_batch> batches;
  // Phase 2's index of the match queue: slots[i] is the entry of the
  // queued entity with index i (index_match_entries).
  base_internal::trivial_vector<std::uint32_t> slots;
  // A subscription grew past its growth limit (subscription.h).
  bool subscription_grew = false;
};

// What the subtasks of a step left for the refresh, as sets of system ids:
// one of the systems whose subtasks killed entities, one of those whose
// subtasks deferred functions. Data proxies note while systems run, from
// any thread (relaxed atomics: the refresh reads after the systems joined);
// the refresh takes the notes, then visits only the systems noted for
// each kind, so a system that killed is not asked for deferred functions.
enum class subtask_work : unsigned char { kills, deferred };

template <std::size_t SystemCount>
class subtask_work_set {
 public:
  // A subtask of `system` left `kind`. The bit is tested before it is set:
  // after a system's first note the word is only read, so subtasks that
  // kill many entities do not take the cache line from each other.
  void note(subtask_work kind, std::size_t system) noexcept {
    const std::size_t bit = bit_of(kind, system);
    base_internal::atomic_value<std::uint64_t>& word = noted_[bit / 64];
    const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
    if ((word.load(base_internal::memory_order::relaxed) & mask) == 0) {
      word.fetch_or(mask, base_internal::memory_order::relaxed);
    }
  }
  bool any_noted() const noexcept {
    for (const auto& word : noted_) {
      if (word.load(base_internal::memory_order::relaxed) != 0) return true;
    }
    return false;
  }
  // Moves the notes to the taken set (clearing them); whether any was
  // noted.
  bool take() noexcept {
    std::uint64_t any = 0;
    for (std::size_t w = 0; w < words; ++w) {
      taken_[w] = noted_[w].exchange(0, base_internal::memory_order::relaxed);
      any |= taken_[w];
    }
    return any != 0;
  }
  // Whether the last take() had `kind` for `system`.
  bool taken(subtask_work kind, std::size_t system) const noexcept {
    const std::size_t bit = bit_of(kind, system);
    return (taken_[bit / 64] >> (bit % 64) & 1) != 0;
  }

 private:
  static constexpr std::size_t words = (2 * SystemCount + 63) / 64;
  static constexpr std::size_t bit_of(subtask_work kind, std::size_t system) {
    return static_cast<std::size_t>(kind) * SystemCount + system;
  }

  std::array<base_internal::atomic_value<std::uint64_t>, words> noted_{};
  std::array<std::uint64_t, words> taken_{};
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_REFRESH_QUEUE_H_
