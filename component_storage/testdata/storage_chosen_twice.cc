#include "component_storage/signature.h"

struct position {
  float x, y;
};

constexpr auto components = strata::component_signatures(
    strata::cs::make(strata::tag<position>).sparse().hash_map());
