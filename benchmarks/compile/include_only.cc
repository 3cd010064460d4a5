// The cost of `#include "strata.h"` alone (issue 18: at most 2 s of CPU):
// what every translation unit of a Strata program pays before its own code.
#include "strata.h"

int main() { return 0; }
