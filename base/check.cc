#include "base/check.h"

#include <cstdio>
#include <cstdlib>

namespace strata::base_internal {

void CheckFailed(const char* condition, std::string_view message,
                 const char* file, int line) noexcept {
  std::fprintf(stderr, "strata: check failed: %s: %.*s [%s:%d]\n", condition,
               static_cast<int>(message.size()), message.data(), file, line);
  std::fflush(stderr);
  std::abort();
}

}  // namespace strata::base_internal
