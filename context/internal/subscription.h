// Internal to //context: a system's subscription, the part of a system
// instance (context/system_instance.h) the refresh (context/refresh.h)
// works on, with nothing of the system's type in it.
//
// A subscription is the set of indices of the entities that matched the
// system at the last refresh (every required component, no excluded one),
// plus the departures noted since (remove_component took a required
// component; applied at the next look, see system_instance.h) and which
// subscription hooks the system has. Its rule (required and excluded bits) is
// run-time data, set once from the signature's compile-time bits.
//
// Why apart from the instance: the refresh visits every system in each of
// its phases. Written against the instance type, each phase's loop was
// compiled once per system (and twice when it could run in parallel),
// a large part of a many-system program's compile time
// (//benchmarks/compile:large_64x32). Written against this
// one type, it is compiled once per context. The run-time rule costs one
// load per loop, not per entity.
//
// Also here: the per-entity flags the refresh keeps in entity metadata
// (entity_refresh_flags), and remove_component's departure notes
// (depart_systems_requiring).
//
// Thread-safety: as the instance's. Departures are noted and settled only
// outside system execution; during a run, looks only read.
#ifndef STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_H_
#define STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "absl/base/attributes.h"
#include "base/internal/trivial_vector.h"
#include "entity/entity_id.h"
#include "sparse_set/ordered_index_set.h"

namespace strata::context_internal {

// Which subscription hooks a system has (on_subscribe / on_unsubscribe).
struct subscription_hooks {
  bool on_subscribe = false;
  bool on_unsubscribe = false;
};

// The hooks a system type declares (on_subscribe(entity_id),
// on_unsubscribe(entity_id)); known at compile time, kept in the
// subscription for the refresh.
template <typename System>
constexpr subscription_hooks hooks_of() {
  subscription_hooks hooks;
  hooks.on_subscribe = requires(System & s, entity_id id) {
    s.on_subscribe(id);
  };
  hooks.on_unsubscribe = requires(System & s, entity_id id) {
    s.on_unsubscribe(id);
  };
  return hooks;
}

// Which entities belong to a system: those with every required component
// and no excluded one. A value: loops copy it into locals, so that stores
// to the members (which could alias it) do not reload it per entity.
template <typename Bitset>
struct subscription_rule {
  Bitset required;
  Bitset excluded;
  Bitset interest;  // required | excluded: changes that can matter

  bool matches(const Bitset& bits) const noexcept {
    return bits.contains_all(required) && (bits & excluded).none();
  }
};

template <typename EntityStorage>
class subscription {
 public:
  using bitset_type = typename EntityStorage::metadata_type::bitset_type;
  using rule_type = subscription_rule<bitset_type>;

  subscription(std::size_t system_id, const bitset_type& required,
               const bitset_type& excluded, subscription_hooks hooks,
               const EntityStorage& entities)
      : rule_{required, excluded, required | excluded},
        entities_(&entities),
        system_id_(system_id),
        hooks_(hooks) {}

  subscription(const subscription&) = delete;
  subscription& operator=(const subscription&) = delete;

  std::size_t system_id() const noexcept { return system_id_; }
  // The storage whose entities' indices the members are.
  const EntityStorage& entities() const noexcept { return *entities_; }
  subscription_hooks hooks() const noexcept { return hooks_; }

  // Whether an entity with components `bits` belongs to the system.
  bool matches(const bitset_type& bits) const noexcept {
    return rule_.matches(bits);
  }
  const rule_type& rule() const noexcept { return rule_; }

  // The members after pending departures (a look), and the set as it is
  // (for the refresh, which settles departures itself).
  const ordered_index_set& subscribed_indices() const {
    settle_departures();
    return members_;
  }
  ordered_index_set& raw_subscribed_indices() noexcept { return members_; }
  const ordered_index_set& raw_subscribed_indices() const noexcept {
    return members_;
  }
  // Their counts, for those that need no index (the run policy).
  std::size_t subscribed_count() const { return subscribed_indices().size(); }
  std::size_t raw_subscribed_count() const noexcept { return members_.size(); }

