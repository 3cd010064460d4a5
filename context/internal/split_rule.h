// Internal to //context: whether a system's subtasks may run at once, the
// fact the split rule (context/data_proxy.h, "Access to other entities")
// and the effect channel's grouping (internal/effect_channel.h) decide on.
#ifndef STRATA_CONTEXT_INTERNAL_SPLIT_RULE_H_
#define STRATA_CONTEXT_INTERNAL_SPLIT_RULE_H_

#include <type_traits>

#include "scheduler/inner_parallelism.h"

namespace strata::context_internal {

// Whether the subtasks of a system with signature Signature may run at once:
// the settings allow inner parallelism and the strategy is not none().
// Decided from types only, so settings passed by value through a template
// are checked the same.
template <typename Types, typename Signature>
inline constexpr bool may_split =
    Types::inner_parallelism_allowed &&
    !std::is_same_v<typename Signature::parallelism_type,
                    inner_parallelism::none_t>;

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_SPLIT_RULE_H_
