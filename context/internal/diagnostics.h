// The compile-time rules of the context's proxies and adapters, each a
// static_assert whose template arguments name the culprits
// (settings/diagnostic.h explains the pattern). Internal: users meet these
// only as error messages.
#ifndef STRATA_CONTEXT_INTERNAL_DIAGNOSTICS_H_
#define STRATA_CONTEXT_INTERNAL_DIAGNOSTICS_H_

#include "settings/diagnostic.h"

namespace strata::diagnostic {

template <typename System, typename Component>
struct system_uses_undeclared_component {
  static_assert(always_false<System, Component>,
                "a system reads or writes a component its signature does not "
                "declare; add it to .read(...) or .write(...) of that system "
                "(system and component are named above)");
};

template <typename System>
struct system_has_no_output {
  static_assert(always_false<System>,
                "data.output(): this system's signature declares no output; "
                "add .output<T>() to it (the system is named above)");
};

template <typename System, typename Other>
struct output_read_without_dependency {
  static_assert(always_false<System, Other>,
                "for_previous_outputs(st, f): a system reads the output of a "
                "system it does not depend on (directly or transitively), so "
                "that output may not exist yet; add the dependency (reader "
                "and producer are named above)");
};

template <typename System>
struct system_not_in_context {
  static_assert(always_false<System>,
                "this system is not in the context's system_signatures(...) "
                "(it is named above)");
};

template <typename Given>
struct not_an_execution_adapter {
  static_assert(always_false<Given>,
                "execute_systems()(...) takes adapters made by sea::all(), "
                "sea::t(...) or sea::matching(...) with .for_subtasks(f) or "
                ".detailed_instance(f)");
};

}  // namespace strata::diagnostic

#endif  // STRATA_CONTEXT_INTERNAL_DIAGNOSTICS_H_
