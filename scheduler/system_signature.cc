// default_parallelism's description (scheduler/system_signature.h), out of
// line: the header does not include <string>.
#include "scheduler/system_signature.h"

#include <string>

namespace strata {

std::string default_parallelism::describe() const { return "context default"; }

}  // namespace strata
