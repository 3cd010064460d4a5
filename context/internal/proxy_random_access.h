// Internal to //context: the data proxy's access by id (context/data_proxy.h
// states the contract): get, read, write, try_get, try_read, alive, has.
//
// One check decides every call: random_access_problem_of<Call, ...> says
// which misuse, if any, a call of a component is (undeclared, read-only,
// optional, or a written component in a system that may split), in the
// order the checks were always made. Each call names the rule of the
// problem found itself (internal/diagnostics.h), with no helper between:
// a helper would be one more instantiation note (three lines with Clang),
// over the one-screen limit of the shortest reports.
#ifndef STRATA_CONTEXT_INTERNAL_PROXY_RANDOM_ACCESS_H_
#define STRATA_CONTEXT_INTERNAL_PROXY_RANDOM_ACCESS_H_

#include <type_traits>

#include "base/check.h"
#include "context/internal/diagnostics.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata::context_internal {

// The call a problem is found in (their messages differ).
enum class random_access { get, read, write, try_get, try_read };
enum class random_access_problem {
  none,
  undeclared,
  read_only,
  optional,
  split
};

// What is wrong with `Call` of component T by a system with Signature
// (Splits: the system may split); never fails itself.
template <random_access Call, typename Signature, bool Splits, typename T>
inline constexpr random_access_problem random_access_problem_of = [] {
  using problem = random_access_problem;
  constexpr bool declared = contains_v<T, typename Signature::accessed_types>;
  constexpr bool required_write =
      contains_v<T, typename Signature::write_types>;
  constexpr bool required_read = contains_v<T, typename Signature::read_types>;
  constexpr bool written = contains_v<T, typename Signature::written_types>;
  if (!declared) return problem::undeclared;
  if (Call == random_access::get || Call == random_access::write) {
    if (!required_write) {
      return required_read ? problem::read_only : problem::optional;
    }
  } else if (Call == random_access::read) {
    if (!required_write && !required_read) return problem::optional;
  } else if (Call == random_access::try_get) {
    if (!written) return problem::read_only;
  }
  return Splits && written ? problem::split : problem::none;
}();

