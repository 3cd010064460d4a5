// .hierarchy(x) with something that is not a relation.
#include "context/testdata/fixture.h"

inline constexpr auto settings = settings_with().hierarchy(true);

int main() { auto ctx = make_test_context<settings>(); }
