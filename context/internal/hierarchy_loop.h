// Internal to //context: how a system declared .in_hierarchy_order()
// (scheduler/signature.h) visits its entities: one pass per depth level of
// the hierarchy (context/hierarchy.h), parents before children.
//
//   * level 0: the system's entities without a parent, in index order (a
//     subtask takes its slice of the subscription's ranks, as any system,
//     and skips the entities below a root);
//   * level d >= 1: the entities of the hierarchy's depth-d array that are
//     the system's, in that array's order (a subtask takes the s-th of n
//     equal slices of the array).
// The executor runs the levels one after another, each split into the
// run's subtasks (subtask_executor::run_each_subtask): a subtask of level d
// reads parents that level d - 1 wrote and finished, so data.parent(ct::x,
// e) never races with a write, and the visiting order, hence the order of
// deferred functions, does not depend on the split.
//
// Cost: the array of each level is read once per level; an entity the
// system does not have costs a bit test.
#ifndef STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_
#define STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_

#include <cstddef>
#include <exception>

#include "context/internal/for_each.h"
#include "context/internal/hierarchy_storage.h"

namespace strata::context_internal {

// Subtask `subtask` of `count`'s part of level `level`: f(index) for each
// index of the system's set there, in order.
template <typename Set, typename F>
void for_level_slice(const hierarchy_storage& storage, const Set& set,
                     std::size_t level, std::size_t begin_rank,
                     std::size_t end_rank, std::size_t subtask,
                     std::size_t count, F&& f) {
  if (level == 0) {
    set.for_each(begin_rank, end_rank, [&](std::size_t index) {
      if (storage.depth(index) == 0) f(index);
    });
    return;
  }
  const auto& indices = storage.level(level);
  const std::size_t first = indices.size() * subtask / count;
  const std::size_t last = indices.size() * (subtask + 1) / count;
  for (std::size_t at = first; at < last; ++at) {
    const std::size_t index = indices[at];
    if (set.contains(index)) f(index);
  }
}

// for_each's loop in hierarchy order (as loop_ranks, for_each.h).
template <bool TakesId, typename Set, typename Entities, typename F,
          typename Filter, std::size_t W, typename... Access>
void loop_hierarchy_level(const hierarchy_storage& storage, const Set& set,
                          std::size_t level, std::size_t begin_rank,
                          std::size_t end_rank, std::size_t subtask,
                          std::size_t count, const Entities& entities, F& f,
                          const Filter& filter, write_log<W>& stamps,
                          const Access&... access) {
  std::exception_ptr first;
  continuing_call<F> call{f, first};
  for_level_slice(storage, set, level, begin_rank, end_rank, subtask, count,
                  [&](std::size_t i) {
                    if (!filter(i)) return;
                    stamps.at_index(i);
                    call_at<TakesId>(entities, i, call, access...);
                  });
  stamps.flush();
  if (first) std::rethrow_exception(first);
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_
