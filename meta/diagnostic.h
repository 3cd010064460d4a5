// How Strata reports misuse at compile time.
//
// Each rule is a variable template in `strata::diagnostic` whose name says
// what is wrong and whose template arguments are the culprits (systems,
// components, options). Its initializer is one static_assert with a
// plain-words message, so it is checked only when a check names it, and the
// compiler's output reads:
//
//   In instantiation of 'constexpr const bool
//       strata::diagnostic::data_race<strata::diagnostic::race<movement,
//       render, position> >':
//   ...: required from here
//   ...: error: static assertion failed: data race: two systems that no
//       dependency orders both use a component ...
//
// A check reads `if constexpr (broken) diagnostic::report(rule<culprits>);`.
// The rule is a variable, not a class, because naming a variable template
// specialization is the shortest path from a check to a static_assert in
// both compilers: no helper template stands between them (each would be one
// more line of notes, three with Clang), and Clang does not, as it does for
// a class whose static_assert failed, mark the check that named it invalid
// and add a "not a constant expression" error.
//
// What keeps a report short (every misuse prints at most 30 lines and 6 KB,
// the compile-fail tests' defaults, tools/compile_fail/compile_fail.bzl):
//   * the compiler prints every template between the user's line and the
//     rule, with its arguments. Checks therefore run in the function the user
//     called (system_signatures(...), a settings setter, data.get), name the
//     rule there, and compute culprits in helpers that never fail;
//   * they run when that function is instantiated, never inside a constant
//     evaluation: GCC would add an "in 'constexpr' expansion of" note that
//     spells the whole call, with every argument expression;
//   * the types a note spells are short: signatures hold only what was set,
//     as `strata::signature<game::s1, strata::writes<game::c1>,
//     strata::reads<game::c2>>` (scheduler/system_signature.h), the types
//     in them have short names in namespace strata, and a context made with
//     make_context<settings>() is spelled `named_settings<settings>`;
//   * checks that find several culprits (every racing pair, every cycle)
//     name them all in one rule, so the notes are printed once;
//   * after a report, code goes on with something harmless
//     (after_report<T>(), a merged list), so the report is the only error.
#ifndef STRATA_META_DIAGNOSTIC_H_
#define STRATA_META_DIAGNOSTIC_H_

namespace strata::diagnostic {

// False, but only once the template is instantiated.
template <typename...>
inline constexpr bool always_false = false;

// Fires the rule named in the argument: `report(rule<culprits...>)`.
// Naming the rule instantiates it; the call itself does nothing.
constexpr void report(bool) noexcept {}

// Declared only: what a function returns after a report, so the report
// stays the only error (dereferencing null there added Clang's
// -Wnull-dereference warning, with its own instantiation notes).
template <typename T>
T& after_report() noexcept;

}  // namespace strata::diagnostic

#endif  // STRATA_META_DIAGNOSTIC_H_
