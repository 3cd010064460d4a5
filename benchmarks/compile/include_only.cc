// The cost of `#include "strata.h"` alone (its target is in BENCHMARKS.md):
// what every translation unit of a Strata program pays before its own code.
#include "strata.h"

int main() { return 0; }
