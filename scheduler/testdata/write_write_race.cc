#include "scheduler/dag.h"

struct position {};
struct velocity {};
struct a {};
struct b {};
struct c {};
using strata::tag;
using strata::ss::make;

constexpr auto systems = strata::system_signatures(
    make(tag<a>).write(tag<position>), make(tag<b>).write(tag<position>),
    make(tag<c>).read(tag<velocity>).dependencies(tag<a>, tag<b>));
