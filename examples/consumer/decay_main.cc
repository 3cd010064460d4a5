// Five entities with 1..5 hit points lose one per step; a sparse set of their
// ids tracks the survivors. Prints one line per step.
#include <cstdio>
#include <vector>

#include "sparse_set/versioned_sparse_set.h"
#include "strata.h"
#include "world.h"

int main() {
  auto ctx = strata::make_context<consumer::settings>();
  strata::versioned_sparse_set<strata::entity_id> survivors;
  for (strata::entity_id e : consumer::spawn(ctx, {1, 2, 3, 4, 5})) {
    survivors.insert(e);
  }
  for (int frame = 1; !survivors.empty(); ++frame) {
    consumer::step(ctx);
    const std::vector<strata::entity_id> ids(survivors.begin(),
                                             survivors.end());
    for (strata::entity_id e : ids) {
      if (!ctx.alive(e)) survivors.erase(e);
    }
    std::printf("step %d: %zu entities alive, %zu tracked survivors\n", frame,
                ctx.entity_count(), survivors.size());
  }
  return 0;
}
