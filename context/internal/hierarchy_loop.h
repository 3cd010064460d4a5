// Internal to //context: how a system declared .in_hierarchy_order()
// (scheduler/system_signature.h) visits its entities: one pass per depth level
// of the hierarchy (context/hierarchy.h), parents before children.
//
//   * level 0: the system's entities without a parent, in index order (a
//     subtask takes its slice of the subscription's ranks, as any system,
//     and skips the entities below a root, 64 at a time where the
//     subscription is dense);
//   * level d >= 1: the entities of the hierarchy's depth-d array that are
//     the system's, in that array's order: index order, but for the few
//     entries moved since the refresh last sorted the level
//     (hierarchy_storage::tidy_levels), so the components are read forward
//     through memory (a subtask takes the s-th of n equal slices of the
//     array).
// The executor runs the levels one after another, each split into the
// run's subtasks (subtask_executor::run_each_subtask): a subtask of level d
// reads parents that level d - 1 wrote and finished, so data.parent(ct::x,
// e) never races with a write, and the visiting order, hence the order of
// deferred functions, does not depend on the split.
//
// The visit of each entity sets a hierarchy_cursor (a copy of its level
// entry: the entity's index and its parent's, none for a root), so
// data.parent(ct::x, e) reaches the parent's component by index: no node,
// no id, no lookup.
//
// Cost: the array of each level is read once per level, in one contiguous
// sweep; an entity the system does not have costs a bit test. Each loop
// knows whether its entries have a parent (the roots' never, a level
// d >= 1's always), so a visit tests neither, and the parent's component,
// read by index, is known not to be null: with data.for_each_with_parent
// and every live entity the system's, a visit is the hand-written one's
// work plus the read of its entry.
#ifndef STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_
#define STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <tuple>
#include <type_traits>
#include <utility>

#include "context/internal/for_each.h"
#include "context/internal/hierarchy_for_each.h"
#include "context/internal/hierarchy_storage.h"

namespace strata::context_internal {

// The entity a loop in hierarchy order is visiting and its parent, and
// whether every live entity is the system's in this pass (then so is the
// parent: data.parent skips the parent's component test for a component
// the system requires). A visit sets one word, its level entry.
struct hierarchy_cursor {
  using level_entry = hierarchy_storage::level_entry;
  // The entry as one word of a type of its own: in a loop whose visits
  // never read it (for_each_with_parent without data.parent), no load may
  // alias such a word, so the compiler keeps it in a register instead of
  // storing it at every visit, as it would a level_entry.
  std::uint64_t word = std::bit_cast<std::uint64_t>(
      level_entry{hierarchy_storage::none, hierarchy_storage::none});
  bool every_entity = false;

