// A user's system, written the way a user might while iterating: see
// BUILD.bazel for why this package exists.
#ifndef STRATA_USER_WORKSPACE_USER_CODE_H_
#define STRATA_USER_WORKSPACE_USER_CODE_H_

#include <cstddef>

namespace user_workspace {

// How many entities survive `steps` steps of a context whose system kills
// every entity with an odd index once.
std::size_t survivors(std::size_t entities, int steps);

}  // namespace user_workspace

#endif  // STRATA_USER_WORKSPACE_USER_CODE_H_
