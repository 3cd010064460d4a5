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

#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/internal/standard_parts.h"
#include "context/hook_proxy.h"
#include "context/hooks.h"
#include "context/internal/entity_order.h"
#include "context/internal/refresh_queue.h"
#include "entity/entity_id.h"
#include "meta/type_list.h"

namespace strata::context_internal {

template <typename Types>
class context_core;

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
      slot_of[values[indexed].id.index()] = static_cast<std::uint32_t>(indexed);
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

// How many hooks the context runs: none when a hook names an unstored
// component or an undeclared resource (make_context reported it, and
// nothing else must fail after the report).
template <typename Settings>
inline constexpr std::size_t usable_hook_count =
    hooks_internal::unstored_hook_component<
        typename Settings::component_list_type,
        typename Settings::hook_list_type>::found ||
            hooks_internal::undeclared_hook_resource<
                typename Settings::resource_list_type,
                typename Settings::hook_list_type>::found
        ? 0
        : Settings::hook_list_type::count;

// Names a call of every hook callback with its proxy: their return types
// are deduced, so this compiles their bodies, and make_context calls it so
// that a misuse inside a hook is reported under few notes (the refresh's
// frames would spell the context type several times more).
template <typename Types, std::size_t... I>
void compile_hooks(std::index_sequence<I...>) {
  using hooks = typename Types::settings_type::hook_list_type::hook_types;
  ((void)sizeof(
       std::is_void<
           decltype(std::declval<const type_at_t<I, hooks>&>().add_callback(
               std::declval<hook_proxy<Types, type_at_t<I, hooks>>&>(),
               entity_id{},
               std::declval<
                   typename type_at_t<I, hooks>::component_type&>()))>),
   ...);
  ((void)sizeof(
       std::is_void<
           decltype(std::declval<const type_at_t<I, hooks>&>().remove_callback(
               std::declval<hook_proxy<Types, type_at_t<I, hooks>>&>(),
               entity_id{},
               std::declval<
                   const typename type_at_t<I, hooks>::component_type&>()))>),
   ...);
}

// The hooks of Types' settings, run on a context_core<Types> by the
// refresh. Without hooks, an empty class: nothing stored, nothing run.
template <typename Types,
          bool Active = (usable_hook_count<typename Types::settings_type> > 0)>
class hook_runner {
 public:
  static constexpr bool active = false;
  template <typename T>
  static constexpr bool keeps_removed = false;
  template <typename HookList>
  explicit constexpr hook_runner(const HookList&) noexcept {}
};

template <typename Types>
class hook_runner<Types, true> {
 public:
  static constexpr bool active = true;
  using hook_list = typename Types::settings_type::hook_list_type;
  using hook_types = typename hook_list::hook_types;
  using hooked_types = typename hook_list::hooked_types;
  using bitset_type = typename Types::bitset_type;
  using component_list = typename Types::component_list;
  using core_type = context_core<Types>;
  using changes_type = refresh_queue<typename Types::entity_storage_type>;

  // Whether remove_component<T> keeps T's value for an on_remove hook.
  template <typename T>
  static constexpr bool keeps_removed = [] {
    if constexpr (contains_v<T, hooked_types>) {
      return type_at_t<index_of_v<T, hooked_types>, hook_types>::has_on_remove;
    } else {
      return false;
    }
  }();

  explicit hook_runner(const hook_list& hooks) : hooks_(hooks) {}

  template <typename T>
  void keep_removed(entity_id id, T& value) {
    auto& removed = base_internal::get<index_of_v<T, hooked_types>>(removed_);
    removed.values.push_back({id, std::move(value)});
  }

  // Every round of hooks for the changes queued in `changes`; the first
  // exception a hook threw, or null. after_round() runs after each round
  // (the hierarchy's cascade of the round's kills) and returns whether it
  // killed more entities; the next round visits them.
  template <typename AfterRound>
  std::exception_ptr run(core_type& core, changes_type& changes,
                         AfterRound&& after_round) {
    ++pass_;
    indexed_matches_ = 0;
    prepare(core, changes);
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
      for (entity_id id : round_) {
        // Earlier hooks of the round may have queued entries or removed
        // values that concern this entity.
        prepare(core, changes);
        baseline_[id.index()] =
            tell(core, baseline(core, changes, id), id, failure,
                 std::make_index_sequence<hook_list::count>{});
        visited_[id.index()] = pass_;
      }
      prepare(core, changes);
      round_.clear();
      for (entity_id id : touched_) consider(core, changes, id);
      if (after_round()) {
        for (entity_id id : changes.to_kill) consider(core, changes, id);
      }
    }
    [&]<typename... Ts>(type_list<Ts...>) {
      (base_internal::get<index_of_v<Ts, hooked_types>>(removed_).clear(), ...);
    }(hooked_types{});
    return failure;
  }

