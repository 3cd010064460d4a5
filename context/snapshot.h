// Snapshots: a copy of a context's world kept in memory, to restore later
// (rollback netcode, undo, "try this step and go back").
//
//   auto saved = ctx.snapshot();   // between steps
//   ctx.step(...); ctx.step(...);
//   ctx.restore(saved);            // the world is as it was
//   ctx.snapshot_into(saved);      // reuses saved's memory: once warm, no
//                                  // allocation (a ring of snapshots per
//                                  // frame costs copies, not allocations)
//
// What a snapshot holds (the world): the entity storage whole (every id
// slot with its version, the free list, so the ids handed out after a
// restore are the ones handed out the first time), every component of
// every live entity, every system's subscription (its members, so that the
// systems see the same entities in the same order), and the resources.
// Resources belong: systems write them (a random generator's seed, a
// score, the simulated time), so a rollback that kept the present values
// would not re-simulate the same steps.
// It also holds the step count and the change filters' state (every
// tracked component's change log and every system's window,
// context/internal/change_stamps.h), so that a system with changed() or
// added() sees after a restore what it saw the first time.
// What it does not hold: the systems' own members (keep state that must
// roll back in components or resources), the observer, the trace and the
// scheduler's measured costs (they decide where work runs, never what it
// computes), and no effect channel messages (context/effect_channel.h):
// messages end at the refresh of the step that sent them, and snapshots
// are taken between steps, so there are none to hold.
//
// Restoring makes every later step bit-identical to the steps that
// followed the snapshot the first time, at any thread count and under
// either scheduler (the state is the same bits; context/state_hash.h
// fingerprints it). Ids and handles taken before the snapshot are valid
// after a restore exactly when they were valid at the snapshot.
//
// Copies. A contiguous chunk (SoA or AoS) whose components are all
// trivially copyable is copied as an image of its memory: each column's
// bytes for the entity slots in use, and its live flags, with memcpy, and
// memcpy'd back (contiguous_buffer_chunk.h: copy_image / assign_image).
// Every other chunk (sparse, hash_map, empty, user chunks, or components
// that are not trivially copyable) is captured component by component,
// type by type in the component list's order, each type's in entity-index
// order, with the copy constructor, and put back through the chunk's
// create, so each storage restores through the code that stores it.
// Resources are copy-assigned. Cost: O(entity slots × (image bytes per
// slot + component types not imaged) + their live components + systems ×
// subscription words).
//
// Memory: a snapshot owns vectors sized to the world it last held. In a
// steady state (a world that no longer grows) snapshot_into and restore
// allocate nothing, for components whose copy does not allocate, with one
// exception: an absl::flat_hash_map larger than 127 slots frees its table
// on clear(), so a restore of a hash_map chunk that large allocates it
// again.
//
// Misuse: snapshot, snapshot_into and restore run between steps (never in
// a step or from a system: a proxy does not offer them). restore of an
// empty (default-constructed) snapshot check-fails. If a component's copy
// constructor throws during restore, the context is left with no entities
// (every subscription empty) and the exception propagates; a throwing copy
// in snapshot_into leaves the snapshot empty.
//
// Thread-safety: a snapshot is a value; one per thread, or external
// synchronization. Snapshots of a context are restored only into that
// context (or another context of the same settings type).
#ifndef STRATA_CONTEXT_SNAPSHOT_H_
#define STRATA_CONTEXT_SNAPSHOT_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/internal/owned_ptr.h"
#include "base/internal/standard_parts.h"
#include "context/hierarchy.h"
#include "context/internal/change_stamps.h"
#include "context/internal/hierarchy_storage.h"
#include "context/internal/world_common.h"
#include "context/resources.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"
#include "sparse_set/ordered_index_set.h"

namespace strata {

template <typename Settings>
class context;

namespace diagnostic {

template <typename Component>
inline constexpr bool snapshot_of_uncopyable_type = [] {
  static_assert(always_false<Component>,
                "ctx.snapshot(): a snapshot copies every component and "
                "resource, and this type (named above) is not "
                "copy-constructible and copy-assignable; make it copyable or "
                "keep it out of the context");
  return false;
}();

}  // namespace diagnostic

template <typename Types>
class world_snapshot {
  using entity_storage_type = typename Types::entity_storage_type;
  using component_list = typename Types::component_list;
  using component_types = typename component_list::component_types;
  using signature_types = typename component_list::signature_types;
  static constexpr std::size_t component_count = size_v<component_types>;
  static constexpr std::size_t signature_count = size_v<signature_types>;
  // The chunk that stores signature S's components.
  template <std::size_t S>
  using chunk_of = typename Types::component_storage_type::template chunk_type<
      type_at_t<0, typename type_at_t<S, signature_types>::component_types>>;
  // Whether the chunk is copied as an image of its memory (contiguous
  // chunks of trivially copyable components), not component by component.
  template <typename Chunk>
  static constexpr bool imaged = requires {
    requires Chunk::has_image;
  };
  template <std::size_t K>
  static constexpr bool component_imaged =
      imaged<typename Types::component_storage_type::template chunk_type<
          type_at_t<K, component_types>>>;
  using resource_types = typename context_internal::resource_types_of<
      typename Types::resource_storage_type>::type;
  static constexpr std::size_t system_count = Types::system_count;

