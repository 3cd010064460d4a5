// How Strata reports misuse at compile time.
//
// Each rule is a class template in `strata::diagnostic` whose name says what
// is wrong and whose template arguments are the culprits (systems,
// components, options). It is instantiated only when the rule is broken, and
// its body is one static_assert with a plain-words message, so the compiler's
// output reads:
//
//   In instantiation of 'struct strata::diagnostic::data_race<movement,
//       render, position>':
//   ...: error: static assertion failed: two systems that no dependency orders
//       both use a component and at least one writes it ...
//
// Checks run early, at the API boundary (the signature or settings call), and
// at most one rule fires per declaration, so misuse costs one screen of text.
#ifndef STRATA_SETTINGS_DIAGNOSTIC_H_
#define STRATA_SETTINGS_DIAGNOSTIC_H_

#include <cstddef>

namespace strata::diagnostic {

// False, but only once the template is instantiated.
template <typename...>
inline constexpr bool always_false = false;

// Calling `report<Rule>()` fires Rule's static_assert at the call site. A
// check reads `if constexpr (broken) diagnostic::report<rule<...>>();`.
// GCC: the default argument needs sizeof(Rule), which instantiates Rule
// right away (GCC would instantiate a function body only at the end of the
// file, after any error the misuse causes downstream). Clang instantiates a
// constexpr function's body when it is used, but takes a failed default
// argument for a substitution failure and adds "no matching function for
// call to 'report'" and a non-constant-expression error; so there the body
// names Rule, through a variable template, and the static_assert is the
// only error.
#if defined(__clang__)
template <typename Rule>
inline constexpr bool instantiate_rule = sizeof(Rule) > 0;
template <typename Rule>
constexpr void report() {
  (void)instantiate_rule<Rule>;
}
#else
template <typename Rule, std::size_t = sizeof(Rule)>
constexpr void report() {}
#endif

// Declared only: what a function returns after report<Rule>() fired, so
// the report stays the only error (dereferencing null there added Clang's
// -Wnull-dereference warning, with its own instantiation notes).
template <typename T>
T& after_report() noexcept;

}  // namespace strata::diagnostic

#endif  // STRATA_SETTINGS_DIAGNOSTIC_H_
