#include "scheduler/hand_off.h"

#include <cstdint>

#include "base/steady_clock_ns.h"

namespace strata {

std::int64_t run_cost::now_ns() noexcept { return steady_clock_ns(); }

}  // namespace strata
