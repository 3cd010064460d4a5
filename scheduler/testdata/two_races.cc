// Two independent races in one signature list: both are reported in the same
// compile, each naming its two systems and the component.
#include "scheduler/dag.h"
#include "testing/components.h"

using strata::testing::position;
using strata::testing::velocity;
struct a {};
struct b {};
struct c {};
struct d {};
using strata::tag;
using strata::system_signature::make;

constexpr auto systems = strata::system_signatures(
    make(tag<a>).write(tag<position>), make(tag<b>).read(tag<position>),
    make(tag<c>).write(tag<velocity>), make(tag<d>).read(tag<velocity>));
