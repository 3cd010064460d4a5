// The refresh: how the structural changes of a step take effect (seed 003).
//
//   refresh_queue<EntityStorage, ComponentStorage> queue;
//   queue.queue_kill(entities, id);     // during the step: mark dead
//   queue.queue_match(entities, id);    // during the step: created / changed
//   queue.run(world, defer_proxy, parallel);  // after the step
//
// A step may create and kill entities and add and remove components; the
// refresh, run once after the step's function returns, makes those changes
// visible to systems in three named phases:
//   1. run_deferred: every deferred function of every subtask state, in
//      system id, subtask, then deferral order, sequentially, through the
//      defer proxy (where critical operations are allowed, so they may queue
//      more kills and matches). The first exception is kept; later deferred
//      functions do not run; the other phases still do.
//   2. apply_kills: every entity marked dead in the step (by a critical
//      proxy, or by a subtask: its kill list is gathered here) is
//      unsubscribed from every system, its components destroyed, and its id
//      reclaimed (the version bumps, so old ids and handles turn stale).
//      Kills are applied in entity-index order, so the result does not depend
//      on how systems were split into subtasks.
//   3. apply_matches: every entity created or given or stripped of a
//      component in the step is subscribed to each system whose required
//      components it has, and unsubscribed from the others.
// Phases 2 and 3 visit systems in parallel when asked (each system's
// subscribed set is touched by one thread; entity and component storage are
// only read there).
//
// Subscriptions call the system's optional hooks `on_subscribe(entity_id)`
// and `on_unsubscribe(entity_id)` when membership actually changes.
// leave_systems_requiring<bit of T>(world, id) takes an entity out of every system
// that needs T at once: remove_component uses it so that no system ever sees
// a subscribed entity without its required components.
//
// The World a phase runs on provides:
//   entities()                    the basic_entity_storage, whose metadata
//                                 `extra` is an entity_refresh_flags;
//   components()                  the component_storage;
//   for_each_instance(f, parallel) f(instance) for every system instance
//                                 (system_instance.h), maybe in parallel.
//
// Complexity: phase 1 O(deferred functions); phase 2 O(kills * systems with
// entities) plus the sort of kills when they are out of index order; phase 3
// O(matches * systems). queue_* are O(1) amortized: the per-entity flags keep
// each entity queued at most once per step. The queues keep their capacity,
// so a steady state allocates nothing.
//
// Thread-safety: queue_* and the phases are called by one thread at a time
// (the context's), never while systems run.
#ifndef STRATA_CONTEXT_REFRESH_H_
#define STRATA_CONTEXT_REFRESH_H_

#include <algorithm>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include "entity/entity_id.h"

namespace strata {

// Per-entity flags the refresh keeps in entity metadata (reset on reclaim).
struct entity_refresh_flags {
  bool pending_kill = false;
  bool pending_match = false;
  friend constexpr bool operator==(entity_refresh_flags,
                                   entity_refresh_flags) = default;
};

namespace refresh_internal {

template <typename Instance>
void subscribe(Instance& instance, entity_id id) {
  if (instance.mutable_subscribed().insert(id)) {
    if constexpr (requires { instance.system().on_subscribe(id); }) {
      instance.system().on_subscribe(id);
    }
  }
}

template <typename Instance>
void unsubscribe(Instance& instance, entity_id id) {
  if (instance.mutable_subscribed().erase(id)) {
    if constexpr (requires { instance.system().on_unsubscribe(id); }) {
      instance.system().on_unsubscribe(id);
    }
  }
}

}  // namespace refresh_internal

// Takes `id` out of every system whose required components include the
// component with bit `Bit`, at once.
template <std::size_t Bit, typename World>
void leave_systems_requiring(World& world, entity_id id) {
  world.for_each_instance(
      [&](auto& instance) {
        using instance_type = std::remove_cvref_t<decltype(instance)>;
        if constexpr (instance_type::required_bits.test(Bit)) {
          refresh_internal::unsubscribe(instance, id);
        }
      },
      /*parallel=*/false);
}

template <typename EntityStorage, typename ComponentStorage>
class refresh_queue {
 public:
  // Queues `id` for matching at the refresh (once per step).
  void queue_match(EntityStorage& entities, entity_id id) {
    auto& flags = entities.metadata(id).extra;
    if (!flags.pending_match) {
      flags.pending_match = true;
      to_match_.push_back(id);
    }
  }