// get / read / write / try_get / try_read / alive / has of data_proxy
// (Proxy), which befriends it.
template <typename Proxy>
class proxy_random_access {
 public:
  // T& for a component in write(). A component in read() is a compile
  // error with Strata's message naming data.read: get hands out what a
  // system may write, so writing through it (`data.get(ct::x, e).y = 0`) is
  // never the compiler's const error on a member, which no library code can
  // intercept.
  template <tag_value Tag>
  tag_type<Tag>& get(Tag, entity_id id) {
    using T = tag_type<Tag>;
    using system = typename Proxy::system_type;
    using enum random_access_problem;
    constexpr auto found = problem<random_access::get, T>;
    if constexpr (found == undeclared) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (found == optional) {
      diagnostic::report(diagnostic::get_of_optional_component<system, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (found == split) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<system,
                                                                         T>);
      return diagnostic::after_report<T>();
    } else if constexpr (found == read_only) {
      diagnostic::report(diagnostic::get_of_read_only_component<system, T>);
      return diagnostic::after_report<T>();
    } else {
      T& component = checked_get<T>(id);
      note_written<T>(id);
      return component;
    }
  }
  // const T& for a component in read() or write(): reading never marks a
  // change.
  template <tag_value Tag>
  const tag_type<Tag>& read(Tag, entity_id id) {
    using T = tag_type<Tag>;
    using system = typename Proxy::system_type;
    using enum random_access_problem;
    constexpr auto found = problem<random_access::read, T>;
    if constexpr (found == undeclared) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system, T>);
      return diagnostic::after_report<const T>();
    } else if constexpr (found == optional) {
      diagnostic::report(diagnostic::get_of_optional_component<system, T>);
      return diagnostic::after_report<const T>();
    } else if constexpr (found == split) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<system,
                                                                         T>);
      return diagnostic::after_report<const T>();
    } else {
      return checked_get<T>(id);
    }
  }
  // T& for a component in write(); a compile error for any other.
  template <tag_value Tag>
  tag_type<Tag>& write(Tag tag, entity_id id) {
    using T = tag_type<Tag>;
    using system = typename Proxy::system_type;
    using enum random_access_problem;
    constexpr auto found = problem<random_access::write, T>;
    if constexpr (found == undeclared) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (found == optional) {
      diagnostic::report(diagnostic::get_of_optional_component<system, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (found == split) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<system,
                                                                         T>);
      return diagnostic::after_report<T>();
    } else if constexpr (found == read_only) {
      diagnostic::report(
          diagnostic::component_written_but_read_only<system, T>);
      return diagnostic::after_report<T>();
    } else {
      return get(tag, id);
    }
  }
  // T* for a component the system writes (write() or write_optional());
  // null if `id` is not alive (stale included) or lacks the component. A
  // read-only one (read() or read_optional()) is a compile error with
  // Strata's message naming data.try_read, as for get.
  template <tag_value Tag>
  tag_type<Tag>* try_get(Tag, entity_id id) {
    using T = tag_type<Tag>;
    using system = typename Proxy::system_type;
    using enum random_access_problem;
    constexpr auto found = problem<random_access::try_get, T>;
    if constexpr (found == undeclared) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system, T>);
      return nullptr;
    } else if constexpr (found == read_only) {
      diagnostic::report(diagnostic::try_get_of_read_only_component<system, T>);
      return nullptr;
    } else if constexpr (found == split) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<system,
                                                                         T>);
      return nullptr;
    } else {
      auto& core = self().core_;
      if (!alive_with<T>(id)) return nullptr;
      note_written<T>(id);
      return &core.components().template get<T>(id);
    }
  }
  // const T* for any component the signature declares, required or
  // optional, read or written (reading marks no change); null as try_get.
  template <tag_value Tag>
  const tag_type<Tag>* try_read(Tag, entity_id id) {
    using T = tag_type<Tag>;
    using system = typename Proxy::system_type;
    using enum random_access_problem;
    constexpr auto found = problem<random_access::try_read, T>;
    if constexpr (found == undeclared) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system, T>);
      return nullptr;
    } else if constexpr (found == split) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<system,
                                                                         T>);
      return nullptr;
    } else {
      auto& core = self().core_;
      if (!has_with<T>(id)) return nullptr;
      return &core.components().template get<T>(id);
    }
  }
  // Whether `id` names a live entity (its version included).
  bool alive(entity_id id) const { return self().core_.entities().alive(id); }
  // Whether `id` is alive and has the component (any stored component).
  template <tag_value Tag>
  bool has(Tag, entity_id id) const {
    return self().core_.template has_component<tag_type<Tag>>(id);
  }

 private:
  template <random_access Call, typename T>
  static constexpr random_access_problem problem =
      random_access_problem_of<Call, typename Proxy::signature_type,
                               Proxy::splits, T>;

  Proxy& self() { return static_cast<Proxy&>(*this); }
  const Proxy& self() const { return static_cast<const Proxy&>(*this); }

  // Whether `id` is alive and has T. For a component the system requires
  // while every live entity is the system's (its members have what it
  // requires; kills and creations wait for the refresh), the liveness check
  // alone: it reads the id array, not the entity's component bits. (The
  // run settled the departures before it started; none are noted in it.)
  // The target of the message for_each_message is visiting is known to be
  // alive (internal/proxy_effect_channel.h, trusted targets): for it the
  // liveness check is skipped, never the component check.
  // One liveness check serves both cases (trusted_or_alive): with one per
  // case, the code of an access grows past what GCC inlines, and
  // for_each_message's loop stays a call of its own rather than part of the
  // system's code (BM_Damage strata_1t_apply). Whether the system holds
  // every live entity is read first: it is the same for the whole run, so a
  // loop of accesses can read it once, before the loop. No branch is marked
  // likely: which one runs depends on the world, not on the code. Marking
  // the members-only one moves the other out of the loop's straight line,
  // and systems that hold some of the entities pay a jump per access
  // (update_benchmark, SystemsUpdateMixed and ComplexSystemsUpdateMixed
  // strata_1t_ids).
  template <typename T>
  bool alive_with(entity_id id) const {
    if constexpr (contains_v<T,
                             typename Proxy::signature_type::required_types>) {
      if (self().instance_.subscription().raw_subscribed_indices().size() ==
          self().core_.entities().size()) {
        return trusted_or_alive(id);
      }
    }
    return trusted_or_alive(id) && has_bit<T>(id);
  }
  // Whether `id` is alive and has T (try_read).
  template <typename T>
  bool has_with(entity_id id) const {
    return trusted_or_alive(id) && has_bit<T>(id);
  }
  // Whether `id` is the visited message's target or alive.
  bool trusted_or_alive(entity_id id) const {
    return self().is_visited_target(id) || self().core_.entities().alive(id);
  }
  // Whether live `id` has T: its component bit.
  template <typename T>
  bool has_bit(entity_id id) const {
    constexpr std::size_t bit =
        Proxy::types_type::component_list::template id_of<T>();
    return self().core_.entities().metadata_at(id.index()).components.test(bit);
  }

  template <typename T>
  T& checked_get(entity_id id) {
    auto& core = self().core_;
    STRATA_CHECK(alive_with<T>(id),
                 "data.get / data.write: the id is not alive (killed, or "
                 "stale: its slot was reused) or the entity lacks this "
                 "component; ask data.try_get or data.alive for ids that do "
                 "not come from this system's iteration");
    return core.components().template get<T>(id);
  }

  // Logs T of `id` as written, if a change filter tracks T (random access:
  // the system runs as one subtask, so nothing appends at the same time).
  template <typename T>
  void note_written(entity_id id) {
    auto& changes = self().core_.changes();
    if constexpr (std::remove_reference_t<
                      decltype(changes)>::template tracks_changes<T>) {
      changes.template written<T>().append(
          id.index(), id.index() + 1,
          changes.template system_stamp<Proxy::system_index>(), false);
    }
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_PROXY_RANDOM_ACCESS_H_
