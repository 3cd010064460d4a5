#include "component_storage/signature.h"

struct position {
  float x, y;
};
struct velocity {
  float x, y;
};

constexpr auto components = strata::component_signatures(
    strata::cs::make(strata::tag<position>, strata::tag<velocity>),
    strata::cs::make(strata::tag<position>).sparse());
