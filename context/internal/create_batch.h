// Internal to //context: create_entities(n, f), the batch creation of the
// step and defer proxies (context/step_proxy.h).
//
// n entities, each with components Ts (value-initialized, then filled by
// f(id, Ts&...)), noted as one batch for the refresh, which matches the
// batch's components once per system instead of once per entity and system
// (internal/match_phase.h). Subscribe events, when observed (an observer,
// an on_subscribe hook), come in the order entities were queued: then each
// entity is queued on its own. Per entity the work is what creation must
// do: take an id, construct the components in place, set their bits; the
// per-type counts are added once for the batch, and no entity is tested
// for a component to replace (it has none).
//
// `or_null` (deferred functions): a full fixed limit refuses the rest of
// the batch, counted as refused creations, instead of check-failing. An
// entity whose constructor or f throws keeps the components it got so far
// (with their bits and counts), and is matched on its own.
#ifndef STRATA_CONTEXT_INTERNAL_CREATE_BATCH_H_
#define STRATA_CONTEXT_INTERNAL_CREATE_BATCH_H_

#include <array>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "context/internal/subscription_events.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

// The per-type counts of a batch's components, added to the storage's
// counts when the batch ends, however it ends.
template <typename ComponentStorage, typename... Ts>
class batch_counts {
 public:
  explicit batch_counts(ComponentStorage& components)
      : components_(components) {}
  batch_counts(const batch_counts&) = delete;
  batch_counts& operator=(const batch_counts&) = delete;
  ~batch_counts() {
    std::size_t k = 0;
    (components_.template count_new<Ts>(made_[k++]), ...);
  }
  std::size_t& of(std::size_t k) noexcept { return made_[k]; }

 private:
  ComponentStorage& components_;
  std::array<std::size_t, sizeof...(Ts)> made_{};
};

// Core: a context_core (internal/core.h).
// Returns how many entities it made (n unless `or_null` refused some).
template <typename... Ts, typename Core, typename Fill>
std::size_t create_batch(Core& core, std::size_t n, bool or_null, Fill& fill) {
  using bitset_type = typename Core::bitset_type;
  using component_list = typename Core::component_list;
  static constexpr bitset_type bits = [] {
    bitset_type b;
    (b.set(component_list::template id_of<Ts>()), ...);
    return b;
  }();
  auto& entities = core.entities();
  auto& components = core.components();
  auto& queue = core.refresh_queue();
  const bool batch = !observes_subscriptions(core);
  if (batch) queue.begin_batch(bits);
  batch_counts<std::remove_reference_t<decltype(components)>, Ts...> counts(
      components);
  // T's component of `id`, counted.
  const auto add = [&]<typename T>(std::type_identity<T>, entity_id id,
                                   bitset_type& own_bits,
                                   std::size_t& made) -> T& {
    core.changes().template note_add<T>(id.index(), false);
    T& component = components.template add_new<T>(id, own_bits);
    ++made;
    return component;
  };
  for (std::size_t i = 0; i < n; ++i) {
    entity_id id;
    if (or_null) {
      std::optional<entity_id> created = entities.try_create();
      if (!created.has_value()) {
        core.note_refused_creations(n - i);
        return i;
      }
      id = *created;
    } else {
      id = entities.create();
    }
    if (batch) {
      queue.note_created_in_batch(entities, id);
    } else {
      queue.note_created(entities, id);
    }
    auto& own_bits = entities.metadata_at(id.index()).components;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      fill(id, add(std::type_identity<Ts>{}, id, own_bits, counts.of(K))...);
    }
    (std::index_sequence_for<Ts...>{});
  }
  return n;
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_CREATE_BATCH_H_
