// Internal to //context: the types a system instance
// (context/system_instance.h) is built from, apart from the system's own:
// the per-subtask state, the runtime base it derives from
// (internal/instance_runtime.h), the strategy a signature without
// .parallelism(...) gets, and the rule's component bits.
#ifndef STRATA_CONTEXT_INTERNAL_SYSTEM_INSTANCE_PARTS_H_
#define STRATA_CONTEXT_INTERNAL_SYSTEM_INSTANCE_PARTS_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <vector>

#include "base/internal/trivial_vector.h"
#include "context/deferred_queue.h"
#include "context/internal/effect_channel.h"
#include "context/internal/instance_runtime.h"
#include "context/trace.h"
#include "entity/entity_id.h"
#include "meta/type_list.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/system_signature.h"

namespace strata::context_internal {

// The bitset with the bits of the given components. A component no
// signature stores adds none: the settings reported it
// (system_component_not_stored), and that report stays the only error.
template <typename Bitset, typename ComponentList, typename... Components>
constexpr Bitset bits_of(type_list<Components...>) {
  Bitset bits;
  (
      [&] {
        if constexpr (ComponentList::template stores<Components>) {
          bits.set(ComponentList::template id_of<Components>());
        }
      }(),
      ...);
  return bits;
}

// A signature without .parallelism(...) splits automatically.
template <typename Strategy>
using effective_strategy =
    std::conditional_t<std::is_same_v<Strategy, default_parallelism>,
                       inner_parallelism::automatic_t, Strategy>;

struct no_trace_span {};

// On a cache line of its own: subtasks running on different threads write
// their states at the same time.
template <typename DeferProxy, typename Output, bool Trace,
          typename Outboxes = context_internal::no_outboxes>
struct alignas(64) subtask_state {
  base_internal::trivial_vector<entity_id> to_kill;
  deferred_queue<DeferProxy> deferred;
  [[no_unique_address]] Output output{};
  std::size_t begin = 0;  // slice of the subscribed set, by rank: [begin, end)
  std::size_t end = 0;
  std::exception_ptr error;     // what the subtask threw in the latest run
  std::int64_t elapsed_ns = 0;  // how long it ran (when measured)
  [[no_unique_address]] std::conditional_t<Trace, trace_span, no_trace_span>
      span;
  // The messages this subtask sent (internal/effect_channel.h; empty for a
  // system that sends none).
  [[no_unique_address]] Outboxes outboxes;
};

// The runtime base of system I's instance (internal/instance_runtime.h).
template <typename Types, std::size_t I>
using runtime_of = instance_runtime<
    typename Types::entity_storage_type,
    effective_strategy<typename Types::system_list::template signature_at<
        I>::parallelism_type>,
    subtask_state<
        typename Types::defer_proxy_type,
        typename Types::system_list::template signature_at<I>::output_type,
        Types::trace_enabled,
        typename outboxes_for<typename Types::system_list::
                                  template signature_at<I>::sent_types>::type>>;

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SYSTEM_INSTANCE_PARTS_H_
