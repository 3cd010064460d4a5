// A system receives the type it sends itself: it cannot run after itself.
#include "context/testdata/fixture.h"

struct damage {
  int amount = 0;
};

struct echo {};

constexpr auto systems =
    strata::system_signatures(strata::system_signature::make(strata::tag<echo>)
                                  .sends<damage>()
                                  .receives<damage>());

int main() {}