  // Marks `id` dead; false if it is not alive or already marked.
  bool queue_kill(EntityStorage& entities, entity_id id) {
    if (!entities.alive(id)) return false;
    auto& flags = entities.metadata(id).extra;
    if (flags.pending_kill) return false;
    flags.pending_kill = true;
    to_kill_.push_back(id);
    return true;
  }

  // The three phases in order; rethrows the first exception of a deferred
  // function after all of them ran.
  template <typename World, typename DeferProxy>
  void run(World& world, DeferProxy& proxy, bool parallel) {
    const std::exception_ptr failure = run_deferred(world, proxy);
    apply_kills(world, parallel);
    apply_matches(world, parallel);
    if (failure) std::rethrow_exception(failure);
  }

  // Phase 1. Returns the first exception a deferred function threw.
  template <typename World, typename DeferProxy>
  std::exception_ptr run_deferred(World& world, DeferProxy& proxy) {
    std::exception_ptr failure;
    world.for_each_instance(
        [&](auto& instance) {
          for (std::size_t s = 0; s < instance.state_count(); ++s) {
            auto& state = instance.state(s);
            for (auto& deferred : state.deferred) {
              if (failure) break;
              try {
                deferred(proxy);
              } catch (...) {
                failure = std::current_exception();
              }
            }
            state.deferred.clear();
          }
        },
        /*parallel=*/false);
    return failure;
  }

  // Phase 2.
  template <typename World>
  void apply_kills(World& world, bool parallel) {
    gather_subtask_kills(world);
    if (to_kill_.empty()) return;
    sort_kills_by_index();
    world.for_each_instance(
        [&](auto& instance) {
          if (instance.entity_count() == 0) return;
          for (entity_id id : to_kill_) {
            refresh_internal::unsubscribe(instance, id);
          }
        },
        parallel);
    auto& entities = world.entities();
    for (entity_id id : to_kill_) {
      world.components().remove_all(id, entities.bits(id));
      entities.reclaim(id);
    }
    to_kill_.clear();
  }

  // Phase 3.
  template <typename World>
  void apply_matches(World& world, bool parallel) {
    if (to_match_.empty()) return;
    auto& entities = world.entities();
    world.for_each_instance(
        [&](auto& instance) {
          using instance_type = std::remove_cvref_t<decltype(instance)>;
          for (entity_id id : to_match_) {
            if (!entities.alive(id)) continue;
            if (entities.bits(id).contains_all(instance_type::required_bits)) {
              refresh_internal::subscribe(instance, id);
            } else {
              refresh_internal::unsubscribe(instance, id);
            }
          }
        },
        parallel);
    for (entity_id id : to_match_) {
      if (entities.alive(id)) entities.metadata(id).extra.pending_match = false;
    }
    to_match_.clear();
  }

  std::size_t pending_kills() const noexcept { return to_kill_.size(); }
  std::size_t pending_matches() const noexcept { return to_match_.size(); }

 private:
  // Kills requested by subtasks join the step's own.
  template <typename World>
  void gather_subtask_kills(World& world) {
    auto& entities = world.entities();
    world.for_each_instance(
        [&](auto& instance) {
          for (std::size_t s = 0; s < instance.state_count(); ++s) {
            auto& state = instance.state(s);
            for (entity_id id : state.to_kill) queue_kill(entities, id);
            state.to_kill.clear();
          }
        },
        /*parallel=*/false);
  }

  // Kills usually arrive in index order already (a pass over a system's
  // entities, or over ids created in a row): check before sorting, since
  // introsort costs O(n log n) even on sorted input.
  void sort_kills_by_index() {
    const auto by_index = [](entity_id a, entity_id b) {
      return a.index() < b.index();
    };
    if (!std::is_sorted(to_kill_.begin(), to_kill_.end(), by_index)) {
      std::sort(to_kill_.begin(), to_kill_.end(), by_index);
    }
  }

  std::vector<entity_id> to_kill_;
  std::vector<entity_id> to_match_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_REFRESH_H_
