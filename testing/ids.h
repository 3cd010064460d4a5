// Versioned ids for the tests of packages below //entity (//sparse_set
// takes any versioned id and may not depend on //entity): the two widths
// //entity names, under the same names.
//
//   strata::testing::entity_id    32 bits: 22 index bits, 10 version bits
//   strata::testing::entity_id64  64 bits: 32 index bits, 32 version bits
//
// They are the very types strata::entity_id and strata::entity_id64 of
// entity/entity_id.h (the same basic_versioned_id instantiations), so what a
// sparse-set test proves with them holds for the ids entities really use.
#ifndef STRATA_TESTING_IDS_H_
#define STRATA_TESTING_IDS_H_

#include <cstdint>

#include "base/versioned_id.h"

namespace strata::testing {

using entity_id = basic_versioned_id<versioned_id_traits<std::uint32_t, 22>>;
using entity_id64 = basic_versioned_id<versioned_id_traits<std::uint64_t, 32>>;

static_assert(versioned_id<entity_id> && versioned_id<entity_id64>);

}  // namespace strata::testing

#endif  // STRATA_TESTING_IDS_H_
