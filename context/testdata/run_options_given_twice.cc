// Misuse: two run_options given to make_context; one holds every option.
#include "context/testdata/fixture.h"

struct idle {
  template <typename Data>
  void process(Data&) {}
};
namespace st {
inline constexpr auto idle = strata::tag<::idle>;
}

inline constexpr auto settings =
    settings_with(strata::system_signature::make(st::idle));

int main() {
  auto ctx = make_test_context<settings>(strata::run_options().threads(2),
                                         strata::run_options());
  (void)ctx;
}
