#include "scheduler/dag.h"
#include "testing/components.h"

using strata::testing::position;
using strata::testing::velocity;
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::system_signature::make;

struct missing {};
constexpr auto systems = strata::system_signatures(
    make(tag<a>), make(tag<b>).dependencies(tag<a>, tag<missing>));
