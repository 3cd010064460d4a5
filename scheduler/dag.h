// The system dependency DAG, derived and checked at compile time.
//
//   constexpr auto systems = strata::system_signatures(
//       strata::system_signature::make(st::acceleration)
//           .write(ct::velocity),
//       strata::system_signature::make(st::movement)
//           .read(ct::velocity)
//           .write(ct::position)
//           .dependencies(st::acceleration));
//
// `system_signatures(...)` rejects, with a static_assert that names the
// culprits (meta/diagnostic.h): a system listed twice; a dependency on a
// system not in the list; dependency cycles (every independent one, each as
// `cycle<systems...>` in dependency order); and *data races*: two systems
// that no chain of dependencies orders, where one writes a component (or a
// resource) the other reads or writes; optional access counts like required
// access. Every racing pair is named, as `race<system, system, item>`, in
// one report. Then the effect channel's rule: every system that receives
// a message type depends on every system that sends it
// (internal/message_check.h). The checks run when the call is compiled, so the
// first error of a broken list comes before any context is instantiated.
// `check_components_stored(components, systems)` adds: a system that names a
// component no component signature stores; `check_resources_declared` a
// resource the settings do not declare (the context settings check both as
// soon as they hold the lists).
//
// The resulting `system_signature_list` (spelled `strata::systems<...>`,
// flat: each system type followed by its lists) answers, in constant
// expressions:
// system ids (`id(st::x)`, declaration order), direct dependencies and
// dependents (`dependencies_of<I>`, `dependents_of<I>`), reachability
// (`runs_before(a, b)`: b depends on a, directly or transitively), a
// topological order, the start nodes (no dependencies), and
// `chain_size(starts)`: how many distinct systems run when the given systems
// start and every dependent follows (scheduler/chain.h).
//
// Cost: O(N^3 / 64) constexpr steps for N systems (transitive closure, on
// 64-bit words); 64 systems compile in well under a second. Nothing here
// runs at run time.
#ifndef STRATA_SCHEDULER_DAG_H_
#define STRATA_SCHEDULER_DAG_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/internal/flat_tuple.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"
#include "scheduler/chain.h"
#include "scheduler/dependency_graph.h"
#include "scheduler/internal/list_checks.h"
#include "scheduler/internal/message_check.h"
#include "scheduler/internal/race_check.h"
#include "scheduler/system_signature.h"

namespace strata {

namespace dag_internal {

// What a list of system signatures answers (system_signature_list, below).
template <typename... Signatures>
struct signature_list {
  base_internal::flat_tuple<Signatures...> signatures;

  using signature_types = type_list<Signatures...>;
  using system_types = type_list<typename Signatures::system_type...>;
  static constexpr std::size_t count = sizeof...(Signatures);

  template <typename System>
  static constexpr bool has_system = contains_v<System, system_types>;

  template <typename System>
  static constexpr std::size_t id_of() {
    static_assert(has_system<System>,
                  "this system is not in system_signatures(...)");
    return index_of_v<System, system_types>;
  }
  template <tag_value Tag>
  static constexpr std::size_t id(Tag) {
    return id_of<tag_type<Tag>>();
  }

  template <std::size_t I>
  using signature_at = type_at_t<I, signature_types>;
  template <std::size_t I>
  using system_at = type_at_t<I, system_types>;

  template <std::size_t I>
  constexpr const signature_at<I>& signature() const {
    return base_internal::get<I>(signatures);
  }

  static constexpr dependency_graph<count> graph = [] {
    dependency_graph<count> g;
    [[maybe_unused]] std::size_t i = 0;
    (
        [&]<typename... Deps>(type_list<Deps...>) {
          // Unknown dependencies are reported by system_signatures(), and a
          // dependency on itself by the signature; skip them here so that
          // report is the only error.
          ((contains_v<Deps, system_types> &&
                    index_of_v<Deps, system_types> != i
                ? void(g.depends[i][index_of_v<Deps, system_types>] = true)
                : void()),
           ...);
          ++i;
        }(typename Signatures::dependency_types{}),
        ...);
    return g;
  }();

  static constexpr auto before = graph.transitive_closure();
  static constexpr auto topological_order = graph.topological_order();

