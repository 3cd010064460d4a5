// Must not compile: ctx.save() of a world with a component that is not
// trivially copyable and whose signature names no serializer.
#include <sstream>
#include <string>

#include "context/save_load.h"
#include "context/testdata/fixture.h"

struct nickname {
  std::string text;
};

struct moves {
  template <typename Data>
  void process(Data&) {}
};

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position),
            strata::component_signature::make(strata::tag<nickname>).sparse()))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<moves>)
                .write(ct::position)));

int main() {
  auto ctx = make_test_context<settings>();
  std::ostringstream out;
  return static_cast<int>(ctx.save(out));
}
