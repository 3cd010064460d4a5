// The compile-time rules of the context's proxies and adapters, each a
// static_assert whose template arguments name the culprits
// (meta/diagnostic.h explains the pattern). Internal: users meet these
// only as error messages.
#ifndef STRATA_CONTEXT_INTERNAL_DIAGNOSTICS_H_
#define STRATA_CONTEXT_INTERNAL_DIAGNOSTICS_H_

#include <type_traits>

#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata::diagnostic {

template <typename System, typename Component>
inline constexpr bool system_uses_undeclared_component = [] {
  static_assert(always_false<System, Component>,
                "a system reads or writes a component its signature does not "
                "declare; add it to .read(...) or .write(...) of that system "
                "(or to .read_optional(...) / .write_optional(...) to reach it "
                "with data.try_read / data.try_get); system and component are "
                "named above");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool component_written_but_read_only = [] {
  static_assert(always_false<System, Component>,
                "a system writes a component its signature declares "
                "read-only (a T& parameter of data.for_each, or "
                "data.write); take it as const T& to read it, or move it to "
                ".write(...) (or .write_optional(...)) of that system; system "
                "and component are named above");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool get_of_read_only_component = [] {
  static_assert(always_false<System, Component>,
                "data.get(ct::x, id) gives T& to write a component, and this "
                "system's signature declares it read-only; read it with "
                "data.read(ct::x, id) (a const T&), or move it to "
                ".write(...) of that system to write it; system and "
                "component are named above");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool try_get_of_read_only_component = [] {
  static_assert(always_false<System, Component>,
                "data.try_get(ct::x, id) gives T* to write a component, and "
                "this system's signature declares it read-only (read or "
                "read_optional); read it with data.try_read(ct::x, id) (a "
                "const T*), or move it to .write(...) / .write_optional(...) "
                "of that system to write it; system and component are named "
                "above");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool for_each_component_not_required = [] {
  static_assert(always_false<System, Component>,
                "data.for_each(f): a parameter of f is a component the system "
                "does not require; for_each visits the system's entities, "
                "which have exactly its .read(...) and .write(...) "
                "components: add it there, or reach an optional component "
                "with data.try_read / data.try_get; system and component are "
                "named above");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool get_of_optional_component = [] {
  static_assert(always_false<System, Component>,
                "data.get / data.read / data.write: the component is "
                "optional for this system (read_optional / write_optional), "
                "so an entity may lack it; use data.try_read (data.try_get to "
                "write it), which returns null then (system and component "
                "are named above)");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool random_access_to_written_component_in_split_system = [] {
  static_assert(always_false<System, Component>,
                "data.get / data.read / data.write / data.try_get / "
                "data.try_read by id of a component the system writes, in a "
                "system whose subtasks may run at once (inner parallelism "
                "allowed, .parallelism(...) not none()): another subtask may "
                "write that entity at the same time. Write the current "
                "entity through data.for_each's T& parameter, act on other "
                "entities from a later system (an output, or data.defer), or "
                "declare .parallelism(strata::inner_parallelism::none()) "
                "(system and component are named above)");
  return false;
}();

template <typename System, typename Resource>
inline constexpr bool written_resource_in_split_system = [] {
  static_assert(always_false<System, Resource>,
                "data.resource<T>() of a write_resource<T>() in a system "
                "whose subtasks may run at once (inner parallelism allowed, "
                ".parallelism(...) not none()): every subtask would write it "
                "at the same time. Collect per-subtask results in "
                "data.output() and merge them in a later system, or declare "
                ".parallelism(strata::inner_parallelism::none()) (system and "
                "resource are named above)");
  return false;
}();

template <typename System, typename Parameter>
inline constexpr bool for_each_parameter_not_a_component_reference = [] {
  static_assert(always_false<System, Parameter>,
                "data.for_each(f): f takes an optional leading "
                "strata::entity_id, then components as T& (written) or "
                "const T& (read); the system and the offending parameter type "
                "are named above");
  return false;
}();

template <typename System, typename Component>
inline constexpr bool for_each_component_twice = [] {
  static_assert(always_false<System, Component>,
                "for_each(f): f names the same component in two parameters; "
                "take it once (system and component are named above)");
  return false;
}();

// Culprit: the system whose data.for_each it was (f's type, a lambda, is
// named in the note above and would be spelled twice more); outside a
// system, f.
template <typename SystemOrCallable>
inline constexpr bool for_each_needs_typed_parameters = [] {
  static_assert(always_false<SystemOrCallable>,
                "for_each(f): f's parameter types name the components to "
                "visit, so they must be spelled out: write [](position& p, "
                "const velocity& v) { ... }, not auto");
  return false;
}();

template <typename System, typename Resource>
inline constexpr bool system_uses_undeclared_resource = [] {
  static_assert(always_false<System, Resource>,
                "data.resource<T>(): the system's signature declares no "
                "read_resource<T>() or write_resource<T>(); add one (system "
                "and resource are named above)");
  return false;
}();

template <typename System>
inline constexpr bool system_has_no_output = [] {
  static_assert(always_false<System>,
                "data.output(): this system's signature declares no output; "
                "add .output<T>() to it (the system is named above)");
  return false;
}();

template <typename System, typename Other>
inline constexpr bool output_read_without_dependency = [] {
  static_assert(always_false<System, Other>,
                "for_previous_outputs(st, f): a system reads the output of a "
                "system it does not depend on (directly or transitively), so "
                "that output may not exist yet; add the dependency (reader "
                "and producer are named above)");
  return false;
}();

template <typename System>
inline constexpr bool system_not_in_context = [] {
  static_assert(always_false<System>,
                "this system is not in the context's system_signatures(...) "
                "(it is named above)");
  return false;
}();

template <typename Given>
inline constexpr bool not_an_execution_adapter = [] {
  static_assert(
      always_false<Given>,
      "execute_systems()(...) takes adapters made by execution_adapter::all(), "
      "execution_adapter::t(...) or execution_adapter::matching(...) with "
      ".for_subtasks(f) or "
      ".detailed_instance(f)");
  return false;
}();

template <typename System>
inline constexpr bool system_not_default_constructible = [] {
  static_assert(always_false<System>,
                "a system type is not default-constructible: pass its "
                "constructor arguments to make_context with "
                "strata::system_arguments(st::x, args...) (the system is "
                "named above)");
  return false;
}();

}  // namespace strata::diagnostic

namespace strata::context_internal {

// The system a make_context argument constructs (a system_arguments_t's
// system_type); void for the others (an executor, run options).
template <typename Argument, typename = void>
struct constructed_system {
  using type = void;
};
template <typename Argument>
struct constructed_system<Argument,
                          std::void_t<typename Argument::system_type>> {
  using type = typename Argument::system_type;
};
template <typename Argument>
using constructed_system_t = typename constructed_system<Argument>::type;

// The first system of List (a system_signature_list) that is not
// default-constructible and that no system_arguments_t among Args
// constructs; void if none.
template <typename List, typename... Args>
struct unconstructible_system_of;
template <template <typename...> class L, typename... Signatures,
          typename... Args>
struct unconstructible_system_of<L<Signatures...>, Args...> {
  template <typename System>
  static constexpr bool lacks_arguments =
      !std::is_default_constructible_v<System> &&
      !(std::is_same_v<constructed_system_t<Args>, System> || ...);
  using type = type_at_t<
      index_of_v<std::true_type, type_list<std::bool_constant<lacks_arguments<
                                     typename Signatures::system_type>>...>>,
      type_list<typename Signatures::system_type..., void>>;
};
template <typename List, typename... Args>
using unconstructible_system =
    typename unconstructible_system_of<typename List::signature_types,
                                       Args...>::type;

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_DIAGNOSTICS_H_
