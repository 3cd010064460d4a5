// Internal to Strata: std::string spelled through a template parameter, for
// the templates in headers every program includes that make text on request
// (to_string(id), a strategy's description).
//
// Those headers do not include <string>: its definition, the number
// conversions it brings and their C headers are a large part of what a file
// including strata.h would otherwise parse. <iosfwd> declares std::string,
// which is enough to name it in a declaration, but not to return one or to
// build one. `dependent_string<T>` is std::string named so that it depends
// on T: a template whose body makes one is only checked where it is
// instantiated, which is where its caller calls it. A program that calls
// such a function includes <string> itself (it uses the std::string it
// gets); one that does not call it never needs the definition. Naming
// std::string directly instead would be ill-formed (no diagnostic
// required): a non-dependent type incomplete where the template is defined
// and complete where it is instantiated.
#ifndef STRATA_BASE_INTERNAL_DEPENDENT_STRING_H_
#define STRATA_BASE_INTERNAL_DEPENDENT_STRING_H_

#include <iosfwd>  // declares std::string

namespace strata::base_internal {

template <typename Dependent>
struct dependent_string_of {
  using type = std::string;
};

// std::string, for a template parameterized on Dependent.
template <typename Dependent>
using dependent_string = typename dependent_string_of<Dependent>::type;

}  // namespace strata::base_internal

#endif  // STRATA_BASE_INTERNAL_DEPENDENT_STRING_H_
