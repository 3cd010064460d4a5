// System signatures: what a system reads, writes, depends on and outputs.
//
//   constexpr auto movement = strata::system_signature::make(st::movement)
//       .read(ct::velocity)
//       .write(ct::position)           // write implies read
//       .exclude(ct::frozen)           // entities with frozen are not in it
//       .read_optional(ct::drag)       // data.try_read(ct::drag, e): const T*
//       .read_resource<wind>()         // data.resource<wind>(): const wind&
//       .changed(ct::velocity)         // only entities whose velocity
//                                      // changed since movement last ran
//       .dependencies(st::acceleration)
//       .parallelism(strata::inner_parallelism::split_evenly_per_core())
//       .output<std::vector<contact>>();
//
//   constexpr auto gunnery = strata::system_signature::make(st::gunnery)
//       .read(ct::weapon)
//       .sends<damage>();              // data.send(sender, target, damage{3})
//   constexpr auto hull = strata::system_signature::make(st::hull)
//       .write(ct::health)
//       .receives<damage>()            // data.messages(mt::damage, id)
//       .dependencies(st::gunnery);    // after every sender of damage
//
//   strata::system_signature::make(st::propagate)
//       .write(ct::world).read(ct::local)
//       .in_hierarchy_order();         // parents before children
//   strata::system_signature::make(st::draw).read(ct::sprite)
//       .ordered_by(ct::sprite, strata::order_by_member<&sprite::depth>);
//
// What the lists mean:
//   * read(c...), write(c...): the REQUIRED components. The system's
//     entities are those that have every one of them (and none of
//     exclude()); write() allows writing, read() only reading.
//   * read_optional(c...), write_optional(c...): components the system may
//     access on entities that happen to have them (try_get); they do not
//     decide which entities the system sees.
//   * exclude(c...): entities with any of these are not the system's.
//   * read_resource<T>(), write_resource<T>(): global singletons declared in
//     the context settings (strata::resources(strata::resource<T>...)).
//   * changed(c...), added(c...): change filters. The system's for_each
//     and for_entities visit only entities whose c was written (changed)
//     or added (added) since this system's previous run, for any one of the
//     listed components (docs/guide/09-reacting-to-change.md says what
//     counts as a write). Each c must be a required component, listed in
//     read() or write() before the filter (a compile error otherwise). A
//     component is tracked only if some system filters on it.
//   * sends<T...>(), receives<T...>(): the effect channel
//     (context/effect_channel.h). A system that sends T may call
//     data.send(sender, target, T{...}); one that receives T reads, after
//     every sender of T ran, the messages sent to each entity. A message type
//     is plain data: trivially copyable and default-constructible (a compile
//     error otherwise). system_signatures(...) requires every receiver of T
//     to depend, directly or transitively, on every system that sends T (a
//     compile error naming the three otherwise; a system cannot receive a
//     type it sends).
//   * in_hierarchy_order(): the system visits its entities parents before
//     children, one depth level after another (context/hierarchy.h; the
//     settings must declare a hierarchy), and may read its entities'
//     parents' components, written ones included (data.parent(ct::x, e)):
//     each level is split across subtasks only once the level above is
//     done. `visits_in_hierarchy_order` says whether it was set.
//   * ordered_by(ct::x[, compare]): for_each and for_entities visit the
//     system's entities in ascending order of their x, by `compare` (x's
//     operator< by default: strata::order_by_less; a member's operator<:
//     strata::order_by_member<&T::m>; or any stateless callable
//     bool(const T&, const T&) that is a strict weak order), ties by entity
//     index: exactly a std::stable_sort of the keys over ascending indices.
//     x must be in read() or write(), listed before; it is copied (the
//     order keeps each entity's key to see which changed), so it must be
//     copyable. Subtasks take contiguous chunks of the order
//     (context/internal/ordered_sequence.h). A system has one order:
//     ordered_by and in_hierarchy_order exclude each other.
//     `visits_in_component_order` says whether it was set,
//     `order_component_type` and `order_compare_type` name the two.
// Every access list counts for the data-race check (scheduler/dag.h):
// optional access exactly like required access, resources like components.
//
// Each setter may be used once per signature (a second call is a compile
// error naming it; the lists are then merged, so that error is the only
// one), a component may appear in only one of the five component lists, and
// a list may not repeat a tag.
//
// The information lives in the signature's type, which holds the system and,
// in the order they were set, only the lists that were set, so compiler
// messages spell a signature in about as many characters as its
// declaration:
//   make(st::s1).write(ct::c1).read(ct::c2).dependencies(st::s0) is a
//   strata::signature<s1, strata::writes<c1>, strata::reads<c2>,
//       strata::depends_on<s0>>
// (the setters are in namespace `strata::system_signature`; `strata::ss` is
// an optional short alias of it). The signature and its lists are declared
// in namespace strata with short names: compilers spell them in every note
// about a context made from settings passed by value.
// The signature exposes the lists as `read_types`, `write_types`,
// `optional_read_types`, `optional_write_types`, `excluded_types`,
// `read_resource_types`, `write_resource_types`, `dependency_types`,
// `changed_types`, `added_types`, `sent_types`, `received_types` (type_lists),
// `output_type` (`no_output` by default); derived: `required_types` (read +
// write), `accessed_types` (everything the system may read), `written_types`
// (everything it may write). The parallelism strategy is a value
// (`parallelism_strategy()`), since strategies may carry run-time numbers.
// Without `.parallelism(...)` a system uses `default_parallelism`: the
// context's choice.
//
// Signatures are constexpr literal values; nothing here costs run time.
// The orders and their comparisons are in scheduler/signature_order.h; the
// lists a signature's type holds, with their queries, in
// internal/signature_lists.h; its rules in internal/signature_rules.h, and
// the checks its setters run in internal/signature_checks.h.
#ifndef STRATA_SCHEDULER_SYSTEM_SIGNATURE_H_
#define STRATA_SCHEDULER_SYSTEM_SIGNATURE_H_