  // True when `later` depends on `earlier`, directly or transitively.
  static constexpr bool runs_before(std::size_t earlier, std::size_t later) {
    return before[earlier][later];
  }
  // Neither system can run at the same time as the other.
  static constexpr bool ordered(std::size_t a, std::size_t b) {
    return a == b || before[a][b] || before[b][a];
  }

  template <std::size_t I>
  static constexpr auto dependencies_of = [] {
    std::array<std::size_t, graph.dependency_count(I)> ids{};
    std::size_t n = 0;
    for (std::size_t j = 0; j < count; ++j) {
      if (graph.depends[I][j]) ids[n++] = j;
    }
    return ids;
  }();

  template <std::size_t I>
  static constexpr auto dependents_of = [] {
    std::array<std::size_t, graph.dependent_count(I)> ids{};
    std::size_t n = 0;
    for (std::size_t j = 0; j < count; ++j) {
      if (graph.depends[j][I]) ids[n++] = j;
    }
    return ids;
  }();

  static constexpr std::array<bool, count> start_nodes = [] {
    std::array<bool, count> starts{};
    for (std::size_t i = 0; i < count; ++i) {
      starts[i] = graph.dependency_count(i) == 0;
    }
    return starts;
  }();

  template <std::size_t K>
  static constexpr std::array<bool, count> as_flags(
      const std::array<std::size_t, K>& ids) {
    std::array<bool, count> flags{};
    for (std::size_t id : ids) flags[id] = true;
    return flags;
  }

  // The systems that run when `starts` start and their dependents follow
  // (from the precomputed closure: no O(N^3) work per call site).
  static constexpr std::array<bool, count> chain(
      const std::array<bool, count>& starts) {
    std::array<bool, count> in = starts;
    for (std::size_t s = 0; s < count; ++s) {
      if (!starts[s]) continue;
      for (std::size_t i = 0; i < count; ++i) in[i] = in[i] || before[s][i];
    }
    return in;
  }