  // A root's entry (for_root_slice's) holds none as its parent, a level
  // d >= 1's its parent: both are stored as they are, no test.
  template <typename HasParent>
  [[gnu::always_inline]] inline void enter(const level_entry& visited,
                                           HasParent) {
    word = std::bit_cast<std::uint64_t>(visited);
  }
  // {none, none} between visits.
  level_entry visiting() const { return std::bit_cast<level_entry>(word); }
};
// What a data proxy holds instead in a system not in hierarchy order.
struct no_hierarchy_cursor {};

// One subtask's part of one level: level `level`, the subtask's ranks of
// the system's set (level 0) and its slice of the level's array (others).
struct hierarchy_slice {
  std::size_t level;
  std::size_t begin_rank, end_rank;
  std::size_t subtask, count;
};

// What for_level_slice tells f besides the entry, known where each loop
// is written: whether the entry has a parent (false for every root, true
// for every entry of a level d >= 1), so that a visit tests nothing.
using root_entry = std::false_type;
using child_entry = std::true_type;

// f(entry, has_parent), or f(entry) for an f that takes the entry alone.
template <typename F, typename HasParent>
[[gnu::always_inline]] inline void visit_entry(
    F& f, const hierarchy_storage::level_entry& entry, HasParent has_parent) {
  if constexpr (std::is_invocable_v<F&, hierarchy_storage::level_entry,
                                    HasParent>) {
    f(entry, has_parent);
  } else {
    f(entry);
  }
}

// The roots of the system's set in `slice` (level 0), in index order.
template <typename Set, typename F>
void for_root_slice(const hierarchy_storage& storage, const Set& set,
                    const hierarchy_slice& slice, F& f) {
  using index_type = hierarchy_storage::index_type;
  constexpr index_type none = hierarchy_storage::none;
  constexpr std::size_t bits = hierarchy_storage::word_bits;
  set.for_each_member(
      slice.begin_rank, slice.end_rank,
      [&](std::size_t first, std::size_t length) {  // whole words
        for (std::size_t w = first / bits; w < (first + length) / bits; ++w) {
          for (auto roots = ~storage.parent_word(w); roots != 0;
               roots &= roots - 1) {
            visit_entry(
                f,
                {static_cast<index_type>(w * bits + std::countr_zero(roots)),
                 none},
                root_entry{});
          }
        }
      },
      [&](std::size_t index) {
        if (!storage.has_parent(index)) {
          visit_entry(f, {static_cast<index_type>(index), none}, root_entry{});
        }
      });
}

// f(level_entry{index, parent}[, has_parent]) for each index of the
// system's set in `slice`, in order (every entity of the level when
// `every_entity`: the set holds every live entity).
template <typename Set, typename F>
void for_level_slice(const hierarchy_storage& storage, const Set& set,
                     bool every_entity, const hierarchy_slice& slice, F&& f) {
  if (slice.level == 0) {
    for_root_slice(storage, set, slice, f);
    return;
  }
  const auto entries = storage.level(slice.level);
  const std::size_t first = entries.size() * slice.subtask / slice.count;
  const std::size_t last = entries.size() * (slice.subtask + 1) / slice.count;
  if (every_entity) {  // the common case: no subscription test
    for (std::size_t at = first; at < last; ++at) {
      visit_entry(f, entries[at], child_entry{});
    }
    return;
  }
  for (std::size_t at = first; at < last; ++at) {
    if (set.contains(entries[at].index)) {
      visit_entry(f, entries[at], child_entry{});
    }
  }
}

// What a visit holds instead of a parent_reader when f takes no parent.
struct no_parent_reader {};

// The call of a visit of data.for_each_with_parent: f with the parent's
// component first, an exception kept as continuing_call keeps it.
template <typename Call, typename Parent>
struct parent_call {
  Call& call;
  Parent parent;
  template <typename... A>
  [[gnu::always_inline]] inline void operator()(A&&... a) const {
    try {
      call.f.with_parent(parent, std::forward<A>(a)...);
    } catch (...) {
      if (!call.first) call.first = std::current_exception();
    }
  }
};

// loop_hierarchy_level's visit of one entity, always inlined into the
// loops of for_level_slice (a call per entity otherwise).
template <bool TakesId, typename Entities, typename Call, typename Filter,
          std::size_t W, typename Reader, typename... Access>
struct hierarchy_visit {
  hierarchy_cursor& cursor;
  const Entities& entities;
  Call& call;
  const Filter& filter;
  write_log<W>& stamps;
  Reader reader;                 // a copy, as the accessors
  std::tuple<Access...> access;  // copies: their pointers stay in registers
  template <typename HasParent>
  [[gnu::always_inline]] inline void operator()(
      const hierarchy_storage::level_entry& entry, HasParent has_parent) const {
    const std::size_t i = entry.index;
    if (!filter(i)) return;
    stamps.at_index(i);
    cursor.enter(entry, has_parent);
    if constexpr (std::is_same_v<Reader, no_parent_reader>) {
      std::apply(
          [&](const Access&... a) {
            call_at<TakesId>(entities, i, call, a...);
          },
          access);
    } else {
      using pointer = decltype(reader(entities, entry.parent));
      pointer parent = nullptr;  // a root's
      if constexpr (HasParent::value) parent = reader(entities, entry.parent);
      parent_call<Call, pointer> bound{call, parent};
      std::apply(
          [&](const Access&... a) {
            call_at<TakesId>(entities, i, bound, a...);
          },
          access);
    }
  }
};

// The visit's parent reader: f's (data.for_each_with_parent), told whether
// every parent has the component, or none.
template <typename F>
auto parent_reader_of(const F& f, bool every_entity) {
  if constexpr (passes_parent<F>) {
    auto reader = f.reader;
    reader.tested = !(decltype(reader)::required && every_entity);
    return reader;
  } else {
    return no_parent_reader{};
  }
}

// for_each's loop in hierarchy order (as loop_ranks, for_each.h), with
// `cursor` set for each visit.
template <bool TakesId, typename Set, typename Entities, typename F,
          typename Filter, std::size_t W, typename... Access>
void loop_hierarchy_level(const hierarchy_storage& storage, const Set& set,
                          const hierarchy_slice& slice,
                          hierarchy_cursor& cursor, const Entities& entities,
                          F& f, const Filter& filter, write_log<W>& stamps,
                          const Access&... access) {
  std::exception_ptr first;
  continuing_call<F> call{f, first};
  const bool every_entity = set.size() == entities.size();
  cursor.every_entity = every_entity;
  const auto reader = parent_reader_of(f, every_entity);
  for_level_slice(
      storage, set, every_entity, slice,
      hierarchy_visit<TakesId, Entities, continuing_call<F>, Filter, W,
                      std::remove_const_t<decltype(reader)>, Access...>{
          cursor, entities, call, filter, stamps, reader, {access...}});
  stamps.flush();
  cursor = {};
  if (first) std::rethrow_exception(first);
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HIERARCHY_LOOP_H_
