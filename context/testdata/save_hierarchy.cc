// ctx.save in a program that declares a hierarchy: the file format does not
// carry it.
#include <sstream>

#include "context/save_load.h"
#include "context/testdata/fixture.h"

inline constexpr auto settings =
    settings_with().hierarchy(strata::kill_children);

int main() {
  auto ctx = strata::make_context<settings>();
  std::ostringstream out;
  ctx.save(out);
}
