#include "scheduler/dag.h"
#include "testing/components.h"

using strata::testing::position;
using strata::testing::velocity;
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::system_signature::make;

constexpr auto signature =
    make(tag<a>).read(tag<position>, tag<velocity>).write(tag<position>);
