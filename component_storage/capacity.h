// Capacity policies: how many entity indices a storage chunk must hold.
//
//   strata::fixed_capacity<N>   indices 0 .. N-1, known at compile time. Chunks
//                               that index by entity (the contiguous buffer)
//                               allocate once, up front, and never grow, so
//                               references stay valid for the chunk's life.
//   strata::dynamic_capacity    no bound; chunks grow on demand.
//
// The context maps its entity limit (`fixed_entity_limit<N>()` or a dynamic
// one) onto these two types and passes the result to every chunk as the
// `Capacity` template argument. Chunks whose memory follows the number of
// components (packed set, hash map) use the bound only to check indices.
//
// Compile-time only; no run-time cost, no state, trivially thread-safe.
#ifndef STRATA_COMPONENT_STORAGE_CAPACITY_H_
#define STRATA_COMPONENT_STORAGE_CAPACITY_H_

#include <cstddef>

namespace strata {

template <std::size_t N>
struct fixed_capacity {
  static_assert(N > 0, "fixed_capacity<N>: N must be at least 1");
  static constexpr bool is_fixed = true;
  static constexpr std::size_t value = N;
};

struct dynamic_capacity {
  static constexpr bool is_fixed = false;
};

template <typename T>
inline constexpr bool is_capacity_policy_v = false;
template <std::size_t N>
inline constexpr bool is_capacity_policy_v<fixed_capacity<N>> = true;
template <>
inline constexpr bool is_capacity_policy_v<dynamic_capacity> = true;

// fixed_capacity<N> or dynamic_capacity.
template <typename T>
concept capacity_policy = is_capacity_policy_v<T>;

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_CAPACITY_H_
