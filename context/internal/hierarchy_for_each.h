// Internal to //context: data.for_each_with_parent(ct::x, f) in a system
// declared .in_hierarchy_order() (context/data_proxy.h has the contract):
// f([entity_id,] const T* parent, components...) for each entity, the
// parent's T handed in (null for a root or a parent without T).
//
// How. The callable is wrapped in a parent_passing whose operator()
// declares f's parameters but the parent, and given to data.for_each, so
// the components are checked and reached exactly as for_each's (the same
// rules, messages, change stamps and loop). The hierarchy loop
// (internal/hierarchy_loop.h) recognizes the wrapper and, for each visit,
// reads the parent's T itself from the level entry it already holds (the
// parent's index), through a parent_reader copied into the loop: one
// indexed load, no id, no cursor, no check that the caller named the
// visited entity. Race-free by construction: the parent is in the level
// before, finished before this one starts, and reached as const.
//
// Misuse, at compile time with Strata's message (parent_pass_check finds
// it, the proxy's member reports the rule; data_proxy.h includes this
// header itself, so that a report's include chain stays short): outside a
// system in hierarchy order; x not declared by the system; f generic (auto);
// f's parameter after the optional entity_id not `const T*` of x's type.
#ifndef STRATA_CONTEXT_INTERNAL_HIERARCHY_FOR_EACH_H_
#define STRATA_CONTEXT_INTERNAL_HIERARCHY_FOR_EACH_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "context/internal/for_each.h"
#include "context/internal/hierarchy_storage.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace context_internal {
// data.for_each_with_parent(ct::x, f): what is wrong, when something is
// (parent_pass_check below).
enum class parent_pass_problem {
  none,
  outside_hierarchy_order,  // the system does not declare it
  undeclared,               // x not in the system's signature
  untyped,                  // f's parameters not spelled out (auto)
  not_const_pointer,        // the parent parameter is not const T*
};
}  // namespace context_internal

namespace diagnostic {

// One rule per problem; Given: f's parameter in the parent's place.
template <context_internal::parent_pass_problem Problem, typename System,
          typename Component, typename Given>
inline constexpr bool parent_pass_misuse = true;
template <typename System, typename Component, typename Given>
inline constexpr bool parent_pass_misuse<
    context_internal::parent_pass_problem::outside_hierarchy_order, System,
    Component, Given> = [] {
  static_assert(always_false<System, Component>,
                "data.for_each_with_parent(ct::x, f) in a system whose "
                "signature does not declare .in_hierarchy_order() (system "
                "and component named above): add it, so that parents are "
                "visited, and written, before their children");
  return false;
}();
template <typename System, typename Component, typename Given>
inline constexpr bool
    parent_pass_misuse<context_internal::parent_pass_problem::undeclared,
                       System, Component, Given> = [] {
      static_assert(always_false<System, Component>,
                    "data.for_each_with_parent(ct::x, f): the system's "
                    "signature does not declare x (system and component named "
                    "above); add it to .read(...) or .write(...)");
      return false;
    }();
template <typename System, typename Component, typename Given>
inline constexpr bool parent_pass_misuse<
    context_internal::parent_pass_problem::untyped, System, Component, Given> =
    [] {
      static_assert(always_false<System, Component>,
                    "data.for_each_with_parent(ct::x, f): f's parameter types "
                    "name the parent and the components, so they must be "
                    "spelled out: [](const T* parent, T& self, ...) { ... }, "
                    "not auto");
      return false;
    }();
template <typename System, typename Component, typename Given>
inline constexpr bool
    parent_pass_misuse<context_internal::parent_pass_problem::not_const_pointer,
                       System, Component, Given> = [] {
      static_assert(always_false<System, Component, Given>,
                    "data.for_each_with_parent(ct::x, f): f's parameter after "
                    "the optional entity_id must be `const T*`, T the type of "
                    "x (system, x's type and the parameter given are named "
                    "above): [](const T* parent, T& self, ...) { ... }");
      return false;
    }();

}  // namespace diagnostic

}  // namespace strata