  // remove_component took a required component from the entity at
  // `index`: it leaves at the next look unless it has it again by then.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void note_departure(std::uint32_t index) {
    departures_.append() = index;
  }
  std::size_t pending_departures() const noexcept { return departures_.size(); }
  // Applies the noted departures. The empty test inlines (every run and
  // subscribed_count() asks); the loop stays out of line.
  void settle_departures() const {
    if (!departures_.empty()) settle_noted_departures();
  }
  [[gnu::noinline]] void settle_noted_departures() const {
    for (const std::uint32_t index : departures_) {
      if (!matches(entities_->metadata_at(index).components) &&
          members_.erase(index)) {
        left_since_refresh_ = true;
      }
    }
    departures_.clear();
  }
  // Whether an entity left since the last refresh (the refresh must then
  // re-insert entities that match again), and the refresh's reset.
  bool left_since_refresh() const noexcept { return left_since_refresh_; }
  void finish_refresh() noexcept {
    departures_.clear();
    left_since_refresh_ = false;
  }

  // How many members the threaded scheduler's latest inline decision
  // allows (system_runner.h): past it, the refresh reports growth and the
  // next run decides again. No limit until a decision sets one.
  void set_growth_limit(std::size_t limit) noexcept { growth_limit_ = limit; }
  bool outgrew_limit() const noexcept {
    return members_.size() > growth_limit_;
  }

 private:
  rule_type rule_;
  const EntityStorage* entities_;
  std::size_t system_id_;
  subscription_hooks hooks_;
  // Mutable: a look applies pending departures first; membership as
  // observed is unchanged by it.
  mutable ordered_index_set members_;
  mutable base_internal::append_buffer<std::uint32_t> departures_;
  mutable bool left_since_refresh_ = false;
  std::size_t growth_limit_ = static_cast<std::size_t>(-1);
};

// Per-entity state the refresh keeps in entity metadata (reset on reclaim).
// One byte: with up to 16 component types an entity's metadata (component
// bits, these flags) is 4 bytes, in the array beside the id slots that the
// random-access path reads (alive, then has/get) before the component.
// Where a queued entity's entry is gets looked up only in phase 2
// (index_match_entries), so no change pays for recording it.
struct entity_refresh_flags {
  bool pending_kill : 1 = false;
  bool matched : 1 = false;  // went through a refresh: subscriptions reflect it
  bool queued : 1 = false;   // has an entry in the match queue
  friend constexpr bool operator==(entity_refresh_flags,
                                   entity_refresh_flags) = default;
};

// The systems (ids, ascending) whose required components include the
// component with bit `Bit`, worked out at compile time from each
// instance's required_bits: remove_component walks this list at run time
// instead of visiting every system through a lambda compiled per system
// and per component (compile time). World: system_count, instance<I>().
template <std::size_t Count>
struct system_id_list {
  std::array<std::uint32_t, Count> ids{};
  std::size_t count = 0;
};
template <typename World, std::size_t I>
using instance_type_of = std::remove_cvref_t<
    decltype(std::declval<World&>().template instance<I>())>;
template <std::size_t Bit, typename World, std::size_t... I>
constexpr auto make_systems_requiring(std::index_sequence<I...>) {
  system_id_list<sizeof...(I)> list;
  ((instance_type_of<World, I>::required_bits.test(Bit)
        ? void(list.ids[list.count++] = static_cast<std::uint32_t>(I))
        : void()),
   ...);
  return list;
}
template <std::size_t Bit, typename World>
inline constexpr auto systems_requiring = make_systems_requiring<Bit, World>(
    std::make_index_sequence<World::system_count>{});

// remove_component: `id` departs from every system whose required
// components include the component with bit `Bit`. The departure is applied
// at the system's next look at its subscription (system_instance.h), so an
// add of the same component before that cancels it. World: also
// subscription(system id).
template <std::size_t Bit, typename World>
void depart_systems_requiring(World& world, entity_id id) {
  constexpr const auto& systems = systems_requiring<Bit, World>;
  const auto index = static_cast<std::uint32_t>(id.index());
  for (std::size_t k = 0; k < systems.count; ++k) {
    world.subscription(systems.ids[k]).note_departure(index);
  }
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SUBSCRIPTION_H_
