#include "scheduler/dag.h"
#include "testing/components.h"

using strata::testing::position;
using strata::testing::velocity;
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::system_signature::make;

// added() names an optional component: filters need required ones.
constexpr auto signature = make(tag<a>)
                               .read(tag<velocity>)
                               .read_optional(tag<position>)
                               .added(tag<position>);
