// Internal to Strata: the parts of <algorithm>, <iterator> and <functional>
// that Strata's headers use, without the rest of those headers.
//
// In C++20, libstdc++'s <algorithm> also brings every constrained
// (std::ranges) algorithm, <iterator> the stream iterators and with them
// <streambuf>, and <functional> (since C++17) what its searchers need:
// <unordered_map> and the algorithms again. Every translation unit that
// includes strata.h would parse all of it
// (//benchmarks/compile:include_only measures what including Strata costs).
// Under libstdc++ this header includes the internal headers those standard
// headers include for what Strata uses: the classic algorithms (std::sort,
// std::stable_sort, std::merge, std::fill_n, ...), iterator tags,
// std::reverse_iterator, std::back_inserter, std::prev, std::size,
// std::function, std::less and std::hash. Under any other standard library
// it includes the three standard headers. Code outside the headers every
// program includes (.cc files, tests, opt-in headers such as save_load.h)
// includes the standard headers.
#ifndef STRATA_BASE_INTERNAL_STANDARD_PARTS_H_
#define STRATA_BASE_INTERNAL_STANDARD_PARTS_H_

#include <cstddef>  // defines __GLIBCXX__ under libstdc++

#if defined(__GLIBCXX__) && __has_include(<bits/stl_algo.h>) &&          \
    __has_include(<bits/stl_iterator.h>) &&                               \
    __has_include(<bits/range_access.h>) &&                               \
    __has_include(<bits/std_function.h>) &&                               \
    __has_include(<bits/functional_hash.h>)
#include <bits/functional_hash.h>  // std::hash
#include <bits/range_access.h>     // std::size, std::begin, ...
#include <bits/std_function.h>     // std::function
#include <bits/stl_algo.h>         // the classic algorithms
#include <bits/stl_algobase.h>
#include <bits/stl_function.h>             // std::less
#include <bits/stl_iterator.h>             // std::reverse_iterator, inserters
#include <bits/stl_iterator_base_funcs.h>  // std::prev, std::next
#include <bits/stl_iterator_base_types.h>  // iterator tags and traits
#else
#include <algorithm>
#include <functional>
#include <iterator>
#endif

#endif  // STRATA_BASE_INTERNAL_STANDARD_PARTS_H_
