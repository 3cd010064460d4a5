// The checks a system signature's setter runs before it adds its list
// (scheduler/system_signature.h): the setter used once, no tag repeated, a
// component in one access list only, change filters on required components,
// message types plain data, a resource read or written but not both. Each
// failed check is one report (internal/signature_rules.h); the setter still
// adds its list, so that report is the only error.
//
// Internal: the signature's setters call these. `Set` is what the signature
// already holds of List's kind (type_list<> if the setter was not used).
#ifndef STRATA_SCHEDULER_INTERNAL_SIGNATURE_CHECKS_H_
#define STRATA_SCHEDULER_INTERNAL_SIGNATURE_CHECKS_H_

#include <cstddef>
#include <type_traits>

#include "meta/diagnostic.h"
#include "meta/type_list.h"
#include "scheduler/internal/signature_lists.h"
#include "scheduler/internal/signature_rules.h"

namespace strata::system_signature::signature_internal {

// Reports a second call of List's setter, or a tag List repeats; true if
// neither.
template <typename System, typename Set, typename List>
constexpr bool check_list() {
  using traits = list_traits<List>;
  using list = typename traits::items;
  constexpr std::size_t repeated = first_duplicate_index_v<list>;
  if constexpr (!std::is_same_v<Set, type_list<>>) {
    diagnostic::report(
        diagnostic::signature_setter_used_twice<System,
                                                typename traits::setter>);
    return false;
  } else if constexpr (repeated < size_v<list>) {
    diagnostic::report(
        diagnostic::tag_repeated_in_signature_list<System,
                                                   type_at_t<repeated, list>>);
    return false;
  } else {
    return true;
  }
}

// A component list: checked as above, then against the list it must not
// share with (read against write, with its own older message) and the
// other component lists.
template <typename System, typename Set, typename List, typename ReadWrite,
          typename Others>
constexpr void check_components() {
  using list = items_t<List>;
  constexpr std::size_t in_read_write = first_shared<list, ReadWrite>;
  constexpr std::size_t in_other = first_shared<list, Others>;
  if constexpr (!check_list<System, Set, List>()) {
  } else if constexpr (in_read_write < size_v<list>) {
    diagnostic::report(diagnostic::component_in_read_and_write<
                       System, type_at_t<in_read_write, list>>);
  } else if constexpr (in_other < size_v<list>) {
    diagnostic::report(
        diagnostic::component_in_two_access_lists<System,
                                                  type_at_t<in_other, list>>);
  }
}

// A change filter: checked as above, then each item must be required.
template <typename System, typename Set, typename List, typename Required>
constexpr void check_filter() {
  using list = items_t<List>;
  constexpr std::size_t not_required = first_not_in<list, Required>;
  if constexpr (check_list<System, Set, List>() &&
                not_required < size_v<list>) {
    diagnostic::report(diagnostic::change_filter_on_component_not_required<
                       System, type_at_t<not_required, list>>);
  }
}

// A message list: checked as above, then each type must be plain data.
template <typename System, typename Set, typename List>
constexpr void check_messages() {
  using list = items_t<List>;
  constexpr std::size_t not_plain = first_not_plain<list>;
  if constexpr (check_list<System, Set, List>() && not_plain < size_v<list>) {
    diagnostic::report(
        diagnostic::message_type_not_plain_data<System,
                                                type_at_t<not_plain, list>>);
  }
}

// A resource list: checked as above, then against the other resource list.
template <typename System, typename Set, typename List, typename Other>
constexpr void check_resources() {
  using list = items_t<List>;
  constexpr std::size_t both = first_shared<list, Other>;
  if constexpr (check_list<System, Set, List>() && both < size_v<list>) {
    diagnostic::report(
        diagnostic::resource_read_and_written<System, type_at_t<both, list>>);
  }
}

}  // namespace strata::system_signature::signature_internal

#endif  // STRATA_SCHEDULER_INTERNAL_SIGNATURE_CHECKS_H_
