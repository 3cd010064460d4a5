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
#include <exception>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "context/deferred_queue.h"
#include "context/internal/change_stamps.h"
#include "context/internal/effect_channel.h"
#include "context/internal/instance_runtime.h"
#include "context/internal/ordered_sequence.h"
#include "context/internal/subscription.h"
#include "context/run_options.h"
#include "context/trace.h"
#include "entity/entity_id.h"
#include "meta/tag.h"
#include "meta/type_list.h"
#include "scheduler/hand_off.h"
#include "scheduler/inner_parallelism.h"
#include "scheduler/system_signature.h"
#include "sparse_set/ordered_index_set.h"
#include "threading/executor.h"

namespace strata {

// Arguments for constructing one system in make_context().
template <typename System, typename... Args>
struct system_arguments_t {
  using system_type = System;
  std::tuple<Args...> arguments;
};

template <tag_value System, typename... Args>
constexpr auto system_arguments(System, Args&&... args) {
  return system_arguments_t<tag_type<System>, std::decay_t<Args>...>{
      {std::forward<Args>(args)...}};
}

template <typename T>
inline constexpr bool is_system_arguments_v = false;
template <typename S, typename... A>
inline constexpr bool is_system_arguments_v<system_arguments_t<S, A...>> = true;

// make_context(settings, strata::run_on(jobs)): the context runs its tasks
// on an engine's job system (threading/executor.h) and starts no threads of
// its own. It then has jobs.concurrency() + 1 threads (the caller's
// included), whatever threads(n) says. `jobs` must outlive the context.
struct run_on_t {
  executor* external;
};
inline run_on_t run_on(executor& jobs) { return {&jobs}; }

// What make_context accepts after the settings: system arguments, an
// executor, run options (context/run_options.h).
template <typename T>
inline constexpr bool is_context_argument_v =
    is_system_arguments_v<T> || std::is_same_v<T, run_on_t> ||
    std::is_same_v<T, run_options>;

namespace context_internal {

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

// The entities a system is subscribed to, as ids: a view over the
// subscription's indices and the entity storage that names them. Ascending
// index order; size() and contains() are O(1).
template <typename EntityStorage>
class subscription_view {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = entity_id;
    using difference_type = std::ptrdiff_t;
    using pointer = const entity_id*;
    using reference = entity_id;

    iterator() = default;
    iterator(ordered_index_set::const_iterator at,
             const EntityStorage* entities)
        : at_(at), entities_(entities) {}
    entity_id operator*() const { return entities_->live_id_at(*at_); }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++at_;
      return before;
    }
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.at_ == b.at_;
    }

   private:
    ordered_index_set::const_iterator at_;
    const EntityStorage* entities_ = nullptr;
  };

  subscription_view(const ordered_index_set& indices,
                    const EntityStorage& entities)
      : indices_(&indices), entities_(&entities) {}

  std::size_t size() const noexcept { return indices_->size(); }
  bool empty() const noexcept { return indices_->empty(); }
  // True for the exact live id (a stale id of a subscribed index is not).
  bool contains(entity_id id) const {
    return entities_->alive(id) && indices_->contains(id.index());
  }
  // The entity of rank `rank` (0 = lowest index): O(blocks + 64).
  entity_id operator[](std::size_t rank) const {
    const ordered_index_set::position at = indices_->position_of_rank(rank);
    return entities_->live_id_at(at.word * ordered_index_set::word_bits +
                                 at.bit);
  }
  iterator begin() const { return {indices_->begin(), entities_}; }
  iterator end() const { return {indices_->end(), entities_}; }
  const ordered_index_set& indices() const noexcept { return *indices_; }

 private:
  const ordered_index_set* indices_;
  const EntityStorage* entities_;
};

// On a cache line of its own: subtasks running on different threads write
// their states at the same time.
template <typename DeferProxy, typename Output, bool Trace,
          typename Outboxes = context_internal::no_outboxes>
struct alignas(64) subtask_state {
  std::vector<entity_id> to_kill;
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
}  // namespace context_internal

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
                     context_internal::hooks_of<system_type>(), entities),
        system_(std::forward<Args>(args)...) {}

  system_instance(const system_instance&) = delete;
  system_instance& operator=(const system_instance&) = delete;

  system_type& system() noexcept { return system_; }
  const system_type& system() const noexcept { return system_; }
  runtime_type& runtime() noexcept { return *this; }

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
