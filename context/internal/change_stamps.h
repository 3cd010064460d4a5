// Change tracking for the changed() and added() filters of system
// signatures (scheduler/system_signature.h): which components are tracked, the
// stamps that order writes against system runs, and the change logs.
//
// Stamps. A stamp is (step, execution within the step, rank + 1), packed
// in 64 bits (40, 12 and 12 bits): in the k-th execute_systems() call of
// step s, system I writes with stamp (s, k, rank(I) + 1), where rank(I) is
// I's position in the DAG's topological order. Anything done outside
// systems in step s (add_component and create_entities from the step proxy
// or from deferred functions in the refresh) stamps (s, max, max): after
// every system run of step s and before any of step s + 1, because an
// entity that gains a component joins the systems requiring it only at the
// refresh, so a run earlier in the step could not see it. A filtering
// system remembers the stamp of its previous run and visits the entities
// with a write stamped after it, up to its current run's stamp. A writer and
// a filtering reader of one component are ordered by the DAG (the race
// check), so the writer's rank is lower when it runs first: the reader sees
// the write in the same execution, else in its next run. Stamps depend only
// on the DAG and on the count of steps and executions, never on threads or
// the scheduler; a system's own writes carry its run's stamp and are not
// seen by its next run. Each write is seen once by each filtering system, at
// the first of its runs the write's stamp allows. Limits: 4095 executions
// per step (checked), 4094 systems (checked at compile time).
//
// Logs. Per tracked component, an append-only log of stamped ranges of
// entity indices [begin, end): a for_each handing the component out as T&
// appends one range per maximal run of consecutive visited indices (one per
// subtask over a dense subscription), a random-access write or an addition
// one index, merged into the previous entry when it continues it with the
// same stamp. When a filtering system's run starts, the entries stamped in
// its window are gathered into its sorted list of disjoint ranges
// (change_window), which its subtasks walk: a filtered run costs the
// changes since its previous run, not the world (BM_ChangedOnePercent), and
// a dense write costs one append per subtask, not a store per entity
// (BM_SystemsUpdateTracking). When a step begins, the entries every
// filtering system of the component has seen are dropped (the memory is
// kept: no allocation in steady steps). An entry may name an index whose
// entity has since died or lost the component: the walk visits only the
// system's current members, and an index reused by a new entity is logged
// again when the new entity gains the component.
//
// Thread-safety: a log is appended to by the writers of its component,
// which the DAG orders with each other and with the component's filtering
// systems; only a split writer's subtasks append at once, under a mutex
// the log shares with others (one of a fixed set in change_stamps.cc,
// chosen by the log's address): the header stays free of <mutex>, which
// every program would parse, and the lock is taken once per subtask
// range, not per entity. A component no signature filters on has no log, and
// its loops store nothing.
//
// Internal.
#ifndef STRATA_CONTEXT_INTERNAL_CHANGE_STAMPS_H_
#define STRATA_CONTEXT_INTERNAL_CHANGE_STAMPS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/internal/standard_parts.h"
#include "meta/type_list.h"

namespace strata::context_internal {

// The components some signature of SignatureList filters on with changed()
// (written logs) and with added() (added logs).
template <typename SignatureList>
struct tracked_components;
template <typename... Signatures>
struct tracked_components<type_list<Signatures...>> {
  using changed =
      unique_t<concat_t<type_list<>, typename Signatures::changed_types...>>;
  using added =
      unique_t<concat_t<type_list<>, typename Signatures::added_types...>>;
};

// Entity indices [begin, end).
struct index_range {
  std::uint32_t begin;
  std::uint32_t end;
};

// One component's log of written (or added) ranges.
class change_log {
 public:
  struct entry {
    index_range range;
    std::uint64_t stamp;
  };

  // Logs [begin, end) with `stamp`; `shared`: other subtasks of the
  // writer may append at the same time. May allocate. Inlined: a
  // data.write of a tracked component pays a compare and a store
  // (BM_ChangedOnePercent).
  [[gnu::always_inline]] inline void append(std::size_t begin, std::size_t end,
                                            std::uint64_t stamp, bool shared) {
    if (shared) {
      append_shared(begin, end, stamp);
    } else {
      append_unshared(begin, end, stamp);
    }
  }
  // Adds the ranges stamped in (since, until] to `out`.
  void gather(std::uint64_t since, std::uint64_t until,
              std::vector<index_range>& out) const;
  // Drops the entries stamped `seen` or before (every reader saw them).
  void discard_up_to(std::uint64_t seen) noexcept;
  void clear() noexcept { entries_.clear(); }