#include <cstddef>
#include <iosfwd>
#include <type_traits>

#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"
#include "scheduler/internal/signature_checks.h"
#include "scheduler/internal/signature_lists.h"
#include "scheduler/internal/signature_rules.h"
#include "scheduler/signature_order.h"

namespace strata {

// The output type of a system that has none.
struct no_output {};

// Placeholder strategy: let the context decide how to split the system.
// Described (scheduler/inner_parallelism.h) as "context default"; defined
// in system_signature.cc, since this header does not include <string> (a
// caller does, as for any strategy's describe()).
struct default_parallelism {
  std::string describe() const;
};

// A system's signature: the system, then the lists set, in the order they
// were set. Declared in namespace strata, not system_signature, because
// compilers spell it in every note about a context made from settings
// passed by value; system_signature::signature names it too.
template <typename System, typename... Lists>
struct signature {
  template <typename Like>
  using items =
      system_signature::signature_internal::items_like_t<Like, Lists...>;

  using system_type = System;
  using read_types = items<strata::reads<>>;
  using write_types = items<strata::writes<>>;
  using optional_read_types = items<strata::reads_optional<>>;
  using optional_write_types = items<strata::writes_optional<>>;
  using excluded_types = items<strata::excludes<>>;
  using read_resource_types = items<strata::reads_resource<>>;
  using write_resource_types = items<strata::writes_resource<>>;
  using dependency_types = items<strata::depends_on<>>;
  using changed_types = items<strata::changed<>>;
  using added_types = items<strata::added<>>;
  // Message types of the effect channel (context/effect_channel.h).
  using sent_types = items<strata::sends<>>;
  using received_types = items<strata::receives<>>;
  // Whether the system's iteration is restricted by changed() or added().
  static constexpr bool has_change_filter =
      size_v<changed_types> + size_v<added_types> > 0;
  // What an entity must have to be the system's: read() and write().
  using required_types = concat_t<read_types, write_types>;
  // Every component the system may read, and may write.
  using accessed_types = concat_t<read_types, write_types, optional_read_types,
                                  optional_write_types>;
  using written_types = concat_t<write_types, optional_write_types>;
  // Every component the signature names (all must be stored).
  using mentioned_types = concat_t<accessed_types, excluded_types>;
  using accessed_resource_types =
      concat_t<read_resource_types, write_resource_types>;
  using output_type = typename system_signature::signature_internal::single_or<
      items<strata::outputs<>>, no_output>::type;
  using parallelism_type =
      typename system_signature::signature_internal::single_or<
          items<strata::parallelism<>>, default_parallelism>::type;
  static constexpr bool has_output = !std::is_same_v<output_type, no_output>;
  static constexpr bool visits_in_hierarchy_order =
      contains_v<hierarchy_order, items<strata::order<>>>;
  // ordered_by(ct::x, compare): x and compare (void without ordered_by).
  using order_component_type =
      typename system_signature::signature_internal::order_traits<
          typename system_signature::signature_internal::single_or<
              items<strata::order<>>, void>::type>::component;
  using order_compare_type =
      typename system_signature::signature_internal::order_traits<
          typename system_signature::signature_internal::single_or<
              items<strata::order<>>, void>::type>::compare;
  static constexpr bool visits_in_component_order =
      !std::is_void_v<order_component_type>;

