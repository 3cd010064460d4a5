// Internal to //entity: the per-index records of basic_entity_storage
// (entity_storage.h) and the container that holds them.
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

// One record per index: the id slot and, next to it, the metadata, so that
// "is it alive, and which components does it have" reads one cache line.
template <typename Value, typename Metadata>
struct slot_record {
  Value id;
  Metadata meta;
};
template <typename Value>
struct slot_record<Value, void> {
  Value id;
};

template <typename M>
concept has_component_bits = requires(M& m) {
  m.components;
};

}  // namespace entity_internal

}  // namespace strata

#endif  // STRATA_ENTITY_INTERNAL_STORAGE_RECORDS_H_
