#include "scheduler/dag.h"
#include "testing/components.h"

using strata::testing::position;
using strata::testing::velocity;
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::system_signature::make;

constexpr auto systems = strata::system_signatures(
    make(tag<a>).write(tag<position>), make(tag<b>).read(tag<position>));
