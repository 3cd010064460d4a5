// The system dependency DAG, derived and checked at compile time.
//
//   namespace ss = strata::system_signature;  // or strata::ss
//   constexpr auto systems = strata::system_signatures(
//       ss::make(st::acceleration).write(ct::velocity),
//       ss::make(st::movement).read(ct::velocity).write(ct::position)
//           .dependencies(st::acceleration));
//
// `system_signatures(...)` rejects, each with one static_assert that names the
// culprits: a system listed twice; a dependency on a system not in the list;
// a dependency cycle (naming the systems of one, in order); and a *data race*:
// two systems that no chain of dependencies orders, where one writes a
// component (or a resource) the other reads or writes; optional access counts
// like required access. Every racing pair is reported in the same compile.
// `check_components_stored(components, systems)` adds: a system that names a
// component no component signature stores; `check_resources_declared` a
// resource the settings do not declare.
//
// The resulting `system_signature_list` answers, in constant expressions:
// system ids (`id(st::x)`, declaration order), direct dependencies and
// dependents (`dependencies_of<I>`, `dependents_of<I>`), reachability
// (`runs_before(a, b)`: b depends on a, directly or transitively), a
// topological order, the start nodes (no dependencies), and
// `chain_size(starts)`: how many distinct systems run when the given systems
// start and every dependent follows (scheduler/chain.h, seed 000).
//
// Cost: O(N^3) constexpr steps for N systems (transitive closure); 64 systems
// compile in well under a second. Nothing here runs at run time.
#ifndef STRATA_SCHEDULER_DAG_H_
#define STRATA_SCHEDULER_DAG_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/internal/flat_tuple.h"
#include "scheduler/chain.h"
#include "scheduler/dependency_graph.h"
#include "scheduler/internal/race_check.h"
#include "scheduler/signature.h"
#include "settings/diagnostic.h"
#include "settings/tag.h"
#include "settings/type_list.h"

