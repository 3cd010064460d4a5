// Internal to //context: putting a list of entity ids in index order, as
// the refresh's kill phase and hook phase visit them, so that the result
// does not depend on how systems were split into subtasks.
//
// Compiled once, in entity_order.cc: the sort does not depend on a
// program's types, and inline it was compiled into every program that
// includes a context (compile time). One call per refresh phase that has
// ids, not per entity.
//
// Complexity: O(n) when the ids are in index order already (the usual
// case: a pass over a system's entities, or ids created in a row), else
// O(n log n). Ids of equal index keep no particular order; the callers'
// lists hold distinct live ids, so there are none. Not thread-safe on the
// same vector; no allocation.
#ifndef STRATA_CONTEXT_INTERNAL_ENTITY_ORDER_H_
#define STRATA_CONTEXT_INTERNAL_ENTITY_ORDER_H_

#include "entity/entity_id.h"

namespace strata::context_internal {

// Sorts `ids` by ascending index unless they are sorted already.
void sort_by_index(entity_id* first, entity_id* last);

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_ENTITY_ORDER_H_
