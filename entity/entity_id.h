// Entity ids: versioned identifiers (base/versioned_id.h) with the widths
// Strata's entity storage uses.
//
//   strata::entity_id    32 bits: 22 index bits, 10 version bits (indices
//                        0 .. 4'194'302, versions 0 .. 1022). The default.
//   strata::entity_id64  64 bits: 32 index bits, 32 version bits, for worlds
//                        that keep stale ids or handles for very long.
//   strata::null_entity  the null id: never alive.
//
// An id is an index plus a version. The entity storage bumps the version of
// an index every time it reclaims it, so an id of a killed entity never names
// the entity that later reuses its index (see entity_storage.h). Ids are
// trivially copyable values; every operation is constexpr, O(1) and
// thread-safe; equality compares index and version. `to_string(id)` and
// `operator<<` print "index@version", or "null".
#ifndef STRATA_ENTITY_ENTITY_ID_H_
#define STRATA_ENTITY_ENTITY_ID_H_

#include <concepts>
#include <cstdint>

#include "base/versioned_id.h"

namespace strata {

template <std::unsigned_integral Int, int IndexBits>
using entity_traits = versioned_id_traits<Int, IndexBits>;

using entity_traits32 = entity_traits<std::uint32_t, 22>;
using entity_traits64 = entity_traits<std::uint64_t, 32>;

template <typename Traits>
using basic_entity_id = basic_versioned_id<Traits>;

using entity_id = basic_entity_id<entity_traits32>;
using entity_id64 = basic_entity_id<entity_traits64>;

static_assert(versioned_id<entity_id> && versioned_id<entity_id64>);

inline constexpr entity_id null_entity = entity_id::null();

}  // namespace strata

#endif  // STRATA_ENTITY_ENTITY_ID_H_
