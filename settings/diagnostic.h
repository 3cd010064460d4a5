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

namespace strata::diagnostic {

// False, but only once the template is instantiated.
template <typename...>
inline constexpr bool always_false = false;

// Instantiating `report<Rule>()` fires Rule's static_assert; it is a function
// so a check reads `if constexpr (broken) diagnostic::report<rule<...>>();`.
template <typename Rule>
constexpr void report() {
  [[maybe_unused]] Rule fire{};
}

}  // namespace strata::diagnostic

#endif  // STRATA_SETTINGS_DIAGNOSTIC_H_