  // The strategy given to .parallelism(...), else default_parallelism.
  parallelism_type strategy{};

  constexpr const parallelism_type& parallelism_strategy() const {
    return strategy;
  }

  template <tag_value... Components>
  constexpr auto read(Components...) const {
    return with_components<
        strata::reads<tag_type<Components>...>, write_types,
        concat_t<optional_read_types, optional_write_types, excluded_types>>();
  }
  template <tag_value... Components>
  constexpr auto write(Components...) const {
    return with_components<
        strata::writes<tag_type<Components>...>, read_types,
        concat_t<optional_read_types, optional_write_types, excluded_types>>();
  }
  template <tag_value... Components>
  constexpr auto read_optional(Components...) const {
    return with_components<
        strata::reads_optional<tag_type<Components>...>, type_list<>,
        concat_t<required_types, optional_write_types, excluded_types>>();
  }
  template <tag_value... Components>
  constexpr auto write_optional(Components...) const {
    return with_components<
        strata::writes_optional<tag_type<Components>...>, type_list<>,
        concat_t<required_types, optional_read_types, excluded_types>>();
  }
  template <tag_value... Components>
  constexpr auto exclude(Components...) const {
    return with_components<strata::excludes<tag_type<Components>...>,
                           type_list<>, accessed_types>();
  }

  template <tag_value... Components>
  constexpr auto changed(Components...) const {
    return with_filter<strata::changed<tag_type<Components>...>>();
  }
  template <tag_value... Components>
  constexpr auto added(Components...) const {
    return with_filter<strata::added<tag_type<Components>...>>();
  }

  template <typename... Resources>
  constexpr auto read_resource() const {
    return with_resources<strata::reads_resource<Resources...>,
                          write_resource_types>();
  }
  template <typename... Resources>
  constexpr auto write_resource() const {
    return with_resources<strata::writes_resource<Resources...>,
                          read_resource_types>();
  }

  // The effect channel (context/effect_channel.h): message types this
  // system sends, and receives.
  template <typename... Messages>
  constexpr auto sends() const {
    return with_messages<strata::sends<Messages...>>();
  }
  template <typename... Messages>
  constexpr auto receives() const {
    return with_messages<strata::receives<Messages...>>();
  }

  template <tag_value... Systems>
  constexpr auto dependencies(Systems...) const {
    using list = strata::depends_on<tag_type<Systems>...>;
    if constexpr (check_list<list>() &&
                  (std::is_same_v<System, tag_type<Systems>> || ...)) {
      diagnostic::report(diagnostic::system_depends_on_itself<System>);
    }
    return signature<System, Lists..., list>{strategy};
  }