 public:
  // Empty: holds no world until a context's snapshot_into fills it.
  world_snapshot() = default;
  world_snapshot(world_snapshot&&) noexcept = default;
  world_snapshot& operator=(world_snapshot&&) noexcept = default;
  world_snapshot(const world_snapshot& other) { *this = other; }
  world_snapshot& operator=(const world_snapshot& other) {
    if (this == &other) return *this;
    if (other.entities_ == nullptr) {
      entities_.reset();
    } else if (entities_ == nullptr) {
      entities_ =
          base_internal::make_owned<entity_storage_type>(*other.entities_);
    } else {
      *entities_ = *other.entities_;
    }
    values_ = other.values_;
    images_ = other.images_;
    image_slots_ = other.image_slots_;
    counts_ = other.counts_;
    has_images_ = other.has_images_;
    members_ = other.members_;
    resources_ = other.resources_;
    changes_ = other.changes_;
    windows_ = other.windows_;
    step_count_ = other.step_count_;
    has_change_state_ = other.has_change_state_;
    hierarchy_ = other.hierarchy_;
    return *this;
  }

  bool empty() const noexcept { return entities_ == nullptr; }
  // Live entities in the snapshot's world.
  std::size_t entity_count() const noexcept {
    return entities_ == nullptr ? 0 : entities_->size();
  }

 private:
  template <typename Settings>
  friend class context;
  template <typename>
  friend struct context_internal::world_io;

  template <typename Core>
  void capture(Core& core) {
    check_copyable(concat_t<component_types, resource_types>{});
    try {
      if (entities_ == nullptr) {
        entities_ =
            base_internal::make_owned<entity_storage_type>(core.entities());
      } else {
        *entities_ = core.entities();
      }
      capture_images(core, std::make_index_sequence<signature_count>{});
      capture_components(core, std::make_index_sequence<component_count>{});
      has_images_ = true;
      for (std::size_t s = 0; s < system_count; ++s) {
        members_[s] = core.subscription(s).subscribed_indices();
      }
      resources_ = core.resources();
      changes_ = core.changes();
      capture_windows(core, std::make_index_sequence<system_count>{});
      step_count_ = core.step_count();
      has_change_state_ = true;
      if constexpr (Types::has_hierarchy) {
        hierarchy_ = core.hierarchy().storage;
      }
    } catch (...) {
      entities_.reset();
      throw;
    }
  }

  template <typename Core>
  void restore_into(Core& core) const {
    STRATA_CHECK(entities_ != nullptr,
                 "ctx.restore(snapshot): the snapshot is empty (fill it with "
                 "ctx.snapshot() or ctx.snapshot_into() first)");
    core.components().clear();
    core.entities() = *entities_;
    try {
      if (has_images_) {
        restore_images(core, std::make_index_sequence<signature_count>{});
      }
      restore_components(core, std::make_index_sequence<component_count>{});
    } catch (...) {
      core.components().clear();
      core.entities() = entity_storage_type{};
      for (std::size_t s = 0; s < system_count; ++s) {
        core.subscription(s).raw_subscribed_indices().clear();
        core.subscription(s).finish_refresh();
      }
      throw;
    }
    for (std::size_t s = 0; s < system_count; ++s) {
      core.subscription(s).raw_subscribed_indices() = members_[s];
      core.subscription(s).finish_refresh();
    }
    core.resources() = resources_;
    if constexpr (Types::has_hierarchy) {
      core.hierarchy().storage = hierarchy_;
    }
    if (has_change_state_) {
      core.changes() = changes_;
      restore_windows(core, std::make_index_sequence<system_count>{});
      core.restore_step_count(step_count_);
    } else {
      // A world read from a file: its history predates every run here.
      core.changes().forget_stamps();
    }
    // Subscriptions changed size behind the scheduler's back.
    core.policy().forget_decisions();
  }

  template <typename Core, std::size_t... I>
  void capture_windows(Core& core, std::index_sequence<I...>) {
    ((windows_[I] = {core.template instance<I>().change_since,
                     core.template instance<I>().change_seen}),
     ...);
  }
  template <typename Core, std::size_t... I>
  void restore_windows(Core& core, std::index_sequence<I...>) const {
    ((core.template instance<I>().change_since = windows_[I][0],
      core.template instance<I>().change_seen = windows_[I][1]),
     ...);
  }

