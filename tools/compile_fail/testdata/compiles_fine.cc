#include "tools/compile_fail/testdata/static_check_fixture.h"

int fine() { return twice(21); }
