// Internal to //context: the data proxy's iteration (context/data_proxy.h
// states the contract): for_each, for_entities, for_other_entities,
// for_all_entities and the slice's counts, in index order, in hierarchy
// order (internal/hierarchy_loop.h) or in the order of ordered_by
// (internal/ordered_loop.h), through the system's change filter.
#ifndef STRATA_CONTEXT_INTERNAL_PROXY_ITERATION_H_
#define STRATA_CONTEXT_INTERNAL_PROXY_ITERATION_H_

#include <cstddef>
#include <exception>
#include <type_traits>

#include "context/internal/change_stamps.h"
#include "context/internal/diagnostics.h"
#include "context/internal/for_each.h"
#include "context/internal/hierarchy_loop.h"
#include "context/internal/ordered_loop.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata::context_internal {

// The tracked components among a loop's T& parameters.
template <typename Types, typename... P>
using stamped_writes = concat_t<
    type_list<>,
    std::conditional_t<!std::is_const_v<std::remove_reference_t<P>> &&
                           change_tracking<Types>::template tracks_changes<
                               std::remove_cvref_t<P>>,
                       type_list<std::remove_cvref_t<P>>, type_list<>>...>;
// A loop's write log: the iteration's, when f writes tracked components;
// else an empty one from a function every system shares, so that a loop
// without change tracking compiles nothing for it per system.
template <typename Stamped>
struct write_log_source {
  template <typename Iteration>
  static auto of(Iteration* iteration) {
    return iteration->write_log_for(Stamped{});
  }
};
template <>
struct write_log_source<type_list<>> {
  static write_log<0> of(const void*) noexcept { return {}; }
};

// for_each / for_entities / ... of data_proxy (Proxy), which befriends it.
template <typename Proxy>
class proxy_iteration {
 public:
  // f([entity_id,] T&... / const T&...) for each entity of the slice.
  template <typename F>
  void for_each(F&& f) {
    using system_type = typename Proxy::system_type;
    using signature = for_each_signature<F>;
    if constexpr (!signature::known) {
      diagnostic::report(
          diagnostic::for_each_needs_typed_parameters<system_type>);
    } else {
      // The first parameter that is not a reference to a required
      // component with a permitted constness, reported here so that no
      // helper stands between the user's call and the rule.
      using check = parameter_check<typename Proxy::signature_type,
                                    typename signature::component_parameters>;
      using problem = parameter_problem;
      using T = typename check::component;
      if constexpr (check::problem == problem::repeated) {
        diagnostic::report(
            diagnostic::for_each_component_twice<system_type, T>);
      } else if constexpr (check::problem == problem::not_a_reference) {
        diagnostic::report(
            diagnostic::for_each_parameter_not_a_component_reference<
                system_type, typename check::parameter>);
      } else if constexpr (check::problem == problem::undeclared) {
        diagnostic::report(
            diagnostic::system_uses_undeclared_component<system_type, T>);
      } else if constexpr (check::problem == problem::not_required) {
        diagnostic::report(
            diagnostic::for_each_component_not_required<system_type, T>);
      } else if constexpr (check::problem == problem::read_only) {
        diagnostic::report(
            diagnostic::component_written_but_read_only<system_type, T>);
      } else {
        run_for_each<signature::takes_id>(
            f, typename signature::component_parameters{});
      }
    }
  }

  // f(entity_id) for each entity of this subtask's slice (with a change
  // filter, only the entities that pass it), every one even when f throws;
  // then the first exception is rethrown (as for_each).
  template <typename F>
  void for_entities(F&& f) {
    std::exception_ptr first;
    continuing_call<F> call{f, first};
    if constexpr (Proxy::signature_type::has_change_filter &&
                  (Proxy::in_hierarchy_order || Proxy::in_component_order)) {
      // Visited in their order, each tested (the walk of the filter's
      // ranges below goes by index).
      const auto filter = change_filter();
      auto passing = [&](entity_id id) {
        if (filter(id.index())) call(id);
      };
      visit_slice(passing);
    } else if constexpr (Proxy::signature_type::has_change_filter) {
      const auto& set = self().instance_.subscribed_indices();
      const auto& entities = self().core_.entities();
      const auto& state = self().state_;
      if (state.begin < state.end) {
        change_filter().for_each_member(
            set, index_of_rank(set, state.begin), index_of_rank(set, state.end),
            [&](std::size_t index) { call(entities.live_id_at(index)); });
      }
    } else {
      visit_slice(call);
    }
    if (first) std::rethrow_exception(first);
  }
  // f(entity_id) for the system's entities outside this subtask's slice.
  template <typename F>
  void for_other_entities(F&& f) {
    visit_ranks(0, self().state_.begin, f);
    visit_ranks(self().state_.end, subscribed_count(), f);
  }
  // f(entity_id) for every entity of the system.
  template <typename F>
  void for_all_entities(F&& f) {
    visit_ranks(0, subscribed_count(), f);
  }
  std::size_t slice_entity_count() const noexcept {
    return self().state_.end - self().state_.begin;
  }
  std::size_t subscribed_count() const noexcept {
    return self().instance_.subscribed_count();
  }
  std::size_t subtask_index() const noexcept { return self().subtask_; }
  std::size_t subtask_count() const noexcept {
    return self().instance_.subtask_count();
  }

