// Internal to //context: the query behind proxy.for_each(f) in a step and
// ctx.for_each(f) between steps (context/step_proxy.h and context/context.h
// have the contracts). The components f names become the required bits,
// exclude<...>'s the excluded ones, and the entities are visited by the
// loop a system's data.for_each uses (internal/for_each.h), in index order.
// Misuse (f without typed parameters, a component named twice, a non-const
// component when read-only) is a compile error with Strata's message.
#ifndef STRATA_CONTEXT_INTERNAL_QUERY_EACH_H_
#define STRATA_CONTEXT_INTERNAL_QUERY_EACH_H_

#include <type_traits>

#include "context/internal/diagnostics.h"
#include "context/internal/for_each.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

template <typename... Ts>
struct exclusion;  // context/step_proxy.h

namespace context_internal {

// f over every entity with the components f's parameters name and none of
// Excluded. ReadOnly: only const T& parameters are allowed.
template <typename Types, bool ReadOnly, typename Core, typename... Excluded,
          typename F>
void query_each(Core& core, exclusion<Excluded...>, F& f) {
  using signature = context_internal::for_each_signature<F>;
  if constexpr (!signature::known) {
    diagnostic::report(
        diagnostic::for_each_needs_typed_parameters<std::decay_t<F>>);
  } else {
    [&]<typename... P>(type_list<P...>) {
      static_assert((std::is_lvalue_reference_v<P> && ...),
                    "for_each(f): f takes an optional leading "
                    "strata::entity_id, then components as T& or const T&");
      static_assert(
          first_duplicate_index_v<type_list<std::remove_cvref_t<P>...>> ==
              sizeof...(P),
          "for_each(f): f names the same component in two "
          "parameters; take it once");
      static_assert(
          !ReadOnly || (std::is_const_v<std::remove_reference_t<P>> && ...),
          "ctx.for_each(f) between steps is read-only: take every "
          "component as const T& (write in a step instead)");
      using storage_type = typename Types::component_storage_type;
      using bits_type = typename Types::bitset_type;
      using components = typename Types::component_list;
      bits_type required, excluded;
      (required.set(components::template id_of<std::remove_cvref_t<P>>()), ...);
      (excluded.set(components::template id_of<Excluded>()), ...);
      auto& storage = const_cast<storage_type&>(core.components());
      context_internal::loop_entities<signature::takes_id>(
          core.entities(), required, excluded, f,
          context_internal::component_access<std::remove_cvref_t<P>,
                                             storage_type, false>(storage)...);
    }(typename signature::component_parameters{});
  }
}

}  // namespace context_internal
}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_QUERY_EACH_H_
