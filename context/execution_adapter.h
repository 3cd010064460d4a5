// Execution adapters: which callable runs which system.
//
//   proxy.execute_systems()(
//       strata::execution_adapter::t(st::render).detailed_instance(
//           [](auto& instance, auto& executor) { ... }),
//       strata::execution_adapter::all().for_subtasks(
//           [dt](auto& system, auto& data) { system.process(dt, data); }));
//
// Selectors: `execution_adapter::all()` (every system),
// `execution_adapter::t(st...)` (the listed systems),
// `execution_adapter::matching(pred)` (systems whose tag satisfies `pred`, a
// stateless lambda evaluated at compile time: `[](auto tag) { return ...; }`).
// Each selector makes an adapter with
//   .for_subtasks(f)       f(system&, data_proxy&) per subtask (const
//                          system& for a system that may split:
//                          context/data_proxy.h), or
//   .detailed_instance(f)  f(instance&, executor&): run subtasks with
//                          executor.for_subtasks(g), then e.g. merge outputs
//                          with instance.for_outputs(...).
// For each executed system the first adapter (in argument order) whose
// selector matches it wins; an executed system no adapter matches is a
// compile error naming it. Adapters hold their callables by value; a
// for_subtasks callable is called concurrently from several threads when the
// system runs subtasks in parallel, so it must be safe to share.
#ifndef STRATA_CONTEXT_EXECUTION_ADAPTER_H_
#define STRATA_CONTEXT_EXECUTION_ADAPTER_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename System>
inline constexpr bool no_execution_adapter_for_system = [] {
  static_assert(always_false<System>,
                "execute_systems(...): a system that will run matches no "
                "execution adapter; add execution_adapter::t(st::x) or "
                "execution_adapter::all() with a "
                "callable for it (the system is named above)");
  return false;
}();

}  // namespace diagnostic

namespace execution_adapter {

struct match_all {
  template <typename System>
  static constexpr bool matches = true;
};

template <typename... Systems>
struct match_types {
  template <typename System>
  static constexpr bool matches = (std::is_same_v<System, Systems> || ...);
};

template <typename Predicate>
struct match_predicate {
  static_assert(
      std::is_default_constructible_v<Predicate>,
      "execution_adapter::matching(pred): pred must be a stateless lambda (no "
      "captures), so it can be evaluated at compile time");
  template <typename System>
  static constexpr bool matches = static_cast<bool>(Predicate{}(tag<System>));
};

enum class adapter_kind { subtasks, detailed };

template <typename Matcher, adapter_kind Kind, typename F>
struct adapter {
  using matcher = Matcher;
  static constexpr adapter_kind kind = Kind;
  F callable;
};

template <typename Matcher>
struct selector {
  template <typename F>
  constexpr auto for_subtasks(F f) const {
    return adapter<Matcher, adapter_kind::subtasks, F>{std::move(f)};
  }
  template <typename F>
  constexpr auto detailed_instance(F f) const {
    return adapter<Matcher, adapter_kind::detailed, F>{std::move(f)};
  }
};

constexpr selector<match_all> all() { return {}; }

template <tag_value... Systems>
constexpr selector<match_types<tag_type<Systems>...>> t(Systems...) {
  static_assert(sizeof...(Systems) > 0,
                "execution_adapter::t(...) needs at least one system tag");
  return {};
}

template <typename Predicate>
constexpr selector<match_predicate<Predicate>> matching(Predicate) {
  return {};
}

}  // namespace execution_adapter

// The short name, optional, for users who want it (ECST's, for "system
// execution adapter"): strata::sea is strata::execution_adapter. Compiler
// messages spell the namespace's own name.
namespace sea = execution_adapter;

template <typename T>
inline constexpr bool is_execution_adapter_v = false;
template <typename M, execution_adapter::adapter_kind K, typename F>
inline constexpr bool
    is_execution_adapter_v<execution_adapter::adapter<M, K, F>> = true;

namespace context_internal {

// Index of the first adapter matching System, or sizeof...(Adapters): the
// adapter a system runs through (context/internal/adapter_matching.h).
template <typename System, typename... Adapters>
constexpr std::size_t first_matching_adapter() {
  constexpr bool matches[] = {Adapters::matcher::template matches<System>...,
                              false};
  for (std::size_t i = 0; i < sizeof...(Adapters); ++i) {
    if (matches[i]) return i;
  }
  return sizeof...(Adapters);
}

}  // namespace context_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_EXECUTION_ADAPTER_H_
