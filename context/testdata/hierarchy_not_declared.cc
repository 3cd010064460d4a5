// A system asks for a parent in a program whose settings declare no
// hierarchy.
#include "context/testdata/fixture.h"

struct attacher {
  strata::entity_id parent;
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, const strata::testing::position&) {
      data.set_parent(e, parent);
    });
  }
};

inline constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<attacher>).read(ct::position));

int main() { run_once<settings>(); }
