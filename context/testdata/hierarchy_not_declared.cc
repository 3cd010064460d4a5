// A system asks for a parent in a program whose settings declare no
// hierarchy; the settings reach make_context by value through a function
// template, as a user's driver passes them.
#include "context/testdata/hierarchy_fixture.h"

struct attacher {
  strata::entity_id parent;
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, const strata::testing::position&) {
      data.set_parent(e, parent);
    });
  }
};

int main() {
  run_game(settings_with(strata::system_signature::make(strata::tag<attacher>)
                             .read(ct::position)));
}
