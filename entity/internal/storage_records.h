// Internal to //entity: the per-index arrays of basic_entity_storage
// (entity_storage.h) and the containers that hold them.
#ifndef STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_
#define STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_

#include <array>
#include <cstddef>
#include <vector>

#include "base/limit.h"

namespace strata {

namespace entity_internal {

// The per-index container chosen by the limit policy.
template <typename Limit, typename T>
struct limit_container;
template <std::size_t N, typename T>
struct limit_container<fixed_limit<N>, T> {
  using type = std::array<T, N>;
};
template <typename T>
struct limit_container<dynamic_limit, T> {
  using type = std::vector<T>;
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

}  // namespace entity_internal

}  // namespace strata

#endif  // STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_