 private:
  Proxy& self() { return static_cast<Proxy&>(*this); }
  const Proxy& self() const { return static_cast<const Proxy&>(*this); }

  // The system's change filter for this run: the ranges gathered when the
  // run started (internal/change_stamps.h).
  auto change_filter() const {
    return context_internal::change_filter{&self().instance_.changed_ranges};
  }

  // Their logs (write_log_source picks this only when there are some).
  template <typename... T>
  write_log<sizeof...(T)> write_log_for(type_list<T...>) {
    auto& changes = self().core_.changes();
    return {{&changes.template written<T>()...},
            changes.template system_stamp<Proxy::system_index>(),
            Proxy::splits && subtask_count() > 1};
  }
  template <typename>
  friend struct write_log_source;

  // This subtask's part of the level being visited.
  hierarchy_slice hierarchy_slice_of() const {
    const auto& state = self().state_;
    return {self().instance_.hierarchy_level, state.begin, state.end,
            self().subtask_, subtask_count()};
  }

  template <bool TakesId, typename F, typename... P>
  void run_for_each(F& f, type_list<P...>) {
    using Types = typename Proxy::types_type;
    using storage_type = typename Types::component_storage_type;
    constexpr bool checked = Types::settings_type::checked_access_enabled;
    // (The proxy's members without self(): one function less per system.)
    Proxy& proxy = static_cast<Proxy&>(*this);
    auto& core = proxy.core_;
    auto& instance = proxy.instance_;
    const auto& state = proxy.state_;
    auto stamps =
        write_log_source<stamped_writes<typename Proxy::types_type, P...>>::of(
            this);
    // The run's change filter, or one every entity passes (a variable, not
    // a generic lambda called with either: one function less per loop).
    std::conditional_t<Proxy::signature_type::has_change_filter,
                       context_internal::change_filter, no_change_filter>
        filter{};
    if constexpr (Proxy::signature_type::has_change_filter)
      filter = change_filter();
    if constexpr (Proxy::in_hierarchy_order) {
      loop_hierarchy_level<TakesId>(
          core.hierarchy().storage, instance.subscribed_indices(),
          hierarchy_slice_of(), proxy.cursor_, core.entities(), f, filter,
          stamps,
          component_access<std::remove_cvref_t<P>, storage_type, checked>(
              core.components())...);
    } else if constexpr (Proxy::in_component_order) {
      loop_ordered<TakesId>(
          instance.order, state.begin, state.end, core.entities(), f, filter,
          stamps,
          component_access<std::remove_cvref_t<P>, storage_type, checked>(
              core.components())...);
    } else {
      loop_ranks<TakesId>(
          instance.subscribed_indices(), state.begin, state.end,
          core.entities(), f, filter, stamps,
          component_access<std::remove_cvref_t<P>, storage_type, checked>(
              core.components())...);
    }
  }

  // f(id) for this subtask's entities: its slice of ranks, or of the level
  // being visited in hierarchy order.
  template <typename F>
  void visit_slice(F& f) {
    if constexpr (Proxy::in_hierarchy_order) {
      auto& cursor = self().cursor_;
      const auto& entities = self().core_.entities();
      const auto& set = self().instance_.subscribed_indices();
      cursor.every_entity = set.size() == entities.size();
      for_level_slice(
          self().core_.hierarchy().storage, set, cursor.every_entity,
          hierarchy_slice_of(),
          [&](const hierarchy_storage::level_entry& entry, auto has_parent) {
            cursor.enter(entry, has_parent);
            f(entities.live_id_at(entry.index));
          });
      cursor = {};
    } else {
      visit_ranks(self().state_.begin, self().state_.end, f);
    }
  }

  // (Positions in the order, in a system declared ordered_by.)
  template <typename F>
  void visit_ranks(std::size_t begin, std::size_t end, F& f) {
    const auto& entities = self().core_.entities();
    if constexpr (Proxy::in_component_order) {
      for_ordered_slice(
          self().instance_.order, begin, end,
          [&](std::size_t index) { f(entities.live_id_at(index)); });
    } else {
      self().instance_.subscribed_indices().for_each(
          begin, end,
          [&](std::size_t index) { f(entities.live_id_at(index)); });
    }
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_PROXY_ITERATION_H_
