// The sequential reference run of scheduler_determinism_test.cc, in a
// translation unit of its own (see scheduler_determinism_testing.h).
#include "context/scheduler_determinism_testing.h"

namespace strata::determinism_testing {

run_result sequential_reference_run() {
  return run<dag>(
      base_settings<dag>().scheduler(strata::scheduler::sequential).threads(1));
}

}  // namespace strata::determinism_testing
