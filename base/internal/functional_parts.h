// Internal to Strata: std::function, std::less and std::hash, the parts of
// <functional> Strata's headers use, without the rest of it.
//
// libstdc++'s <functional> also includes, since C++17, what its searchers
// need (<unordered_map>, <vector>, <array> and the algorithms), which every
// translation unit that includes strata.h would then parse
// (//benchmarks/compile:include_only measures what including Strata costs).
// Under libstdc++ this header includes the three internal headers that
// define what Strata uses (the ones <functional> itself includes for them);
// under any other standard library, <functional>. Code outside the headers
// every program includes (.cc files, tests) includes <functional>.
#ifndef STRATA_BASE_INTERNAL_FUNCTIONAL_PARTS_H_
#define STRATA_BASE_INTERNAL_FUNCTIONAL_PARTS_H_

#include <cstddef>  // defines __GLIBCXX__ under libstdc++

#if defined(__GLIBCXX__) && __has_include(<bits/std_function.h>) && \
    __has_include(<bits/functional_hash.h>) &&                        \
    __has_include(<bits/stl_function.h>)
#include <bits/functional_hash.h>  // std::hash
#include <bits/std_function.h>     // std::function
#include <bits/stl_function.h>     // std::less
#else
#include <functional>
#endif

#endif  // STRATA_BASE_INTERNAL_FUNCTIONAL_PARTS_H_
