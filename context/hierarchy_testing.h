// Shared by the hierarchy tests: a 2D transform pair and the propagation
// system over it, world = parent's world / 2 + local, the parent's world
// read with data.parent(ct::world, e) in a system declared
// .in_hierarchy_order() (its parent's level is done first). Halving the
// parent's part keeps worlds small and distinct at every depth.
#ifndef STRATA_CONTEXT_HIERARCHY_TESTING_H_
#define STRATA_CONTEXT_HIERARCHY_TESTING_H_

#include "context/context.h"

namespace strata::hierarchy_testing {

struct local_transform {
  double x = 0;
  double y = 0;
};
struct world_transform {
  double x = 0;
  double y = 0;
};
namespace ct {
inline constexpr auto local = tag<local_transform>;
inline constexpr auto world = tag<world_transform>;
}  // namespace ct

struct propagate {
  template <typename Data>
  void process(Data& data) const {
    data.for_each(
        [&](entity_id e, world_transform& w, const local_transform& l) {
          const world_transform* up = data.parent(ct::world, e);
          w.x = (up ? up->x * 0.5 : 0) + l.x;
          w.y = (up ? up->y * 0.5 : 0) + l.y;
        });
  }
};

}  // namespace strata::hierarchy_testing

#endif  // STRATA_CONTEXT_HIERARCHY_TESTING_H_