 private:
  [[gnu::always_inline]] inline void append_unshared(std::size_t begin,
                                                     std::size_t end,
                                                     std::uint64_t stamp) {
    const auto first = static_cast<std::uint32_t>(begin);
    const auto last = static_cast<std::uint32_t>(end);
    if (!entries_.empty() && entries_.back().stamp == stamp &&
        entries_.back().range.end == first) {
      entries_.back().range.end = last;
      return;
    }
    entries_.push_back({{first, last}, stamp});
  }

  // append_unshared under the log's mutex (change_stamps.cc).
  void append_shared(std::size_t begin, std::size_t end, std::uint64_t stamp);

  std::vector<entry> entries_;
};

// The logs of a context's tracked components, and the execution count.
// Types is the context's context_types.
template <typename Types>
class change_tracking {
 public:
  using tracked =
      tracked_components<typename Types::system_list::signature_types>;
  using changed_types = typename tracked::changed;
  using added_types = typename tracked::added;
  template <typename T>
  static constexpr bool tracks_changes = contains_v<T, changed_types>;
  template <typename T>
  static constexpr bool tracks_additions = contains_v<T, added_types>;
  template <typename T>
  static constexpr bool tracks = tracks_changes<T> || tracks_additions<T>;
  // Whether any component is tracked: without, the step's bookkeeping
  // below compiles to nothing (a program without change filters pays
  // nothing; BM_SystemsUpdate/strata_1t/1 shows the per-step cost), and
  // the core and the runner do not call it (`if constexpr` at the caller:
  // a step without change filters never enters this file).
  static constexpr bool tracks_anything =
      size_v<changed_types> + size_v<added_types> > 0;
  static constexpr int kRankBits = 12;
  static constexpr int kExecutionBits = 12;
  static constexpr std::uint64_t kStepShift = kRankBits + kExecutionBits;
  static_assert(Types::system_count + 1 < (std::uint64_t{1} << kRankBits),
                "change filters support up to 4094 systems");

  // System I's rank in the topological order.
  template <std::size_t I>
  static constexpr std::uint64_t rank = [] {
    std::size_t k = 0;
    while (Types::system_list::topological_order[k] != I) ++k;
    return k;
  }();

  // Called when a step starts (main thread, no system running): drops
  // what every filtering system has seen. `core` gives the systems'
  // windows.
  template <typename Core>
  void begin_step(std::uint64_t step, Core& core) noexcept {
    if constexpr (!tracks_anything) return;
    step_ = step;
    execution_ = 0;
    discard_seen(core, std::make_index_sequence<size_v<changed_types>>{},
                 std::make_index_sequence<size_v<added_types>>{});
  }
  // Called when an execution starts (main thread).
  void begin_execution() {
    if constexpr (!tracks_anything) return;
    STRATA_CHECK(execution_ + 1 < (std::uint64_t{1} << kExecutionBits),
                 "change filters: more than 4095 execute_systems calls in "
                 "one step");
    ++execution_;
  }
  template <std::size_t I>
  std::uint64_t system_stamp() const noexcept {
    return step_ << kStepShift | execution_ << kRankBits | (rank<I> + 1);
  }
  std::uint64_t outside_stamp() const noexcept {
    return step_ << kStepShift | ((std::uint64_t{1} << kStepShift) - 1);
  }

  // When filtering system I's run starts, before its subtasks: moves its
  // window to this run and gathers the ranges written or added in it into
  // instance.changed_ranges (sorted, disjoint). May allocate; if it
  // throws, the window stays where it was (the next run sees the changes).
  template <std::size_t I, typename Instance>
  void begin_filtered_run(Instance& instance) {
    using signature = typename Instance::signature_type;
    const std::uint64_t since = instance.change_seen;
    const std::uint64_t until = system_stamp<I>();
    auto& ranges = instance.changed_ranges;
    ranges.clear();
    [&]<typename... Changed, typename... Added>(type_list<Changed...>,
                                                type_list<Added...>) {
      (written<Changed>().gather(since, until, ranges), ...);
      (additions<Added>().gather(since, until, ranges), ...);
    }(typename signature::changed_types{}, typename signature::added_types{});
    sort_and_merge(ranges);
    instance.change_since = since;
    instance.change_seen = until;
  }