namespace strata {

namespace diagnostic {

template <typename System>
struct system_listed_twice {
  static_assert(always_false<System>,
                "system_signatures(...) lists the same system twice; give "
                "each system one signature (the system is named above)");
};

template <typename System, typename Dependency>
struct dependency_on_unknown_system {
  static_assert(always_false<System, Dependency>,
                "a system depends on a system that is not in "
                "system_signatures(...); add its signature or remove the "
                "dependency (both are named above)");
};

// The systems of one cycle, each depending on the next and the last on the
// first.
template <typename... Systems>
struct dependency_cycle {
  static_assert(always_false<Systems...>,
                "the system dependencies form a cycle, so no order can run "
                "them; the systems named above are the cycle, each depending "
                "on the next and the last on the first: remove one of these "
                "dependencies");
};

template <typename System, typename Resource>
struct system_resource_not_declared {
  static_assert(always_false<System, Resource>,
                "a system signature uses a resource that the context "
                "settings do not declare; add strata::resource<T> to "
                "settings().resources(strata::resources(...)) (system and "
                "resource are named above)");
};

template <typename System, typename Component>
struct system_component_not_stored {
  static_assert(always_false<System, Component>,
                "a system signature uses a component that no component "
                "signature stores; add it to component_signatures(...) "
                "(system and component are named above)");
};

}  // namespace diagnostic

template <typename... Signatures>
struct system_signature_list {
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
          // Unknown dependencies are reported by system_signatures(); skip
          // them here so that report is the only error.
          ((contains_v<Deps, system_types>
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

template <typename T>
inline constexpr bool is_system_signature_list_v = false;
template <typename... S>
inline constexpr bool is_system_signature_list_v<system_signature_list<S...>> =
    true;

namespace dag_internal {

// Names the systems of the shortest cycle through system `Start`.
template <typename List, std::size_t Start>
struct cycle_report {
  static constexpr auto found = List::graph.cycle_through(Start);
  template <std::size_t... K>
  static constexpr void report(std::index_sequence<K...>) {
    diagnostic::report<diagnostic::dependency_cycle<
        typename List::template system_at<found.nodes[K]>...>>();
  }
};

// (list index, item index) of the first item, across one type_list per
// signature, that `keep(tag<T>)` rejects; {number of lists, 0} if none.
template <typename Keep, typename... Lists>
constexpr std::array<std::size_t, 2> first_rejected([[maybe_unused]] Keep keep,
                                                    Lists...) {
  std::array<std::size_t, 2> found{sizeof...(Lists), 0};
  [[maybe_unused]] std::size_t list = 0;
  (
      [&]<typename... Ts>(type_list<Ts...>) {
        const bool kept[] = {keep(tag<Ts>)..., true};
        for (std::size_t k = 0; k < sizeof...(Ts); ++k) {
          if (!kept[k] && found[0] == sizeof...(Lists)) found = {list, k};
        }
        ++list;
      }(Lists{}),
      ...);
  return found;
}

template <typename List, typename... Signatures>
constexpr void check_dependencies_known() {
  using systems = typename List::system_types;
  // (system index, dependency index within its list) of the first unknown.
  constexpr auto unknown = first_rejected(
      [](auto dependency) {
        return contains_v<typename decltype(dependency)::type, systems>;
      },
      typename Signatures::dependency_types{}...);
  if constexpr (unknown[0] < List::count) {
    using culprit = typename List::template signature_at<unknown[0]>;
    diagnostic::report<diagnostic::dependency_on_unknown_system<
        typename culprit::system_type,
        type_at_t<unknown[1], typename culprit::dependency_types>>>();
  }
}

}  // namespace dag_internal

// Builds the checked list. Checks run in order and stop at the first broken
// rule, so one misuse gives one error.
template <typename... Signatures>
constexpr auto system_signatures(Signatures... signatures) {
  static_assert(
      (is_system_signature_v<Signatures> && ...),
      "system_signatures(...) takes system_signature::make(...) signatures");
  using list = system_signature_list<Signatures...>;
  using systems = typename list::system_types;
  constexpr std::size_t duplicate = first_duplicate_index_v<systems>;
  if constexpr (duplicate < list::count) {
    diagnostic::report<
        diagnostic::system_listed_twice<type_at_t<duplicate, systems>>>();
  } else {
    dag_internal::check_dependencies_known<list, Signatures...>();
    constexpr std::size_t on_cycle = list::graph.first_node_on_cycle();
    if constexpr (on_cycle < list::count) {
      using cycle = dag_internal::cycle_report<list, on_cycle>;
      cycle::report(std::make_index_sequence<cycle::found.size>{});
    } else {
      dag_internal::check_races<list, Signatures...>();
    }
  }
  return list{
      base_internal::flat_tuple<Signatures...>(std::in_place, signatures...)};
}

// Every component a system signature names (read, write, optional or
// excluded) must be stored by a component signature. `Components` is a
// component_signature_list (anything with a `stores<T>` member).
template <typename Components, typename... Signatures>
constexpr void check_components_stored(
    const Components&, const system_signature_list<Signatures...>&) {
  using list = system_signature_list<Signatures...>;
  constexpr auto missing = dag_internal::first_rejected(
      [](auto component) {
        return Components::template stores<typename decltype(component)::type>;
      },
      typename Signatures::mentioned_types{}...);
  if constexpr (missing[0] < list::count) {
    using culprit = typename list::template signature_at<missing[0]>;
    diagnostic::report<diagnostic::system_component_not_stored<
        typename culprit::system_type,
        type_at_t<missing[1], typename culprit::mentioned_types>>>();
  }
}

// Every resource a system signature reads or writes must be declared by the
// context settings. `Resources` is a resource list (anything with a
// `declares<T>` member, context/resources.h).
template <typename Resources, typename... Signatures>
constexpr void check_resources_declared(
    const Resources&, const system_signature_list<Signatures...>&) {
  using list = system_signature_list<Signatures...>;
  constexpr auto missing = dag_internal::first_rejected(
      [](auto resource) {
        return Resources::template declares<typename decltype(resource)::type>;
      },
      typename Signatures::accessed_resource_types{}...);
  if constexpr (missing[0] < list::count) {
    using culprit = typename list::template signature_at<missing[0]>;
    diagnostic::report<diagnostic::system_resource_not_declared<
        typename culprit::system_type,
        type_at_t<missing[1], typename culprit::accessed_resource_types>>>();
  }
}

}  // namespace strata

#endif  // STRATA_SCHEDULER_DAG_H_
