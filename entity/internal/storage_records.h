// Internal to //entity: the per-index arrays of basic_entity_storage
// (entity_storage.h), the containers that hold them, and how a reclaimed
// index's metadata is reset.
#ifndef STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_
#define STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "base/internal/trivial_vector.h"
#include "base/limit.h"

namespace strata {

namespace entity_internal {

// The per-index container chosen by the limit policy: a fixed array, or a
// growable one (base/internal/trivial_vector.h for a trivially copyable
// element, as ids and metadata are: its memory code is compiled once, not
// once per metadata type).
template <typename Limit, typename T>
struct limit_container;
template <std::size_t N, typename T>
struct limit_container<fixed_limit<N>, T> {
  using type = std::array<T, N>;
};
template <typename T>
struct limit_container<dynamic_limit, T> {
  using type =
      std::conditional_t<std::is_trivially_copyable_v<T>,
                         base_internal::trivial_vector<T>, std::vector<T>>;
};

// The metadata column of a storage without metadata: takes no space
// ([[no_unique_address]]).
struct no_metadata_column {};

// The per-index metadata column: a second array beside the id slots (the
// ids stay alone in theirs, so a by-id liveness check reads one id-sized
// word per entity), or nothing when Metadata is void.
template <typename Limit, typename Metadata>
struct metadata_column {
  using type = typename limit_container<Limit, Metadata>::type;
};
template <typename Limit>
struct metadata_column<Limit, void> {
  using type = no_metadata_column;
};

template <typename M>
concept has_component_bits = requires(M& m) {
  m.components;
};

// Resets a reclaimed index's metadata to M{} by copying a constant:
// assigning a temporary made GCC assemble it on the stack in pieces and
// reload it whole, a store-forwarding stall on every kill
// (BM_DestroyEntities, benchmarks/entity_benchmark.cc). Constant
// initialized, so no guard, when M{} is a constant expression.
template <typename M>
void reset_metadata(M& meta) noexcept(std::is_nothrow_copy_assignable_v<M>) {
  static const M fresh{};
  meta = fresh;
}

}  // namespace entity_internal

}  // namespace strata

#endif  // STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_
