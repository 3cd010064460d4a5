#include "scheduler/dag.h"

struct position {};
struct velocity {};
struct a {};
struct b {};
struct c {};
using strata::ss::make;
using strata::tag;

constexpr auto signature =
    make(tag<a>).read(tag<position>).read(tag<velocity>);
