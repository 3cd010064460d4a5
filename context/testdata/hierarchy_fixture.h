// Settings with a hierarchy, for the hierarchy compile-fail tests.
#ifndef STRATA_CONTEXT_TESTDATA_HIERARCHY_FIXTURE_H_
#define STRATA_CONTEXT_TESTDATA_HIERARCHY_FIXTURE_H_

#include "context/testdata/fixture.h"

constexpr auto hierarchy_settings_with(auto... system_signatures) {
  return split_settings_with(system_signatures...)
      .hierarchy(strata::kill_children);
}

#endif  // STRATA_CONTEXT_TESTDATA_HIERARCHY_FIXTURE_H_