  template <typename... Ts>
  static constexpr void check_copyable(type_list<Ts...>) {
    (
        [] {
          if constexpr (!std::is_copy_constructible_v<Ts> ||
                        !std::is_copy_assignable_v<Ts>) {
            diagnostic::report(diagnostic::snapshot_of_uncopyable_type<Ts>);
          }
        }(),
        ...);
  }

  // f(index, id) for every live entity that has component K, in index order.
  template <std::size_t K, typename F>
  static void for_each_holder(const entity_storage_type& entities, F&& f) {
    const std::size_t end = entities.end_index();
    for (std::size_t i = 0; i < end; ++i) {
      if (entities.alive_at(i) && entities.metadata_at(i).components.test(K)) {
        f(entities.live_id_at(i));
      }
    }
  }

  template <typename Core, std::size_t... S>
  void capture_images(Core& core, std::index_sequence<S...>) {
    (capture_image<S>(core), ...);
  }
  template <std::size_t S, typename Core>
  void capture_image(Core& core) {
    if constexpr (imaged<chunk_of<S>>) {
      const auto& chunk =
          std::as_const(core.components())
              .template chunk_for<type_at_t<
                  0,
                  typename type_at_t<S, signature_types>::component_types>>();
      const std::size_t n =
          std::min<std::size_t>(core.entities().end_index(), chunk.capacity());
      images_[S].resize(chunk_of<S>::image_bytes(n));
      chunk.copy_image(images_[S].data(), n);
      image_slots_[S] = n;
    }
  }
  template <typename Core, std::size_t... S>
  void restore_images(Core& core, std::index_sequence<S...>) const {
    (restore_image<S>(core), ...);
  }
  template <std::size_t S, typename Core>
  void restore_image(Core& core) const {
    if constexpr (imaged<chunk_of<S>>) {
      core.components()
          .template chunk_for<type_at_t<
              0, typename type_at_t<S, signature_types>::component_types>>()
          .assign_image(images_[S].data(), image_slots_[S]);
    }
  }

  template <typename Core, std::size_t... K>
  void capture_components(Core& core, std::index_sequence<K...>) {
    (capture_component<K>(core), ...);
  }
  template <std::size_t K, typename Core>
  void capture_component(Core& core) {
    using T = type_at_t<K, component_types>;
    auto& values = base_internal::get<K>(values_);
    values.clear();
    counts_[K] = core.components().template count<T>();
    if (component_imaged<K> || counts_[K] == 0) return;
    for_each_holder<K>(core.entities(), [&](auto id) {
      // Every object of an empty type is interchangeable: one is kept.
      if (std::is_empty_v<T> && !values.empty()) return;
      values.push_back(core.components().template get<T>(id));
    });
  }

  template <typename Core, std::size_t... K>
  void restore_components(Core& core, std::index_sequence<K...>) const {
    (restore_component<K>(core), ...);
  }
  template <std::size_t K, typename Core>
  void restore_component(Core& core) const {
    using T = type_at_t<K, component_types>;
    if (component_imaged<K> && has_images_) {
      core.components().template count_new<T>(counts_[K]);
      return;
    }
    const auto& values = base_internal::get<K>(values_);
    if (values.empty()) return;
    std::size_t next = 0;
    auto& components = core.components();
    for_each_holder<K>(core.entities(), [&](auto id) {
      // add_new sets the bit in a scratch bitset: the entity's own bits
      // came back with the entity storage.
      typename Types::bitset_type scratch;
      components.template add_new<T>(id, scratch,
                                     values[std::is_empty_v<T> ? 0 : next]);
      ++next;
    });
    components.template count_new<T>(next);
  }

  base_internal::owned_ptr<entity_storage_type> entities_;
  // Components of chunks without an image, type by type in index order.
  typename context_internal::component_values<component_types>::type values_;
  // Imaged chunks: their memory for slots [0, image_slots_[S]).
  std::array<std::vector<std::byte>, signature_count> images_;
  std::array<std::size_t, signature_count> image_slots_{};
  std::array<std::size_t, component_count> counts_{};
  // Captured from a context (a staging world read by load has none).
  bool has_images_ = false;
  std::array<ordered_index_set, system_count> members_;
  typename Types::resource_storage_type resources_;
  // The change filters' state (captured from a context only).
  context_internal::change_tracking<Types> changes_;
  std::array<std::array<std::uint64_t, 2>, system_count> windows_{};
  std::uint64_t step_count_ = 0;
  bool has_change_state_ = false;
  // The parent/child relation (context/hierarchy.h), when declared.
  [[no_unique_address]] std::conditional_t<Types::has_hierarchy,
                                           context_internal::hierarchy_storage,
                                           context_internal::no_hierarchy>
      hierarchy_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_SNAPSHOT_H_
