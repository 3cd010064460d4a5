// Internal to //context: which execution adapter runs which system of an
// execute_systems() call, decided at compile time (the run itself is
// internal/system_runner.h).
//
// A call's adapters are checked before anything of the call is compiled:
// every argument must be an execution adapter (else
// diagnostic::not_an_execution_adapter), and every selected system must
// match one of them (else diagnostic::no_execution_adapter_for_system,
// naming the first system that matches none). A system runs through the
// first adapter that matches it, in the order of the call's arguments
// (first_matching_adapter, context/execution_adapter.h). A system the call
// does not select does not run (its entry in the run table is null);
// unselected_adapter only gives its call of the user's code a parameter
// type, and no_adapter a slot among the call's type-erased adapters.
//
// Everything here is a type or a constant expression, used by the runner
// in constant expressions only: nothing of it runs in a step.
#ifndef STRATA_CONTEXT_INTERNAL_ADAPTER_MATCHING_H_
#define STRATA_CONTEXT_INTERNAL_ADAPTER_MATCHING_H_

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "context/execution_adapter.h"
#include "context/internal/diagnostics.h"
#include "meta/diagnostic.h"

namespace strata::context_internal {

// The adapter of a system the call does not select: a detailed adapter
// whose callable does nothing.
struct unselected_adapter {
  static constexpr auto kind = execution_adapter::adapter_kind::detailed;
  struct nothing {
    void operator()(const auto&, const auto&) const noexcept {}
  };
  static constexpr nothing callable{};
};
inline constexpr unselected_adapter no_adapter{};

// Every one of N systems selected: the Selected of execute_systems(), a
// named constant whose name (the compiler's notes print it) does not spell
// the settings type.
template <std::size_t N>
inline constexpr std::array<bool, N> every_system = [] {
  std::array<bool, N> all{};
  for (bool& b : all) b = true;
  return all;
}();

// Whether every argument of a call is an execution adapter (else the call
// reports it before anything else is checked).
template <typename... Adapters>
inline constexpr bool all_adapters =
    (is_execution_adapter_v<std::remove_cvref_t<Adapters>> && ...);

// Reports System when it is selected and no adapter matches it; true if
// it is matched or not selected.
template <bool Selected, typename System, typename... Adapters>
constexpr bool check_adapter() {
  if constexpr (Selected && first_matching_adapter<System, Adapters...>() ==
                                sizeof...(Adapters)) {
    diagnostic::report(diagnostic::no_execution_adapter_for_system<System>);
    return false;
  } else {
    return true;
  }
}
// Reports the first selected system of SystemList that no adapter
// matches; true if there is none.
template <const auto& Selected, typename SystemList, typename... Adapters,
          std::size_t... I>
constexpr bool check_adapters(std::index_sequence<I...>) {
  return (check_adapter<Selected[I], typename SystemList::template system_at<I>,
                        Adapters...>() &&
          ...);
}

// The index in Refs (a tuple of adapter references) of the first adapter
// that matches system I of SystemList.
template <typename SystemList, std::size_t I, typename Refs>
constexpr std::size_t adapter_index() {
  using system_type = typename SystemList::template system_at<I>;
  return []<typename... A>(std::type_identity<std::tuple<A...>>) {
    return first_matching_adapter<system_type, std::remove_cvref_t<A>...>();
  }(std::type_identity<Refs>{});
}

// The adapter type at Index in Refs when the system is selected, else
// unselected_adapter.
template <bool Selected, std::size_t Index, typename Refs>
struct adapter_of {
  using type = const unselected_adapter;
};
template <std::size_t Index, typename Refs>
struct adapter_of<true, Index, Refs> {
  using type = std::remove_reference_t<std::tuple_element_t<Index, Refs>>;
};
template <typename SystemList, bool Selected, std::size_t I, typename Refs>
using adapter_type =
    typename adapter_of<Selected, adapter_index<SystemList, I, Refs>(),
                        Refs>::type;

// Where system I's adapter is among the call's adapters (Refs), or, when
// it is not selected, the slot after them, which holds no_adapter.
template <typename SystemList, bool Selected, std::size_t I, typename Refs>
constexpr std::size_t adapter_slot() {
  if constexpr (Selected) {
    return adapter_index<SystemList, I, Refs>();
  } else {
    return std::tuple_size_v<Refs>;
  }
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_ADAPTER_MATCHING_H_
