// A system instance: the user's system object plus what the context keeps
// for it.
//
// * the system object, constructed in place (default-constructed, or from
//   arguments given to make_context with strata::system_arguments);
// * the subscribed entities: an ordered_index_set of entity indices, kept
//   by the refresh (entities whose component bitset contains
//   `required_bits` and none of `excluded_bits`), visited in ascending index
//   order, so a system sees its entities in the same order under every
//   scheduler, thread count and history of adds and removes. A removed
//   required component is noted as a departure and applied at the next look
//   at the subscription (subscribed(), subscribed_count(), a run): if the
//   component is back by then, the entity never left;
// * per-subtask states: entities to kill, deferred functions, and the
//   subtask's output when the signature declares one. States are reused from
//   step to step (cleared, capacity kept), so a steady state allocates
//   nothing.
//
// Outputs are reset before each run of the system: `clear()` when the output
// type has one (keeping a vector's capacity), otherwise assignment from a
// value-initialized object. `for_outputs(f)` visits the outputs of the
// subtasks of the latest run, in subtask order (for a detailed_instance
// callable that called for_subtasks more than once: pass by pass).
//
// Thread-safety: during a run each subtask touches only its own state; the
// instance itself is only mutated by the context outside system execution
// (the context settles every instance's departures before systems run, so
// looks during a run only read).
#ifndef STRATA_CONTEXT_SYSTEM_INSTANCE_H_
#define STRATA_CONTEXT_SYSTEM_INSTANCE_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "context/internal/change_stamps.h"
#include "context/internal/effect_channel.h"
#include "context/internal/instance_runtime.h"
#include "context/internal/ordered_sequence.h"
#include "context/internal/subscription.h"
#include "context/internal/subscription_view.h"
#include "context/internal/system_instance_parts.h"
#include "context/trace.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/system_signature.h"

namespace strata {

template <typename Types, std::size_t I>
class system_instance : public context_internal::runtime_of<Types, I> {
 public:
  using signature_type = typename Types::system_list::template signature_at<I>;
  using system_type = typename signature_type::system_type;
  using output_type = typename signature_type::output_type;
  using bitset_type = typename Types::bitset_type;
  using entity_storage_type = typename Types::entity_storage_type;
  // What running the system works on (internal/instance_runtime.h): shared
  // by the systems with the same strategy and state types.
  using runtime_type = context_internal::runtime_of<Types, I>;
  using state_type = typename runtime_type::state_type;
  using strategy_type = typename runtime_type::strategy_type;
  using subscription_type = typename runtime_type::subscription_type;
  static constexpr std::size_t id = I;
  // The change filter's window (internal/change_stamps.h): this run
  // visits stamps in (change_since, change_seen], change_seen being its
  // own stamp. Set when the run starts, before its subtasks.
  std::uint64_t change_since = 0;
  std::uint64_t change_seen = 0;
  // The entity ranges written or added in that window, sorted and
  // disjoint (empty without a change filter).
  std::vector<context_internal::index_range> changed_ranges;
  // The depth level a run in hierarchy order visits now (0 for others):
  // set between passes, before their subtasks (internal/hierarchy_loop.h).
  std::size_t hierarchy_level = 0;
  // The order of a system declared .ordered_by(ct::x): brought up to date
  // before each run's subtasks (internal/ordered_loop.h); empty otherwise.
  [[no_unique_address]] context_internal::ordered_sequence_for<signature_type>
      order;
  static constexpr bool has_output = signature_type::has_output;
  // Its subscription hooks (a constant: evaluated once, not a function
  // compiled per system).
  static constexpr context_internal::subscription_hooks declared_hooks =
      context_internal::hooks_of<system_type>();

  static_assert(has_output ? std::is_default_constructible_v<output_type>
                           : true,
                "a system output type must be default-constructible (it is "
                "reset before every run)");

  // Components an entity must have (read() and write()), and must not have
  // (exclude()), to be the system's. The subscription holds them as
  // run-time data too (its rule).
  static constexpr bitset_type required_bits =
      context_internal::bits_of<bitset_type, typename Types::component_list>(
          typename signature_type::required_types{});
  static constexpr bitset_type excluded_bits =
      context_internal::bits_of<bitset_type, typename Types::component_list>(
          typename signature_type::excluded_types{});

  template <typename... Args>
  system_instance(const signature_type& signature,
                  const entity_storage_type& entities, Args&&... args)
      : runtime_type(make_strategy(signature), I, required_bits, excluded_bits,
                     declared_hooks, entities),
        system_(std::forward<Args>(args)...) {}

  system_instance(const system_instance&) = delete;
  system_instance& operator=(const system_instance&) = delete;

  system_type& system() noexcept { return system_; }
  const system_type& system() const noexcept { return system_; }

  // The subscribed entities, as ids (subscribed().indices(): as indices).
  // Departures noted since the last look are applied first.
  context_internal::subscription_view<entity_storage_type> subscribed() const {
    const subscription_type& subscription = this->subscription();
    return {subscription.subscribed_indices(), subscription.entities()};
  }

  // f(system&, output&) for every subtask output of the latest run.
  template <typename F>
  void for_outputs(F&& f) {
    static_assert(has_output,
                  "for_outputs: this system's signature declares no output "
                  "(add .output<T>())");
    auto* states = this->run_states();
    for (std::size_t i = 0; i < this->run_state_count(); ++i)
      f(system_, states[i].output);
  }

  // The messages of each received type, gathered before each run
  // (internal/effect_channel.h; empty for a system that receives none).
  [[no_unique_address]] typename context_internal::inboxes_for<
      typename signature_type::received_types>::type inboxes;

  // The whole run of the system (tracing only).
  [[no_unique_address]] std::conditional_t<Types::trace_enabled, trace_span,
                                           context_internal::no_trace_span>
      run_span;

 private:
  static strategy_type make_strategy(const signature_type& signature) {
    if constexpr (std::is_same_v<typename signature_type::parallelism_type,
                                 default_parallelism>) {
      return inner_parallelism::automatic();
    } else {
      static_assert(
          inner_parallelism_strategy<strategy_type>,
          "system_signature::make(...).parallelism(s): s is not an inner "
          "parallelism strategy (it needs "
          "subtasks(entities, threads) const)");
      return signature.parallelism_strategy();
    }
  }

  system_type system_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_SYSTEM_INSTANCE_H_