  template <typename Strategy>
  constexpr auto parallelism(Strategy chosen) const {
    if constexpr (!check_list<strata::parallelism<Strategy>>()) {
      return *this;
    } else {
      return signature<System, Lists..., strata::parallelism<Strategy>>{chosen};
    }
  }

  constexpr auto in_hierarchy_order() const {
    if constexpr (!std::is_same_v<items<strata::order<>>, type_list<>>) {
      diagnostic::report(diagnostic::two_orders_in_signature<System>);
      return *this;
    } else if constexpr (!check_list<strata::order<hierarchy_order>>()) {
      return *this;
    } else {
      return signature<System, Lists..., strata::order<hierarchy_order>>{
          strategy};
    }
  }

  template <tag_value Component, typename Compare = order_by_less>
  constexpr auto ordered_by(Component, Compare = {}) const {
    using T = tag_type<Component>;
    if constexpr (!std::is_same_v<items<strata::order<>>, type_list<>>) {
      diagnostic::report(diagnostic::two_orders_in_signature<System>);
      return *this;
    } else if constexpr (!contains_v<T, required_types>) {
      diagnostic::report(diagnostic::order_component_not_required<System, T>);
      return *this;
    } else if constexpr (!std::is_empty_v<Compare> ||
                         !std::is_default_constructible_v<Compare> ||
                         !std::is_invocable_r_v<bool, const Compare&, const T&,
                                                const T&>) {
      diagnostic::report(
          diagnostic::order_compare_not_usable<System, T, Compare>);
      return *this;
    } else if constexpr (!std::is_copy_constructible_v<T> ||
                         !std::is_copy_assignable_v<T>) {
      diagnostic::report(diagnostic::order_component_not_copyable<System, T>);
      return *this;
    } else {
      return signature<System, Lists...,
                       strata::order<component_order<T, Compare>>>{strategy};
    }
  }

  template <typename Output>
  constexpr auto output() const {
    static_assert(
        !std::is_same_v<Output, no_output> && !std::is_reference_v<Output>,
        "output<T>(): T must be an object type");
    if constexpr (!check_list<strata::outputs<Output>>()) {
      return *this;
    } else {
      return signature<System, Lists..., strata::outputs<Output>>{strategy};
    }
  }

 private:
  // Reports a second call of List's setter, or a tag List repeats; true if
  // neither (internal/signature_checks.h).
  template <typename List>
  static constexpr bool check_list() {
    return system_signature::signature_internal::check_list<System, items<List>,
                                                            List>();
  }

  // Each adds List after its checks; a failed check is reported, and the
  // list still added, so the report is the only error.
  template <typename List, typename ReadWrite, typename Others>
  constexpr auto with_components() const {
    system_signature::signature_internal::check_components<
        System, items<List>, List, ReadWrite, Others>();
    return signature<System, Lists..., List>{strategy};
  }
  template <typename List>
  constexpr auto with_filter() const {
    system_signature::signature_internal::check_filter<System, items<List>,
                                                       List, required_types>();
    return signature<System, Lists..., List>{strategy};
  }
  template <typename List>
  constexpr auto with_messages() const {
    system_signature::signature_internal::check_messages<System, items<List>,
                                                         List>();
    return signature<System, Lists..., List>{strategy};
  }
  template <typename List, typename Other>
  constexpr auto with_resources() const {
    system_signature::signature_internal::check_resources<System, items<List>,
                                                          List, Other>();
    return signature<System, Lists..., List>{strategy};
  }
};

namespace system_signature {

using ::strata::signature;

template <tag_value System>
constexpr signature<tag_type<System>> make(System) {
  return {};
}

}  // namespace system_signature

// The short name, optional: ss::make(...). Compiler messages spell the
// types, strata::signature and its lists, not the namespace.
namespace ss = system_signature;

template <typename T>
inline constexpr bool is_system_signature_v = false;
template <typename System, typename... Lists>
inline constexpr bool is_system_signature_v<signature<System, Lists...>> = true;

}  // namespace strata

#endif  // STRATA_SCHEDULER_SYSTEM_SIGNATURE_H_
