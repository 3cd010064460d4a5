#include "scheduler/dag.h"

struct position {};
struct velocity {};
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::ss::make;

struct missing {};
constexpr auto systems = strata::system_signatures(
    make(tag<a>), make(tag<b>).dependencies(tag<a>, tag<missing>));
