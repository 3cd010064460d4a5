#include "context/internal/entity_order.h"

#include <algorithm>

namespace strata::context_internal {

void sort_by_index(entity_id* first, entity_id* last) {
  const auto by_index = [](entity_id a, entity_id b) {
    return a.index() < b.index();
  };
  // Introsort costs O(n log n) even on sorted input: check first.
  if (!std::is_sorted(first, last, by_index)) {
    std::sort(first, last, by_index);
  }
}

}  // namespace strata::context_internal
