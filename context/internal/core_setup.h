// Internal to //context: how a context_core (internal/core.h) is put
// together from its settings and make_context's arguments: the storages'
// initial sizes, the thread count, the scheduler and hand-off policy (the
// settings', or the run options'), the executor given with strata::run_on,
// and each system instance, constructed from its strata::system_arguments
// if any.
#ifndef STRATA_CONTEXT_INTERNAL_CORE_SETUP_H_
#define STRATA_CONTEXT_INTERNAL_CORE_SETUP_H_

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "base/internal/owned_ptr.h"
#include "base/internal/standard_parts.h"
#include "context/context_arguments.h"
#include "context/internal/diagnostics.h"
#include "context/run_options.h"
#include "context/settings.h"
#include "context/system_instance.h"
#include "scheduler/hand_off.h"
#include "threading/executor.h"
#include "threading/thread_pool.h"

namespace strata::context_internal {

// Entities the storages make room for up front. Fixed contiguous buffers
// size themselves; sparse and hash-map chunks hold rare components and
// grow with them.
// The run options (context/run_options.h) are read here, once: each one
// given overrides the settings' value.
template <typename Types>
std::size_t initial_capacity(const typename Types::settings_type& settings,
                             const run_options& options) {
  if constexpr (Types::limit_type::is_fixed) {
    STRATA_CHECK(!options.reserve_entities().has_value(),
                 "run_options().reserve_entities(n): the settings' entity "
                 "limit is fixed and sizes itself; reserve only with "
                 "dynamic_entity_limit()");
    return 0;
  } else {
    return options.reserve_entities().value_or(
        settings.template get<context_keys::entity_limit>().initial_capacity);
  }
}

template <typename Types>
base_internal::owned_ptr<typename Types::entity_storage_type> make_entities(
    const typename Types::settings_type& settings, const run_options& options) {
  using storage = typename Types::entity_storage_type;
  if constexpr (Types::limit_type::is_fixed) {
    return base_internal::make_owned<storage>();
  } else {
    return base_internal::make_owned<storage>(
        initial_capacity<Types>(settings, options));
  }
}

// Threads of the context, the caller's included: an executor's concurrency
// plus one, or threads(n) of the run options, else of the settings (0:
// every hardware thread).
template <typename Types>
std::size_t thread_count_of(const typename Types::settings_type& settings,
                            executor* external, const run_options& options) {
  if (external != nullptr) return external->concurrency() + 1;
  std::size_t n = options.threads().value_or(
      settings.template get<context_keys::threads>());
  if (n == 0) n = std::max<std::size_t>(1, thread_pool::default_worker_count());
  return n;
}

// Whether systems run on the parallel scheduler: the settings' scheduler
// can (atomic_counter) and the run options do not choose the sequential
// one. Asking a sequential context for atomic_counter fails loudly.
template <typename Types>
bool runs_in_parallel(const run_options& options) {
  constexpr bool compiled = Types::scheduler_type::runs_subtasks_in_parallel;
  const scheduler_kind chosen = options.scheduler().value_or(
      compiled ? scheduler_kind::atomic_counter : scheduler_kind::sequential);
  STRATA_CHECK(compiled || chosen == scheduler_kind::sequential,
               "run_options().scheduler(scheduler_kind::atomic_counter): the "
               "settings choose the sequential scheduler, which compiles no "
               "parallel one; choose strata::scheduler::atomic_counter in the "
               "settings to pick either at run time");
  return compiled && chosen == scheduler_kind::atomic_counter;
}

// The hand-off policy: the run options', else the settings'.
template <typename Types>
hand_off_policy hand_off_of(const typename Types::settings_type& settings,
                            const run_options& options) {
  return options.hand_off().value_or(
      settings.template get<context_keys::hand_off>());
}

// The run options among make_context's arguments, or the default ones.
// GCC's -Wmaybe-uninitialized misreads the copy of a run_options made as a
// temporary (`run_options().threads(n)`): an empty std::optional member's
// payload is copied as bytes, and once this is inlined into the context's
// constructor under the sanitizer builds' flags GCC reports those bytes.
// Only engaged members' payloads are ever read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
template <typename... Args>
run_options run_options_in(const Args&... args) {
  run_options found;
  (
      [&](const auto& arg) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(arg)>,
                                     run_options>) {
          found = arg;
        }
      }(args),
      ...);
  return found;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// The executor given with strata::run_on among make_context's arguments,
// or null.
template <typename... Args>
executor* executor_in(const Args&... args) {
  executor* found = nullptr;
  (
      [&](const auto& arg) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(arg)>,
                                     run_on_t>) {
          found = arg.external;
        }
      }(args),
      ...);
  return found;
}

// Constructs system I on the heap from the system_arguments given for it in
// `args`, if any, else default-constructed. The caller owns the result.
template <typename Types, std::size_t I, typename Signature, typename ArgsTuple>
auto make_instance(const Signature& signature,
                   const typename Types::entity_storage_type& entities,
                   ArgsTuple& args) {
  using system_type = typename Signature::system_type;
  constexpr std::size_t found =
      []<typename... A>(std::type_identity<std::tuple<A...>>) {
        constexpr bool is_for[] = {
            std::is_same_v<constructed_system_t<std::remove_cvref_t<A>>,
                           system_type>...,
            false};
        for (std::size_t i = 0; i < sizeof...(A); ++i) {
          if (is_for[i]) return i;
        }
        return sizeof...(A);
      }(std::type_identity<ArgsTuple>{});
  if constexpr (found < std::tuple_size_v<ArgsTuple>) {
    return std::apply(
        [&](auto&... a) {
          return new system_instance<Types, I>(signature, entities, a...);
        },
        std::get<found>(args).arguments);
  } else {
    // make_context reports it (diagnostics.h); here for a context
    // constructed directly (the same rule, reported once).
    if constexpr (!std::is_default_constructible_v<system_type>) {
      diagnostic::report(
          diagnostic::system_not_default_constructible<system_type>);
    }
    if constexpr (std::is_default_constructible_v<system_type>) {
      return new system_instance<Types, I>(signature, entities);
    } else {  // reported above; no second error from the constructor
      return static_cast<system_instance<Types, I>*>(nullptr);
    }
  }
}

// Makes every system's instance, in id order, into `instances`: owned as
// soon as made, so if a constructor throws, the ones made before it are
// deleted with the core's members. Then points `subscriptions` at each
// instance's subscription and shows the run policy each one's cost (both
// left null after a reported compile error, which makes no instance).
template <typename Types, typename Systems, typename ArgsTuple,
          typename Subscriptions, typename Policy>
void construct_instances(const Systems& systems,
                         const typename Types::entity_storage_type& entities,
                         ArgsTuple& args,
                         typename Types::instances_type& instances,
                         Subscriptions& subscriptions, Policy& policy) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    using table = typename Types::instances_type;
    (instances.adopt(
         I,
         make_instance<Types, I>(systems.template signature<I>(), entities,
                                 args),
         &table::template delete_instance<system_instance<Types, I>>),
     ...);
    [[maybe_unused]] const auto point_at = [&](std::size_t id, auto* instance) {
      subscriptions[id] = instance ? &instance->subscription() : nullptr;
      if (instance) policy.watch_cost(id, instance->cost());
    };
    // Through the instances' runtime part, which systems of one shape
    // share: the lambda is compiled once per shape, not once per system.
    (point_at(I,
              static_cast<runtime_of<Types, I>*>(
                  static_cast<system_instance<Types, I>*>(instances.get(I)))),
     ...);
  }
  (std::make_index_sequence<Types::system_count>{});
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_CORE_SETUP_H_
