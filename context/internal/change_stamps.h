// Change tracking for the changed() and added() filters of system
// signatures (scheduler/signature.h): which components are tracked, the
// stamps that order writes against system runs, and the per-entity stamp
// arrays.
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
// whose stamp is newer, up to its current run's stamp. A writer and a filtering
// reader of one component are ordered by the DAG (the race check), so the
// writer's rank is lower when it runs first: the reader sees the write in the
// same execution, else in its next run. Stamps depend only on the DAG and on
// the count of steps and executions, never on threads or the scheduler; a
// system's own writes carry its run's stamp and are not seen by its next run.
// An entity keeps one stamp per component, the latest write's: changes a system
// has not seen yet merge into one visit, at the time the latest of them allows.
// Limits: 4095
// executions per step (checked), 4094 systems (checked at compile time).
//
// Storage: per tracked component one array of 64-bit stamps by entity
// index, grown (on the main thread) when a component is added at an index
// beyond it; a split system's subtasks stamp disjoint entities. A component
// no signature filters on has no array, and its loops store nothing.
//
// Internal.
#ifndef STRATA_CONTEXT_INTERNAL_CHANGE_STAMPS_H_
#define STRATA_CONTEXT_INTERNAL_CHANGE_STAMPS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/check.h"
#include "settings/type_list.h"

namespace strata::context_internal {

// The components some signature of SignatureList filters on with changed()
// or added() (written stamps), and with added() (added stamps).
template <typename SignatureList>
struct tracked_components;
template <typename... Signatures>
struct tracked_components<type_list<Signatures...>> {
  using changed =
      unique_t<concat_t<type_list<>, typename Signatures::changed_types...,
                        typename Signatures::added_types...>>;
  using added =
      unique_t<concat_t<type_list<>, typename Signatures::added_types...>>;
};

// One component's stamps by entity index.
class stamp_array {
 public:
  // Makes room for `index` (main thread only; may allocate).
  void reserve_index(std::size_t index) {
    if (index < stamps_.size()) return;
    stamps_.resize(index + 1 > 2 * stamps_.size() ? index + 1
                                                  : 2 * stamps_.size());
  }
  // Requires reserve_index(index) before.
  void stamp(std::size_t index, std::uint64_t stamp) noexcept {
    stamps_[index] = stamp;
  }
  // Every stamp back to "never written" (the memory is kept).
  void clear_stamps() noexcept {
    std::fill(stamps_.begin(), stamps_.end(), std::uint64_t{0});
  }
  std::uint64_t* data() noexcept { return stamps_.data(); }
  const std::uint64_t* data() const noexcept { return stamps_.data(); }

 private:
  std::vector<std::uint64_t> stamps_;
};

// The stamp arrays of a context's tracked components, and the execution
// count. Types is the context's context_types.
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
  // Whether any component is tracked: without, the step's bookkeeping
  // below compiles to nothing (a program without change filters pays
  // nothing; BM_SystemsUpdate/strata_1t/1 shows the per-step cost).
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

  // Called when a step starts, and when an execution starts (main thread).
  void begin_step(std::uint64_t step) noexcept {
    if constexpr (!tracks_anything) return;
    step_ = step;
    execution_ = 0;
  }
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

  // Forgets every write and addition (a world loaded from a file: what
  // happened to it predates every system run of this context).
  void forget_stamps() noexcept {
    for (stamp_array& stamps : changed_) stamps.clear_stamps();
    for (stamp_array& stamps : added_) stamps.clear_stamps();
  }

  template <typename T>
  stamp_array& written() noexcept {
    return changed_[index_of_v<T, changed_types>];
  }
  template <typename T>
  stamp_array& additions() noexcept {
    return added_[index_of_v<T, added_types>];
  }

  // Before T is added at `index` outside systems: stamps it (written, and
  // added unless it replaces one). May allocate; nothing else changes if it
  // throws.
  template <typename T>
  void note_add(std::size_t index, bool replacing) {
    if constexpr (tracks_changes<T>) {
      written<T>().reserve_index(index);
      if constexpr (tracks_additions<T>) additions<T>().reserve_index(index);
      written<T>().stamp(index, outside_stamp());
      if constexpr (tracks_additions<T>) {
        if (!replacing) additions<T>().stamp(index, outside_stamp());
      }
    }
  }

 private:
  std::uint64_t step_ = 0;
  std::uint64_t execution_ = 0;
  std::array<stamp_array, size_v<changed_types>> changed_;
  std::array<stamp_array, size_v<added_types>> added_;
};

// Whether an entity index passes a system's change filter: any listed
// component's stamp is newer than the system's previous run and not newer
// than this run (a change made outside systems earlier in this step carries
// the step's end, and waits for the next run).
template <std::size_t N>
struct change_filter {
  static constexpr bool active = true;
  std::array<const std::uint64_t*, N> stamps;
  std::uint64_t since;
  std::uint64_t until;
  bool operator()(std::size_t index) const noexcept {
    for (const std::uint64_t* s : stamps) {
      if (s[index] > since && s[index] <= until) return true;
    }
    return false;
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_CHANGE_STAMPS_H_
