// The sequential reference run of scheduler_determinism_test.cc, in a
// translation unit of its own (see scheduler_determinism_testing.h).
#include "context/scheduler_determinism_testing.h"

namespace strata::determinism_testing {

run_result sequential_run(const run_length& length, std::size_t threads) {
  return run<dag>(length, base_settings<dag>()
                              .scheduler(strata::scheduler::sequential)
                              .threads(threads));
}

}  // namespace strata::determinism_testing