 private:
  static constexpr bitset_type hooked_mask =
      []<typename... Ts>(type_list<Ts...>) {
        bitset_type mask;
        (mask.set(component_list::template id_of<Ts>()), ...);
        return mask;
      }(hooked_types{});

  // The hooks due for `id`, whose hooks were told `before`: on_remove hooks,
  // then on_add hooks, in list order. Returns what they were told now.
  template <std::size_t... I>
  bitset_type tell(core_type& core, const bitset_type& before, entity_id id,
                   std::exception_ptr& failure, std::index_sequence<I...>) {
    bitset_type told = before;
    const bitset_type lost = before & ~now(core, id);
    const bitset_type gained = now(core, id) & ~before;
    (tell_removed<type_at_t<I, hook_types>>(core, id, lost, told, failure),
     ...);
    (tell_added<type_at_t<I, hook_types>>(core, id, gained, told, failure),
     ...);
    return told;
  }

  // Per-index arrays sized for the entity slots, and the match queue's and
  // the removed values' new entries indexed.
  void prepare(core_type& core, changes_type& changes) {
    const std::size_t slot_count = core.entities().slot_count();
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
    [&]<typename... Ts>(type_list<Ts...>) {
      (base_internal::get<index_of_v<Ts, hooked_types>>(removed_).index_new(
           slot_count),
       ...);
    }(hooked_types{});
  }

  bitset_type baseline(core_type& core, const changes_type& changes,
                       entity_id id) const {
    if (visited_[id.index()] == pass_) return baseline_[id.index()];
    const auto& meta = core.entities().metadata_at(id.index());
    if (!meta.extra.matched) return bitset_type{};
    if (!meta.extra.queued) return meta.components & hooked_mask;
    return changes.to_match[changes.slots[id.index()]].before & hooked_mask;
  }
  static bitset_type now(core_type& core, entity_id id) {
    const auto& meta = core.entities().metadata_at(id.index());
    if (meta.extra.pending_kill) return bitset_type{};
    return meta.components & hooked_mask;
  }

  // Queues `id` for the round when a hook is due for it.
  void consider(core_type& core, const changes_type& changes, entity_id id) {
    if (!core.entities().alive(id)) return;
    if (baseline(core, changes, id) != now(core, id)) round_.push_back(id);
  }

  void sort_round() {
    // Usually sorted already (entities changed in index order).
    sort_by_index(round_.data(), round_.data() + round_.size());
    round_.erase(std::unique(round_.begin(), round_.end()), round_.end());
  }

  template <typename Hook>
  void tell_removed(core_type& core, entity_id id, const bitset_type& lost,
                    bitset_type& told, std::exception_ptr& failure) {
    using T = typename Hook::component_type;
    constexpr std::size_t bit = component_list::template id_of<T>();
    if (!lost.test(bit)) return;
    told.reset(bit);
    if constexpr (Hook::has_on_remove) {
      const bool killed =
          core.entities().metadata_at(id.index()).extra.pending_kill;
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

  template <typename Hook>
  void tell_added(core_type& core, entity_id id, const bitset_type& gained,
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
    return base_internal::get<index_of_v<Hook, hook_types>>(hooks_.hooks);
  }
  template <typename T>
  const removed_values<T>& removed_of() const {
    return base_internal::get<index_of_v<T, hooked_types>>(removed_);
  }

  template <typename List>
  struct removed_tuple;
  template <typename... Ts>
  struct removed_tuple<type_list<Ts...>> {
    using type = base_internal::flat_tuple<removed_values<Ts>...>;
  };

  hook_list hooks_;
  typename removed_tuple<hooked_types>::type removed_;
  std::vector<bitset_type> baseline_;
  std::vector<std::uint64_t> visited_;
  std::uint64_t pass_ = 0;
  std::size_t indexed_matches_ = 0;
  std::vector<entity_id> round_;
  std::vector<entity_id> touched_;
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HOOK_PHASE_H_