  // Forgets every write and addition (a world loaded from a file: what
  // happened to it predates every system run of this context).
  void forget_stamps() noexcept {
    for (change_log& log : changed_) log.clear();
    for (change_log& log : added_) log.clear();
  }

  template <typename T>
  change_log& written() noexcept {
    return changed_[index_of_v<T, changed_types>];
  }
  template <typename T>
  change_log& additions() noexcept {
    return added_[index_of_v<T, added_types>];
  }

  // Before T is added at `index` outside systems: logs it (written, and
  // added unless it replaces one). May allocate; if it throws, the entity
  // may be logged as written (a spurious visit, never a lost one).
  template <typename T>
  void note_add(std::size_t index, bool replacing) {
    if constexpr (tracks_changes<T>) {
      written<T>().append(index, index + 1, outside_stamp(), false);
    }
    if constexpr (tracks_additions<T>) {
      if (!replacing) {
        additions<T>().append(index, index + 1, outside_stamp(), false);
      }
    }
  }

 private:
  // Ascending by begin, overlapping and adjacent ranges merged. Logs are
  // mostly appended in index order, so the sort is usually skipped.
  static void sort_and_merge(std::vector<index_range>& ranges) {
    const auto by_begin = [](const index_range& a, const index_range& b) {
      return a.begin < b.begin;
    };
    if (!std::is_sorted(ranges.begin(), ranges.end(), by_begin)) {
      std::sort(ranges.begin(), ranges.end(), by_begin);
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      if (kept != 0 && ranges[i].begin <= ranges[kept - 1].end) {
        ranges[kept - 1].end = std::max(ranges[kept - 1].end, ranges[i].end);
      } else {
        ranges[kept++] = ranges[i];
      }
    }
    ranges.resize(kept);
  }

  // The oldest window end among the systems filtering on T (with changed()
  // when Added is false, added() when true); entries up to it are seen.
  template <typename T, bool Added, typename Core, std::size_t... I>
  static std::uint64_t oldest_seen(Core& core, std::index_sequence<I...>) {
    std::uint64_t oldest = ~std::uint64_t{0};
    (
        [&] {
          using signature =
              typename Types::system_list::template signature_at<I>;
          using filtered =
              std::conditional_t<Added, typename signature::added_types,
                                 typename signature::changed_types>;
          if constexpr (contains_v<T, filtered>) {
            oldest = std::min(oldest, core.template instance<I>().change_seen);
          }
        }(),
        ...);
    return oldest;
  }
  template <typename Core, std::size_t... C, std::size_t... A>
  void discard_seen(Core& core, std::index_sequence<C...>,
                    std::index_sequence<A...>) noexcept {
    [[maybe_unused]] constexpr auto systems =
        std::make_index_sequence<Types::system_count>{};
    (changed_[C].discard_up_to(
         oldest_seen<type_at_t<C, changed_types>, false>(core, systems)),
     ...);
    (added_[A].discard_up_to(
         oldest_seen<type_at_t<A, added_types>, true>(core, systems)),
     ...);
  }

  std::uint64_t step_ = 0;
  std::uint64_t execution_ = 0;
  std::array<change_log, size_v<changed_types>> changed_;
  std::array<change_log, size_v<added_types>> added_;
};

// Which entity indices pass a system's change filter in this run: its
// gathered ranges (sorted, disjoint).
struct change_filter {
  static constexpr bool active = true;
  const std::vector<index_range>* ranges;
  // Whether `index` is in a range (the per-index test, for walks that are
  // not in index order).
  bool operator()(std::size_t index) const noexcept {
    const auto after = std::upper_bound(
        ranges->begin(), ranges->end(), index,
        [](std::size_t i, const index_range& r) { return i < r.begin; });
    return after != ranges->begin() && index < std::prev(after)->end;
  }
  // f(index) for the members of `set` in the ranges within [low, high),
  // ascending.
  template <typename Set, typename F>
  void for_each_member(const Set& set, std::size_t low, std::size_t high,
                       F&& f) const {
    auto range = std::upper_bound(
        ranges->begin(), ranges->end(), low,
        [](std::size_t i, const index_range& r) { return i < r.end; });
    for (; range != ranges->end() && range->begin < high; ++range) {
      const std::size_t last = std::min<std::size_t>(range->end, high);
      for (std::size_t i = std::max<std::size_t>(range->begin, low); i < last;
           ++i) {
        if (set.contains(i)) f(i);
      }
    }
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_CHANGE_STAMPS_H_
