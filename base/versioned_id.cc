#include "base/versioned_id.h"

#include <cstdint>
#include <string>

namespace strata::base_internal {

std::string versioned_id_text(std::uint64_t index, std::uint64_t version) {
  return std::to_string(index) + "@" + std::to_string(version);
}

}  // namespace strata::base_internal