  // Distinct systems that run when `starts` start and their dependents
  // follow.
  template <std::size_t K>
  static constexpr std::size_t chain_size(
      const std::array<std::size_t, K>& starts) {
    return ::strata::chain_size(graph.depends, as_flags(starts));
  }
  static constexpr std::size_t chain_size_of_all() {
    return ::strata::chain_size(graph.depends, start_nodes);
  }
};

// The signatures of a flat spelling (strata::systems, below): a system
// type starts a signature, and each list after it is one of its lists.
// Done is a type_list of the signatures complete, Current the one being
// read (void before the first).
template <typename Done, typename Current, typename... Parts>
struct unflatten {
  using type = Done;
};
template <typename... Done, typename Current>
struct unflatten<type_list<Done...>, Current> {
  using type = type_list<Done..., Current>;
};
template <typename... Done>
struct unflatten<type_list<Done...>, void> {
  using type = type_list<Done...>;
};
template <bool IsList, typename Done, typename Current, typename... Parts>
struct unflatten_step;
template <typename Done, typename Current, typename Part, typename... Rest>
struct unflatten<Done, Current, Part, Rest...>
    : unflatten_step<system_signature::signature_internal::is_list_v<Part>,
                     Done, Current, Part, Rest...> {};
template <typename Done, typename System, typename... Lists, typename Part,
          typename... Rest>
struct unflatten_step<true, Done, signature<System, Lists...>, Part, Rest...>
    : unflatten<Done, signature<System, Lists..., Part>, Rest...> {};
template <typename... Done, typename Current, typename Part, typename... Rest>
struct unflatten_step<false, type_list<Done...>, Current, Part, Rest...>
    : unflatten<type_list<Done..., Current>, signature<Part>, Rest...> {};
template <typename Part, typename... Rest>
struct unflatten_step<false, type_list<>, void, Part, Rest...>
    : unflatten<type_list<>, signature<Part>, Rest...> {};

template <typename Signatures>
struct list_of;
template <typename... Signatures>
struct list_of<type_list<Signatures...>> {
  using type = signature_list<Signatures...>;
};

// A signature's parts: its system, then its lists.
template <typename Signature>
struct parts_of;
template <typename System, typename... Lists>
struct parts_of<signature<System, Lists...>> {
  using type = type_list<System, Lists...>;
};
template <typename Parts>
struct spelled;

}  // namespace dag_internal

// The checked list system_signatures(...) builds, named
// system_signature_list in code. Compilers spell it in every note about a
// context made from settings passed by value, so its type spells each
// signature flat, without a wrapper: its system, then its lists
// (`strata::systems<producer, strata::outputs<hits>, consumer,
// strata::reads<position>, strata::depends_on<producer>>`), and it has a
// short name in namespace strata.
template <typename... Parts>
struct systems : dag_internal::list_of<typename dag_internal::unflatten<
                     type_list<>, void, Parts...>::type>::type {};

namespace dag_internal {
template <typename... Parts>
struct spelled<type_list<Parts...>> {
  using type = systems<Parts...>;
};
}  // namespace dag_internal

template <typename... Signatures>
using system_signature_list = typename dag_internal::spelled<
    concat_t<typename dag_internal::parts_of<Signatures>::type...>>::type;

namespace system_signature {
template <typename... Signatures>
using list = system_signature_list<Signatures...>;
}  // namespace system_signature

template <typename T>
inline constexpr bool is_system_signature_list_v = false;
template <typename... Parts>
inline constexpr bool is_system_signature_list_v<systems<Parts...>> = true;

// Builds the checked list. The checks run when this function is
// instantiated (it returns auto), in order, and stop at the first broken
// rule: a system listed twice, an unknown dependency, cycles (all of them),
// races (all of them). Each rule is named here, in this function, so the
// compiler's notes spell the list once (meta/diagnostic.h).
template <typename... Signatures>
constexpr auto system_signatures(Signatures... signatures) {
  static_assert(
      (is_system_signature_v<Signatures> && ...),
      "system_signatures(...) takes system_signature::make(...) signatures");
  using list = system_signature_list<Signatures...>;
  using systems = typename list::system_types;
  using unknown = dag_internal::unknown_dependency<list>;
  constexpr std::size_t duplicate = first_duplicate_index_v<systems>;
  if constexpr (duplicate < list::count) {
    diagnostic::report(
        diagnostic::system_listed_twice<type_at_t<duplicate, systems>>);
  } else if constexpr (unknown::found) {
    diagnostic::report(
        diagnostic::dependency_on_unknown_system<typename unknown::system,
                                                 typename unknown::item>);
  } else if constexpr (dependency_graph<list::count>::first_node_on_cycle(
                           list::before) < list::count) {
    diagnostic::report(dag_internal::cycles_reported<
                       typename dag_internal::cycle_types<list>::type>);
  } else {
    using races = typename dag_internal::races_of<list, Signatures...>::type;
    if constexpr (size_v < races >> 0) {
      diagnostic::report(dag_internal::races_reported<races>);
    } else if constexpr (sizeof...(Signatures) > 0) {
      // (An empty list has no receiver; the check names its systems.)
      using unordered = dag_internal::unordered_message<list>;
      if constexpr (unordered::found) {
        diagnostic::report(
            diagnostic::message_received_before_sent<
                typename unordered::receiver, typename unordered::sender,
                typename unordered::message>);
      }
    }
  }
  return list{
      {base_internal::flat_tuple<Signatures...>(std::in_place, signatures...)}};
}

// Every component a system signature names (read, write, optional or
// excluded) must be stored by a component signature. `Components` is a
// component_signature_list (anything with a `stores<T>` member). The
// context settings check this as soon as they hold both lists.
template <typename Components, typename... Parts>
constexpr auto check_components_stored(const Components&,
                                       const systems<Parts...>&) {
  using missing =
      dag_internal::unstored_component<Components, systems<Parts...>>;
  if constexpr (missing::found) {
    diagnostic::report(
        diagnostic::system_component_not_stored<typename missing::system,
                                                typename missing::item>);
  }
  return !missing::found;
}

// Every resource a system signature reads or writes must be declared by the
// context settings. `Resources` is a resource list (anything with a
// `declares<T>` member, context/resources.h).
template <typename Resources, typename... Parts>
constexpr auto check_resources_declared(const Resources&,
                                        const systems<Parts...>&) {
  using missing =
      dag_internal::undeclared_resource<Resources, systems<Parts...>>;
  if constexpr (missing::found) {
    diagnostic::report(
        diagnostic::system_resource_not_declared<typename missing::system,
                                                 typename missing::item>);
  }
  return !missing::found;
}

}  // namespace strata

#endif  // STRATA_SCHEDULER_DAG_H_
