// Internal to //context: the component hooks' part of the refresh
// (context/hooks.h has the contract, context/refresh.h calls it between the
// deferred functions and the kills).
//
// What each entity was last told. An entity's baseline is the hooked
// components it had at the last refresh (its match-queue entry's `before`
// when it changed in the step, none when it was created in the step), or,
// once a round visited it, the components hooks were told it has. A visit
// compares the baseline with what it has now (nothing, if it is marked
// dead): on_remove for what it lost, then on_add for what it gained and
// still has. The hook proxies collect the entities they touch; the next
// round visits those.
//
// Removed values. remove_component of a component with an on_remove hook
// moves the value into removed_values<T> (in the order of removal) before
// destroying it; a visit finds the entity's latest removal through
// slot_of (by entity index, written for the entries added since the last
// look). The values are destroyed at the end of the phase.
//
// Memory: per-index arrays (baseline, visit mark, slot_of) grow with the
// entity slots and are kept; the value and round buffers keep their
// capacity, so a steady state allocates nothing.
#ifndef STRATA_CONTEXT_INTERNAL_HOOK_PHASE_H_
#define STRATA_CONTEXT_INTERNAL_HOOK_PHASE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "context/hook_proxy.h"
#include "context/hooks.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// One component's removed values, in the order of removal.
template <typename T>
struct removed_values {
  struct entry {
    entity_id id;
    T value;
  };
  std::vector<entry> values;
  std::vector<std::uint32_t> slot_of;  // by entity index: latest entry
  std::size_t indexed = 0;             // entries written into slot_of

  void index_new(std::size_t slot_count) {
    if (indexed == values.size()) return;
    if (slot_of.size() < slot_count) slot_of.resize(slot_count);
    for (; indexed < values.size(); ++indexed) {
      slot_of[values[indexed].id.index()] =
          static_cast<std::uint32_t>(indexed);
    }
  }
  // The latest value removed from `id`, or null.
  const T* find(entity_id id) const {
    if (id.index() >= slot_of.size()) return nullptr;
    const std::uint32_t slot = slot_of[id.index()];
    if (slot >= indexed || values[slot].id != id) return nullptr;
    return &values[slot].value;
  }
  void clear() {
    values.clear();
    indexed = 0;
  }
};

template <typename Types,
          typename HookList = typename Types::settings_type::hook_list_type>
class hook_runner;

// No hooks: nothing stored, nothing run.
template <typename Types>
class hook_runner<Types, component_hook_list<>> {
 public:
  static constexpr bool active = false;
  template <typename T>
  static constexpr bool keeps_removed = false;
  explicit constexpr hook_runner(const component_hook_list<>&) noexcept {}
};

template <typename Types, typename... Hooks>
class hook_runner<Types, component_hook_list<Hooks...>> {
 public:
  static constexpr bool active = true;
  using hook_list = component_hook_list<Hooks...>;
  using bitset_type = typename Types::bitset_type;
  using component_list = typename Types::component_list;

  // Whether remove_component<T> keeps T's value for an on_remove hook.
  template <typename T>
  static constexpr bool keeps_removed =
      ((std::is_same_v<T, typename Hooks::component_type> &&
        Hooks::has_on_remove) ||
       ...);

  explicit hook_runner(const hook_list& hooks) : hooks_(hooks) {}

  template <typename T>
  void keep_removed(entity_id id, T& value) {
    auto& removed = base_internal::get<index_of_v<
        T, type_list<typename Hooks::component_type...>>>(removed_);
    removed.values.push_back({id, std::move(value)});
  }

  // Every round of hooks for the changes queued in `changes`
  // (internal/pending_changes.h); the first exception a hook threw, or null.
  template <typename Core, typename Changes>
  std::exception_ptr run(Core& core, Changes& changes) {
    ++pass_;
    indexed_matches_ = 0;
    prepare(core.entities().slot_count(), changes);
    round_.clear();
    for (const auto& change : changes.to_match) {
      consider(core, changes, change.id);
    }
    for (entity_id id : changes.batch_ids) consider(core, changes, id);
    for (entity_id id : changes.to_kill) consider(core, changes, id);
    std::exception_ptr failure;
    for (std::size_t rounds = 0; !round_.empty(); ++rounds) {
      STRATA_CHECK(rounds < kMaxHookRounds,
                   "component hooks: the refresh needed more than "
                   "kMaxHookRounds rounds (hooks keep answering each "
                   "other's changes)");
      sort_round();
      touched_.clear();
      for (entity_id id : round_) visit(core, changes, id, failure);
      prepare(core.entities().slot_count(), changes);
      round_.clear();
      for (entity_id id : touched_) consider(core, changes, id);
    }
    (base_internal::get<index_of_v<typename Hooks::component_type,
                                   hooked_types>>(removed_)
         .clear(),
     ...);
    return failure;
  }

 private:
  using hooked_types = type_list<typename Hooks::component_type...>;
  static constexpr bitset_type hooked_mask = [] {
    bitset_type mask;
    (mask.set(component_list::template id_of<typename Hooks::component_type>()),
     ...);
    return mask;
  }();

