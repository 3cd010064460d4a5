// Test-only: counts calls to the global operator new (every form) made by any
// thread of the binary that links //testing:allocation_counter, so tests and
// benchmarks can assert "no heap allocation per task".
//
// The counting operator new (the operators are testing/internal/replaced_new.h,
// shared with //testing:failing_allocation) must live in the executable
// itself so that it takes precedence over the sanitizer runtimes' operator
// new: give every test that links it `linkstatic = True`. The target is
// alwayslink, so the replacement is linked even though no code names it.
//
// Thread-safety: allocation_count() may be called from any thread; the count
// is a relaxed atomic, exact once the threads that allocate are quiescent or
// synchronized with the reader.
#ifndef STRATA_TESTING_ALLOCATION_COUNTER_H_
#define STRATA_TESTING_ALLOCATION_COUNTER_H_

#include <cstddef>

namespace strata::testing {

std::size_t allocation_count() noexcept;

}  // namespace strata::testing

#endif  // STRATA_TESTING_ALLOCATION_COUNTER_H_
