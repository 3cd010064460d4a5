#include "scheduler/dag.h"

struct position {};
struct velocity {};
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::ss::make;

constexpr auto signature =
    make(tag<a>).read(tag<position>, tag<velocity>).write(tag<position>);
