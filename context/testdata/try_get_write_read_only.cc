// Writing a read() component through data.try_get (which gives T* of a
// written component only).
#include "context/testdata/fixture.h"

struct mover {
  strata::entity_id target;
  template <typename Data>
  void process(Data& data) {
    if (auto* v = data.try_get(ct::velocity, target)) v->x = 0;
  }
};

constexpr auto settings = settings_with(
    strata::system_signature::make(strata::tag<mover>).read(ct::velocity));

int main() { run_once<settings>(); }
