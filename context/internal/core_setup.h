// Internal to //context: how a context_core (internal/core.h) is put
// together from its settings and make_context's arguments: the storages'
// initial sizes, the thread count, the executor given with strata::run_on,
// and each system instance, constructed from its strata::system_arguments
// if any.
#ifndef STRATA_CONTEXT_INTERNAL_CORE_SETUP_H_
#define STRATA_CONTEXT_INTERNAL_CORE_SETUP_H_

#include <algorithm>
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>

#include "context/internal/diagnostics.h"
#include "context/settings.h"
#include "context/system_instance.h"
#include "threading/executor.h"
#include "threading/thread_pool.h"

namespace strata::context_internal {

// Entities the storages make room for up front. Fixed contiguous buffers
// size themselves; sparse and hash-map chunks hold rare components and
// grow with them.
template <typename Types>
std::size_t initial_capacity(const typename Types::settings_type& settings) {
  if constexpr (Types::limit_type::is_fixed) {
    return 0;
  } else {
    return settings.template get<context_keys::entity_limit>().initial_capacity;
  }
}

template <typename Types>
std::unique_ptr<typename Types::entity_storage_type> make_entities(
    const typename Types::settings_type& settings) {
  using storage = typename Types::entity_storage_type;
  if constexpr (Types::limit_type::is_fixed) {
    return std::make_unique<storage>();
  } else {
    return std::make_unique<storage>(initial_capacity<Types>(settings));
  }
}

// Threads of the context, the caller's included: an executor's concurrency
// plus one, or threads(n) (0: every hardware thread).
template <typename Types>
std::size_t thread_count_of(const typename Types::settings_type& settings,
                            executor* external) {
  if (external != nullptr) return external->concurrency() + 1;
  std::size_t n = settings.template get<context_keys::threads>();
  if (n == 0) n = std::max<std::size_t>(1, thread_pool::default_worker_count());
  return n;
}

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
            std::is_same_v<typename std::remove_cvref_t<A>::system_type,
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

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_CORE_SETUP_H_
