// The machinery behind data.for_each(f) and proxy.for_each(f): which
// components f asks for (deduced from its parameter types), how each is
// reached, and the loop.
//
// A callable's parameters are deduced from its operator() (or function
// type): an optional leading `strata::entity_id` (by value or const&), then
// one reference per component, `T&` or `const T&`. Generic lambdas (auto
// parameters) cannot be deduced and are a compile error.
//
// Access: a component whose chunk keeps it at its entity's index (the
// contiguous buffer, SoA or AoS; chunk_has_index_access) is reached by index
// through an accessor hoisted out of the loop: over a run of consecutive
// indices the loop body is `f(a[i], b[i])`, which the compiler vectorizes
// like a hand-written loop. Other chunks are reached by id (the entity's id
// is then loaded from the entity storage record of the index). With
// `Checked`, every component goes by id and each access checks that the
// entity is alive and has the component.
//
// Exceptions: a system's loop (loop_ranks) visits every entity of its slice
// even when f throws for one: it keeps the first exception (the lowest rank
// of the slice) and rethrows it after the last entity. So what a throwing
// callable leaves behind (the writes of every visit) does not depend on how
// the entities were split into subtasks. A callable that cannot throw pays
// nothing: the handler around its call is removed with the call's
// exception edges, and the loop compiles as before.
//
// Internal.
#ifndef STRATA_CONTEXT_INTERNAL_FOR_EACH_H_
#define STRATA_CONTEXT_INTERNAL_FOR_EACH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "base/internal/standard_parts.h"
#include "component_storage/chunk.h"
#include "context/internal/change_stamps.h"
#include "entity/entity_id.h"
#include "meta/type_list.h"

namespace strata::context_internal {

// The parameter types of a callable with explicit parameter types.
template <typename F, typename = void>
struct callable_parameters {
  static constexpr bool known = false;
  using type = type_list<>;
};
template <typename M>
struct member_parameters;
#define STRATA_MEMBER_PARAMETERS(QUALIFIERS)            \
  template <typename R, typename C, typename... A>      \
  struct member_parameters<R (C::*)(A...) QUALIFIERS> { \
    static constexpr bool known = true;                 \
    using type = type_list<A...>;                       \
  };
STRATA_MEMBER_PARAMETERS()
STRATA_MEMBER_PARAMETERS(const)
STRATA_MEMBER_PARAMETERS(noexcept)
STRATA_MEMBER_PARAMETERS(const noexcept)
#undef STRATA_MEMBER_PARAMETERS
template <typename F>
struct callable_parameters<F, std::void_t<decltype(&F::operator())>>
    : member_parameters<decltype(&F::operator())> {};
template <typename R, typename... A>
struct callable_parameters<R (*)(A...)> {
  static constexpr bool known = true;
  using type = type_list<A...>;
};
template <typename R, typename... A>
struct callable_parameters<R(A...)> : callable_parameters<R (*)(A...)> {};

template <typename P>
inline constexpr bool is_id_parameter_v =
    std::is_same_v<P, entity_id> || std::is_same_v<P, const entity_id&>;

// The parameters of F split into "takes the id first" and the component
// parameter types (references, as declared).
template <typename F>
struct for_each_signature {
  using all = typename callable_parameters<std::remove_cvref_t<F>>::type;
  static constexpr bool known =
      callable_parameters<std::remove_cvref_t<F>>::known;
  static constexpr bool takes_id = [] {
    if constexpr (size_v<all> == 0) {
      return false;
    } else {
      return is_id_parameter_v<type_at_t<0, all>>;
    }
  }();
  using component_parameters = decltype([]<typename... P>(type_list<P...>) {
    if constexpr (takes_id) {
      return []<typename First, typename... Rest>(type_list<First, Rest...>) {
        return type_list<Rest...>{};
      }(type_list<P...>{});
    } else {
      return type_list<P...>{};
    }
  }(all{}));
};

// What is wrong with a data.for_each callable's component parameters P...
// for a system with signature Signature: the first problem, and the
// parameter and component it concerns (void when there is none). Computed
// without reporting, so data_proxy::for_each names the rule itself.
enum class parameter_problem {
  none,
  repeated,         // a component named by two parameters
  not_a_reference,  // not T& or const T&
  undeclared,       // not in the signature at all
  not_required,     // optional (read_optional / write_optional)
  read_only,        // T& for a component the system only reads
};
template <typename Signature, typename Parameters>
struct parameter_check;
template <typename Signature, typename... P>
struct parameter_check<Signature, type_list<P...>> {
  template <typename Q>
  static constexpr parameter_problem problem_of() {
    using T = std::remove_cvref_t<Q>;
    if constexpr (!std::is_lvalue_reference_v<Q>) {
      return parameter_problem::not_a_reference;
    } else if constexpr (!contains_v<T, typename Signature::accessed_types>) {
      return parameter_problem::undeclared;
    } else if constexpr (!contains_v<T, typename Signature::required_types>) {
      return parameter_problem::not_required;
    } else if constexpr (!std::is_const_v<std::remove_reference_t<Q>> &&
                         !contains_v<T, typename Signature::write_types>) {
      return parameter_problem::read_only;
    } else {
      return parameter_problem::none;
    }
  }
  static constexpr std::size_t twice =
      first_duplicate_index_v<type_list<std::remove_cvref_t<P>...>>;
  static constexpr std::size_t first_bad = [] {
    constexpr parameter_problem problems[] = {problem_of<P>()...,
                                              parameter_problem::none};
    std::size_t i = 0;
    while (i < sizeof...(P) && problems[i] == parameter_problem::none) ++i;
    return i;
  }();
  static constexpr std::size_t at = twice < sizeof...(P) ? twice : first_bad;
  using parameter = type_at_t<at, type_list<P..., void>>;
  using component = std::remove_cvref_t<parameter>;
  static constexpr parameter_problem problem =
      twice < sizeof...(P)       ? parameter_problem::repeated
      : first_bad < sizeof...(P) ? problem_of<parameter>()
                                 : parameter_problem::none;
};

// How a loop reaches component T: by index when its chunk allows and the
// access is unchecked, else by id.
template <typename T, typename Storage, bool Checked>
struct component_access {
  using chunk_type = std::remove_reference_t<
      decltype(std::declval<Storage&>().template chunk_for<T>())>;
  static constexpr bool by_index =
      !Checked && chunk_has_index_access<chunk_type, T>;

