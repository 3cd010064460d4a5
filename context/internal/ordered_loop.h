// Internal to //context: how a system declared .ordered_by(ct::x, compare)
// (scheduler/system_signature.h) visits its entities.
//
// Before the system's subtasks start, the thread running it brings the
// system's ordered_sequence (internal/ordered_sequence.h) to the
// subscription and keys of now (update_order): the order reflects every
// write of x before the run, earlier systems of the same step included; no
// other system writes x while the run lasts (the race check: the system
// reads x). A write of x by the system itself is seen by its next run.
//
// The subtasks take their slices [begin, end) of the run as positions in
// the order, contiguous chunks of it, so each entity is visited by one
// subtask (its T& writes stay race-free) and the visiting order, hence the
// order of deferred functions, does not depend on the split.
//
// Cost: the update is one key comparison per entity plus the sort of the
// entities whose key changed or that joined, and a merge when any did
// (//benchmarks:order_benchmark); the loop reaches components by index in
// the order's sequence, a gather rather than a run of consecutive indices.
#ifndef STRATA_CONTEXT_INTERNAL_ORDERED_LOOP_H_
#define STRATA_CONTEXT_INTERNAL_ORDERED_LOOP_H_

#include <cstddef>
#include <exception>

#include "context/internal/for_each.h"
#include "context/internal/ordered_sequence.h"
#include "meta/diagnostic.h"

namespace strata::diagnostic {

// The effect channel orders a step's messages by sender index, which a
// system that visits in another order cannot keep.
template <typename System, typename Message>
inline constexpr bool send_in_ordered_system = [] {
  static_assert(always_false<System, Message>,
                "data.send in a system declared ordered_by(): messages are "
                "ordered by sender index, and this system visits its "
                "entities in key order; send from a system without "
                "ordered_by() (system and message type are named above)");
  return false;
}();

}  // namespace strata::diagnostic

namespace strata::context_internal {

// Brings `instance`'s order to its subscription and keys.
template <typename Core, typename Instance>
void update_order(Core& core, Instance& instance) {
  using key_type = typename Instance::signature_type::order_component_type;
  const auto& entities = core.entities();
  auto& components = core.components();
  instance.order.update(
      instance.subscribed().indices(),
      [&](std::size_t index) -> const key_type& {
        return components.template get<key_type>(entities.live_id_at(index));
      });
}

// f(index) for positions [begin, end) of the order.
template <typename Sequence, typename F>
void for_ordered_slice(const Sequence& order, std::size_t begin,
                       std::size_t end, F&& f) {
  const auto entries = order.entries();
  for (std::size_t at = begin; at < end; ++at) f(entries[at].index);
}

// for_each's loop in component order (as loop_ranks, for_each.h).
template <bool TakesId, typename Sequence, typename Entities, typename F,
          typename Filter, std::size_t W, typename... Access>
void loop_ordered(const Sequence& order, std::size_t begin, std::size_t end,
                  const Entities& entities, F& f, const Filter& filter,
                  write_log<W>& stamps, const Access&... access) {
  std::exception_ptr first;
  continuing_call<F> call{f, first};
  for_ordered_slice(order, begin, end, [&](std::size_t i) {
    if (!filter(i)) return;
    stamps.at_index(i);
    call_at<TakesId>(entities, i, call, access...);
  });
  stamps.flush();
  if (first) std::rethrow_exception(first);
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_ORDERED_LOOP_H_
