// A message type that owns memory: messages are copied into reused buffers
// and dropped at the refresh without destructors.
#include <string>

#include "context/testdata/fixture.h"

struct note {
  std::string text;
};

struct writer {};

constexpr auto signature =
    strata::system_signature::make(strata::tag<writer>).sends<note>();

int main() {}