  explicit component_access(Storage& storage)
      : storage(storage), at(make_at(storage)) {}

  template <typename Entities>
  T& operator()(const Entities& entities, std::size_t index,
                entity_id id) const {
    if constexpr (by_index) {
      return at[index];
    } else {
      if constexpr (Checked) {
        constexpr std::size_t bit = Storage::template id_of<T>();
        STRATA_CHECK(entities.alive(id),
                     "for_each (checked access): an entity of the system is "
                     "not alive");
        STRATA_CHECK(entities.metadata_at(index).components.test(bit),
                     "for_each (checked access): an entity of the system "
                     "lacks a component it requires");
      }
      return storage.template get<T>(id);
    }
  }

  static auto make_at(Storage& storage) {
    if constexpr (by_index) {
      return storage.template chunk_for<T>().template index_accessor<T>();
    } else {
      return nullptr;
    }
  }

  Storage& storage;
  decltype(make_at(std::declval<Storage&>())) at;
};

// The logs (internal/change_stamps.h) of the tracked components a loop
// hands out as T&, and the stamp of this run. The loop reports each visited
// index (at_index) or run of indices (run); consecutive ones grow one
// pending range, logged when a gap ends it and by flush() when the loop
// ends. With no log, the loops below store nothing.
template <std::size_t N>
struct write_log {
  std::array<change_log*, N> logs;
  std::uint64_t stamp;
  bool shared;  // other subtasks of the system append at the same time
  std::size_t begin = 0, end = 0;