  // Per-index arrays sized for `slot_count`, and the match queue's and the
  // removed values' new entries indexed.
  template <typename Changes>
  void prepare(std::size_t slot_count, Changes& changes) {
    if (baseline_.size() < slot_count) {
      baseline_.resize(slot_count);
      visited_.resize(slot_count);
    }
    if (!changes.to_match.empty() && changes.slots.size() < slot_count) {
      changes.slots.resize(slot_count);
    }
    for (; indexed_matches_ < changes.to_match.size(); ++indexed_matches_) {
      changes.slots[changes.to_match[indexed_matches_].id.index()] =
          static_cast<std::uint32_t>(indexed_matches_);
    }
    (base_internal::get<index_of_v<typename Hooks::component_type,
                                   hooked_types>>(removed_)
         .index_new(slot_count),
     ...);
  }

  template <typename Core, typename Changes>
  bitset_type baseline(Core& core, const Changes& changes, entity_id id) const {
    if (visited_[id.index()] == pass_) return baseline_[id.index()];
    const auto& meta = core.entities().metadata_at(id.index());
    if (!meta.extra.matched) return bitset_type{};
    if (!meta.extra.queued) return meta.components & hooked_mask;
    return changes.to_match[changes.slots[id.index()]].before & hooked_mask;
  }
  template <typename Core>
  static bitset_type now(Core& core, entity_id id) {
    const auto& meta = core.entities().metadata_at(id.index());
    if (meta.extra.pending_kill) return bitset_type{};
    return meta.components & hooked_mask;
  }

  // Queues `id` for the round when a hook is due for it.
  template <typename Core, typename Changes>
  void consider(Core& core, const Changes& changes, entity_id id) {
    if (!core.entities().alive(id)) return;
    if (baseline(core, changes, id) != now(core, id)) round_.push_back(id);
  }

  void sort_round() {
    const auto by_index = [](entity_id a, entity_id b) {
      return a.index() < b.index();
    };
    std::sort(round_.begin(), round_.end(), by_index);
    round_.erase(std::unique(round_.begin(), round_.end()), round_.end());
  }

  template <typename Core, typename Changes>
  void visit(Core& core, const Changes& changes, entity_id id,
             std::exception_ptr& failure) {
    const bitset_type before = baseline(core, changes, id);
    const bitset_type lost = before & ~now(core, id);
    const bitset_type gained = now(core, id) & ~before;
    bitset_type told = before;
    (tell_removed<Hooks>(core, id, lost, told, failure), ...);
    (tell_added<Hooks>(core, id, gained, told, failure), ...);
    baseline_[id.index()] = told;
    visited_[id.index()] = pass_;
  }

  template <typename Hook, typename Core>
  void tell_removed(Core& core, entity_id id, const bitset_type& lost,
                    bitset_type& told, std::exception_ptr& failure) {
    using T = typename Hook::component_type;
    constexpr std::size_t bit = component_list::template id_of<T>();
    if (!lost.test(bit)) return;
    told.reset(bit);
    if constexpr (Hook::has_on_remove) {
      const bool killed = core.entities().metadata_at(id.index())
                              .extra.pending_kill;
      const T* value = killed && core.template has_component<T>(id)
                           ? &core.template get_component<T>(id)
                           : removed_of<T>().find(id);
      if (value == nullptr) return;  // destroyed by a failed replacement
      hook_proxy<Types, Hook> proxy(core, touched_);
      try {
        hook_of<Hook>().remove_callback(proxy, id, *value);
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
    }
  }

  template <typename Hook, typename Core>
  void tell_added(Core& core, entity_id id, const bitset_type& gained,
                  bitset_type& told, std::exception_ptr& failure) {
    using T = typename Hook::component_type;
    constexpr std::size_t bit = component_list::template id_of<T>();
    // Still there: an earlier hook of this visit may have taken it away.
    if (!gained.test(bit) || !now(core, id).test(bit)) return;
    told.set(bit);
    if constexpr (Hook::has_on_add) {
      hook_proxy<Types, Hook> proxy(core, touched_);
      try {
        hook_of<Hook>().add_callback(proxy, id,
                                     core.template get_component<T>(id));
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
    }
  }

  template <typename Hook>
  const Hook& hook_of() const {
    return base_internal::get<index_of_v<Hook, type_list<Hooks...>>>(
        hooks_.hooks);
  }
  template <typename T>
  const removed_values<T>& removed_of() const {
    return base_internal::get<index_of_v<T, hooked_types>>(removed_);
  }

  hook_list hooks_;
  base_internal::flat_tuple<removed_values<typename Hooks::component_type>...>
      removed_;
  std::vector<bitset_type> baseline_;
  std::vector<std::uint64_t> visited_;
  std::uint64_t pass_ = 0;
  std::size_t indexed_matches_ = 0;
  std::vector<entity_id> round_;
  std::vector<entity_id> touched_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HOOK_PHASE_H_