namespace strata::context_internal {

// The parent's T of a visit, from the parent's index `up` (a live entity:
// the loop asks for entities with a parent only, a root's is null): null
// when `tested` and the parent has no T. Never null otherwise, which the
// compiler is told, so that f's test of the pointer folds away.
template <typename T, std::size_t Bit, bool Required, typename Access>
struct parent_reader {
  static constexpr bool required = Required;
  Access access;
  bool tested = true;  // false: every parent has T (the loop decides)
  template <typename Entities>
  [[gnu::always_inline]] inline const T* operator()(const Entities& entities,
                                                    std::size_t up) const {
    if (tested && !entities.metadata_at(up).components.test(Bit)) {
      return nullptr;
    }
    entity_id id;
    if constexpr (!Access::by_index) id = entities.live_id_at(up);
    const T* component = &access(entities, up, id);
    if (component == nullptr) __builtin_unreachable();  // an object's address
    return component;
  }
};

// f wrapped for data.for_each: operator() has f's parameters but the
// parent (P...: the optional id, then the components); the hierarchy loop
// calls with_parent instead. operator() alone (a loop that knows no
// parents) passes null.
template <bool TakesId, typename T, typename F, typename Reader, typename... P>
struct parent_passing {
  using parent_reader_type = Reader;
  F& f;
  Reader reader;
  void operator()(P... p) const { with_parent(nullptr, std::forward<P>(p)...); }
  template <typename... A>
  [[gnu::always_inline]] inline void with_parent(const T* parent,
                                                 A&&... a) const {
    if constexpr (TakesId) {
      call_id_first(parent, std::forward<A>(a)...);
    } else {
      f(parent, std::forward<A>(a)...);
    }
  }
  template <typename Id, typename... A>
  [[gnu::always_inline]] inline void call_id_first(const T* parent, Id&& id,
                                                   A&&... a) const {
    f(std::forward<Id>(id), parent, std::forward<A>(a)...);
  }
};

template <typename F>
concept passes_parent = requires {
  typename std::remove_cvref_t<F>::parent_reader_type;
};

// f's parameters without the one at `At` (the parent).
template <std::size_t At, typename Before, typename After>
struct without_parameter;
template <typename... B, typename Skipped, typename... A>
struct without_parameter<0, type_list<B...>, type_list<Skipped, A...>> {
  using type = type_list<B..., A...>;
};
template <std::size_t At, typename... B, typename First, typename... A>
struct without_parameter<At, type_list<B...>, type_list<First, A...>>
    : without_parameter<At - 1, type_list<B..., First>, type_list<A...>> {};

template <bool TakesId, typename T, typename F, typename Reader,
          typename Parameters>
struct parent_passing_for;
template <bool TakesId, typename T, typename F, typename Reader, typename... P>
struct parent_passing_for<TakesId, T, F, Reader, type_list<P...>> {
  using type = parent_passing<TakesId, T, F, Reader, P...>;
};

// What is wrong with data.for_each_with_parent(x, f) in a system with
// signature Signature, T being x's type: computed without reporting, so
// that data_proxy::for_each_with_parent names the rule itself
// (diagnostic::parent_pass_misuse above). `given`:
// f's parameter in the parent's place (void when f has none).
template <typename T, typename Signature, typename F>
struct parent_pass_check {
  using parameters = callable_parameters<std::remove_cvref_t<F>>;
  using all = typename parameters::type;
  using padded = concat_t<all, type_list<void, void>>;
  static constexpr bool takes_id = is_id_parameter_v<type_at_t<0, padded>>;
  static constexpr std::size_t at = takes_id ? 1 : 0;
  using given = type_at_t<at, padded>;
  static constexpr parent_pass_problem problem =
      !Signature::visits_in_hierarchy_order
          ? parent_pass_problem::outside_hierarchy_order
      : !contains_v<T, typename Signature::accessed_types>
          ? parent_pass_problem::undeclared
      : !parameters::known ? parent_pass_problem::untyped
      : !std::is_same_v<given, const T*>
          ? parent_pass_problem::not_const_pointer
          : parent_pass_problem::none;
};

// data.for_each_with_parent once checked: proxy.for_each of the wrapper.
template <typename T, typename Types, typename Signature, bool Checked,
          typename Proxy, typename Storage, typename F>
void for_each_with_parent(Proxy& proxy, Storage& storage, F& f) {
  using check = parent_pass_check<T, Signature, F>;
  using access_type = component_access<T, Storage, Checked>;
  using reader_type =
      parent_reader<T, Types::component_list::template id_of<T>(),
                    contains_v<T, typename Signature::required_types>,
                    access_type>;
  using rest = typename without_parameter<check::at, type_list<>,
                                          typename check::all>::type;
  typename parent_passing_for<check::takes_id, T, F, reader_type, rest>::type
      wrapper{f, reader_type{access_type(storage)}};
  proxy.for_each(wrapper);
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_HIERARCHY_FOR_EACH_H_
