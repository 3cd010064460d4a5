// A system in hierarchy order writes its entity's parent: the split rule
// (another subtask of the same level may write the same parent's row).
#include "context/testdata/fixture.h"

struct pusher {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, strata::testing::position& p) {
      const strata::entity_id up = data.parent_of(e);
      if (!up.is_null()) data.write(ct::position, up).x = p.x;
    });
  }
};

inline constexpr auto settings =
    hierarchy_settings_with(strata::system_signature::make(strata::tag<pusher>)
                                .write(ct::position)
                                .in_hierarchy_order());

int main() { run_once<settings>(); }
