#include "tools/compile_fail/testdata/static_check_fixture.h"

double misuse() { return twice(1.5); }
