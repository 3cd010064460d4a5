#include "scheduler/sequential.h"

#include <cstddef>
#include <exception>

namespace strata::scheduler_internal {

void run_in_order(const call_table& table,
                  absl::FunctionRef<void(std::size_t)> run_system,
                  bool* blocked) {
  // The error of the lowest system id that threw (ids are below count).
  std::exception_ptr first_error;
  std::size_t first_error_id = table.count;
  for (std::size_t k = 0; k < table.count; ++k) {
    const std::size_t id = table.topological_order[k];
    if (!table.selected[id]) continue;
    if (!blocked[id]) {
      try {
        run_system(id);
        continue;
      } catch (...) {
        if (id < first_error_id) {
          first_error = std::current_exception();
          first_error_id = id;
        }
      }
    }
    // It threw or waits for one that did: so does every dependent (a
    // dependent comes later in the order).
    for (std::size_t d = table.dependent_offsets[id];
         d < table.dependent_offsets[id + 1]; ++d) {
      blocked[table.dependents[d]] = true;
    }
  }
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace strata::scheduler_internal
