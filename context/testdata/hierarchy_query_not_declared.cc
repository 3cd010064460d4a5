// A hierarchy query on the context of a program whose settings declare no
// hierarchy.
#include "context/testdata/fixture.h"

inline constexpr auto settings = settings_with();

int main() {
  auto ctx = make_test_context<settings>();
  strata::entity_id e;
  ctx.step([&](auto& proxy) { e = proxy.create_entity(); });
  return static_cast<int>(ctx.depth_of(e));
}