  void at_index(std::size_t index) { run(index, index + 1); }
  void run(std::size_t first, std::size_t last) {
    if constexpr (N != 0) {
      if (first == end) {
        end = last;
        return;
      }
      flush();
      begin = first;
      end = last;
    }
  }
  void flush() {
    if constexpr (N != 0) {
      if (begin == end) return;
      for (change_log* log : logs) log->append(begin, end, stamp, shared);
      begin = end = 0;
    }
  }
};

// A loop without a change filter visits every index.
struct no_change_filter {
  static constexpr bool active = false;
  bool operator()(std::size_t) const noexcept { return true; }
};

// Calls f([id,] components...) for index `index` of the loop.
template <bool TakesId, typename Entities, typename F, typename... Access>
inline void call_at(const Entities& entities, std::size_t index, F& f,
                    const Access&... access) {
  constexpr bool needs_id = TakesId || (!Access::by_index || ...);
  entity_id id;
  if constexpr (needs_id) id = entities.live_id_at(index);
  if constexpr (TakesId) {
    f(id, access(entities, index, id)...);
  } else {
    f(access(entities, index, id)...);
  }
}

// The loops of the contiguous fast path: every component by index, no ids,
// each run a plain counted loop. When every component is an SoA array, the
// arrays are distinct objects (a component type appears once among f's
// parameters, checked), so the pointers are restrict: GCC then vectorizes
// the loop at -O2 without run-time alias checks, as it does a hand-written
// loop over distinct arrays.
// A dense stretch gets a function of its own: inlined into the bitmap
// walk, GCC re-loads loop constants on every iteration for lack of
// registers.
template <typename F, typename... T>
[[gnu::noinline]] void loop_long_run(std::size_t first, std::size_t last, F& f,
                                     T* __restrict... at) {
  for (std::size_t i = first; i < last; ++i) f(at[i]...);
}
// Dense stretches (whole full words of the subscription) run as one loop;
// sparse ones index by index, as a list of indices would. Forced inline:
// each instantiation has one caller (loop_ranks), and GCC leaves COMDAT
// copies out of line when the settings have external linkage.
template <typename Set, typename F, std::size_t W, typename... At>
[[gnu::always_inline]] inline void loop_runs_by_index(const Set& set,
                                                      std::size_t begin,
                                                      std::size_t end, F& f,
                                                      write_log<W>& stamps,
                                                      At... at) {
  set.for_each_member(
      begin, end,
      [&](std::size_t first, std::size_t count) {
        stamps.run(first, first + count);
        if constexpr ((std::is_pointer_v<At> && ...)) {
          loop_long_run(first, first + count, f, at...);
        } else {
          for (std::size_t i = first; i < first + count; ++i) f(at[i]...);
        }
      },
      [&](std::size_t i) {
        stamps.at_index(i);
        f(at[i]...);
      });
}

// f, with what it throws kept in `first` (the first exception only)
// instead of leaving the loop.
template <typename F>
struct continuing_call {
  F& f;
  std::exception_ptr& first;
  template <typename... A>
  [[gnu::always_inline]] inline void operator()(A&&... a) const {
    try {
      f(std::forward<A>(a)...);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
};

// The entity index of the member of rank `rank` of an ordered_index_set
// (the set's capacity for rank == size()).
template <typename Set>
std::size_t index_of_rank(const Set& set, std::size_t rank) noexcept {
  const auto at = set.position_of_rank(rank);
  return at.word * Set::word_bits + at.bit;
}

// f over the members of ranks [begin, end) of an ordered_index_set of
// entity indices that pass `filter`; every one, then the first exception f
// threw is rethrown. Each visited index is logged as written (before f is
// called). With a change filter, the walk covers the filter's ranges within
// the slice, not the slice.
template <bool TakesId, typename Set, typename Entities, typename F,
          typename Filter, std::size_t W, typename... Access>
void loop_ranks(const Set& set, std::size_t begin, std::size_t end,
                const Entities& entities, F& f, const Filter& filter,
                write_log<W>& stamps, const Access&... access) {
  std::exception_ptr first;
  continuing_call<F> call{f, first};
  const auto visit = [&](std::size_t i) {
    stamps.at_index(i);
    call_at<TakesId>(entities, i, call, access...);
  };
  if constexpr (Filter::active) {
    if (begin < end) {
      filter.for_each_member(set, index_of_rank(set, begin),
                             index_of_rank(set, end), visit);
    }
  } else if constexpr (!TakesId && (Access::by_index && ...)) {
    loop_runs_by_index(set, begin, end, call, stamps, access.at...);
  } else {
    set.for_each(begin, end, visit);
  }
  stamps.flush();
  if (first) std::rethrow_exception(first);
}

// f over every live entity whose components include `required` and none of
// `excluded`, in index order (queries outside systems).
template <bool TakesId, typename Entities, typename Bits, typename F,
          typename... Access>
void loop_entities(const Entities& entities, const Bits& required,
                   const Bits& excluded, F& f, const Access&... access) {
  const std::size_t end = entities.end_index();
  for (std::size_t i = 0; i < end; ++i) {
    if (!entities.alive_at(i)) continue;
    const auto& bits = entities.metadata_at(i).components;
    if (!bits.contains_all(required) || (bits & excluded).any()) continue;
    call_at<TakesId>(entities, i, f, access...);
  }
}

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_FOR_EACH_H_
