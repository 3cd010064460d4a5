// Internal to //context: how a system declared .in_hierarchy_order()
// (scheduler/signature.h) visits its entities: one pass per depth level of
// the hierarchy (context/hierarchy.h), parents before children.
//
//   * level 0: the system's entities without a parent, in index order (a
//     subtask takes its slice of the subscription's ranks, as any system,
//     and skips the entities below a root, 64 at a time where the
//     subscription is dense);
//   * level d >= 1: the entities of the hierarchy's depth-d array that are
//     the system's, in that array's order (a subtask takes the s-th of n
//     equal slices of the array).
// The executor runs the levels one after another, each split into the
// run's subtasks (subtask_executor::run_each_subtask): a subtask of level d
// reads parents that level d - 1 wrote and finished, so data.parent(ct::x,
// e) never races with a write, and the visiting order, hence the order of
// deferred functions, does not depend on the split.
//
// The visit of each entity sets a hierarchy_cursor (the entity's index and
// its parent's, read from the level array beside it), so data.parent(ct::x,
// e) reaches the parent's component by index: no node, no id, no lookup.
//
// Cost: the array of each level is read once per level, in one contiguous
// sweep; an entity the system does not have costs a bit test.
#ifndef STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_
#define STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_

#include <bit>
#include <cstddef>
#include <exception>

#include "context/internal/for_each.h"
#include "context/internal/hierarchy_storage.h"

namespace strata::context_internal {

// The entity a loop in hierarchy order is visiting and its parent
// (hierarchy_storage::none for a root, and for both between visits).
struct hierarchy_cursor {
  std::size_t index = hierarchy_storage::none;
  std::size_t parent = hierarchy_storage::none;
};
// What a data proxy holds instead in a system not in hierarchy order.
struct no_hierarchy_cursor {};

// Subtask `subtask` of `count`'s part of level `level`: f(index, parent)
// for each index of the system's set there, in order.
template <typename Set, typename F>
void for_level_slice(const hierarchy_storage& storage, const Set& set,
                     std::size_t level, std::size_t begin_rank,
                     std::size_t end_rank, std::size_t subtask,
                     std::size_t count, F&& f) {
  constexpr std::size_t none = hierarchy_storage::none;
  if (level == 0) {
    constexpr std::size_t bits = hierarchy_storage::word_bits;
    set.for_each_member(
        begin_rank, end_rank,
        [&](std::size_t first, std::size_t length) {  // whole words
          for (std::size_t w = first / bits; w < (first + length) / bits;
               ++w) {
            for (auto roots = ~storage.parent_word(w); roots != 0;
                 roots &= roots - 1) {
              f(w * bits + static_cast<std::size_t>(std::countr_zero(roots)),
                none);
            }
          }
        },
        [&](std::size_t index) {
          if (!storage.has_parent(index)) f(index, none);
        });
    return;
  }
  const auto entries = storage.level(level);
  const std::size_t first = entries.size() * subtask / count;
  const std::size_t last = entries.size() * (subtask + 1) / count;
  for (std::size_t at = first; at < last; ++at) {
    const hierarchy_storage::level_entry entry = entries[at];
    if (set.contains(entry.index)) f(entry.index, entry.parent);
  }
}

// for_each's loop in hierarchy order (as loop_ranks, for_each.h), with
// `cursor` set for each visit.
template <bool TakesId, typename Set, typename Entities, typename F,
          typename Filter, std::size_t W, typename... Access>
void loop_hierarchy_level(const hierarchy_storage& storage, const Set& set,
                          std::size_t level, std::size_t begin_rank,
                          std::size_t end_rank, std::size_t subtask,
                          std::size_t count, hierarchy_cursor& cursor,
                          const Entities& entities, F& f, const Filter& filter,
                          const write_stamps<W>& stamps,
                          const Access&... access) {
  std::exception_ptr first;
  continuing_call<F> call{f, first};
  for_level_slice(storage, set, level, begin_rank, end_rank, subtask, count,
                  [&](std::size_t i, std::size_t parent) {
                    if (!filter(i)) return;
                    stamps.at_index(i);
                    cursor = {i, parent};
                    call_at<TakesId>(entities, i, call, access...);
                  });
  cursor = {};
  if (first) std::rethrow_exception(first);
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_
