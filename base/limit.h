// Limit policies: how many entities (and so entity indices) a storage holds.
//
//   strata::fixed_limit<N>   at most N entities, indices 0 .. N-1, known at
//                            compile time. Storages that index by entity
//                            allocate once, up front (or inline), and never
//                            grow, so references stay valid for their life.
//   strata::dynamic_limit    no bound but the id type's; storages grow on
//                            demand. Carries `initial_capacity`, a run-time
//                            hint of how many entities to reserve for.
//
// One vocabulary for every layer: the entity storage (entity/), every
// component storage chunk (component_storage/) and the context settings
// (`settings().fixed_entity_limit<N>()` stores a fixed_limit<N>,
// `.dynamic_entity_limit(n)` a dynamic_limit{n}) all take these two types,
// so a context passes its settings' limit straight down.
//
// Compile-time only (dynamic_limit's hint aside); no state that changes, so
// trivially thread-safe.
#ifndef STRATA_BASE_LIMIT_H_
#define STRATA_BASE_LIMIT_H_

#include <cstddef>

namespace strata {

template <std::size_t N>
struct fixed_limit {
  static_assert(N > 0, "fixed_limit<N>: N must be at least 1");
  static constexpr bool is_fixed = true;
  static constexpr std::size_t value = N;
};

struct dynamic_limit {
  static constexpr bool is_fixed = false;
  // Entities to reserve room for up front (0: grow from empty).
  std::size_t initial_capacity = 0;
};

template <typename T>
inline constexpr bool is_limit_policy_v = false;
template <std::size_t N>
inline constexpr bool is_limit_policy_v<fixed_limit<N>> = true;
template <>
inline constexpr bool is_limit_policy_v<dynamic_limit> = true;

// fixed_limit<N> or dynamic_limit.
template <typename T>
concept limit_policy = is_limit_policy_v<T>;

}  // namespace strata

#endif  // STRATA_BASE_LIMIT_H_
