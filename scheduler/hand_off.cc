#include "scheduler/hand_off.h"

#include <chrono>
#include <cstdint>

namespace strata {

std::int64_t run_cost::now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace strata
