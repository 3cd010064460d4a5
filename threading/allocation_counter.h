// Test-only: counts calls to the global operator new (every form) made by any
// thread of the binary that links :allocation_counter, so tests and
// benchmarks can assert "no heap allocation per task".
//
// Thread-safety: allocation_count() may be called from any thread; the count
// is a relaxed atomic, exact once the threads that allocate are quiescent or
// synchronized with the reader.
#ifndef STRATA_THREADING_ALLOCATION_COUNTER_H_
#define STRATA_THREADING_ALLOCATION_COUNTER_H_

#include <cstddef>

namespace strata::testing {

std::size_t allocation_count() noexcept;

}  // namespace strata::testing

#endif  // STRATA_THREADING_ALLOCATION_COUNTER_H_
