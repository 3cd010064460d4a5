// The data proxy: what one subtask of a system sees while it runs.
//
//   struct movement {
//     template <typename Data>
//     void process(float dt, Data& data) {
//       data.for_entities([&](strata::entity_id e) {
//         auto& p = data.get(ct::position, e);        // in write(): T&
//         const auto& v = data.get(ct::velocity, e);  // in read(): const T&
//         p.x += v.x * dt;
//       });
//     }
//   };
//
// A system's subscribed entities are split into slices, one per subtask
// (scheduler/inner_parallelism.h); a data proxy gives its subtask:
//   * for_entities(f): f(entity_id) for each entity of its slice, in
//     subscription order; for_other_entities(f) the system's entities
//     outside the slice; for_all_entities(f) all of them. entity_count() /
//     all_entity_count(), subtask_index() / subtask_count();
//   * get(ct::x, e): T& for a component in write(), const T& for one in
//     read(); any other component is a compile error naming the system and
//     the component. has(ct::x, e) for any stored component;
//   * kill_entity(e): marks e dead (effective at the refresh);
//   * defer(f): runs f(defer_proxy&) during the refresh, where critical
//     operations (create, kill, add, remove) are allowed;
//   * output(): this subtask's output (signature .output<T>(); reset before
//     every run); for_previous_outputs(st, f): f(system&, output&) for each
//     subtask output of st, which must be a (transitive) dependency.
//
// Thread-safety: data proxies of different subtasks, of one system or of
// systems the scheduler runs at once, are used concurrently. Each touches
// only its own subtask state; the compile-time race check guarantees that
// concurrently running systems never write the same component, and slices
// of one system are disjoint. A proxy must not escape its subtask.
#ifndef STRATA_CONTEXT_DATA_PROXY_H_
#define STRATA_CONTEXT_DATA_PROXY_H_

#include <cstddef>
#include <utility>

#include "context/internal/context_types.h"
#include "context/internal/diagnostics.h"
#include "context/system_instance.h"
#include "entity/entity_id.h"
#include "settings/diagnostic.h"
#include "settings/tag.h"
#include "settings/type_list.h"

namespace strata {

namespace context_internal {

// Accepts any assignment; stands in after a reported misuse.
struct assignment_sink {
  template <typename T>
  assignment_sink& operator=(T&&) {
    return *this;
  }
};

}  // namespace context_internal

template <typename Types, std::size_t I>
class data_proxy {
 public:
  using instance_type = system_instance<Types, I>;
  using system_type = typename instance_type::system_type;
  using signature_type = typename instance_type::signature_type;
  using output_type = typename instance_type::output_type;

  data_proxy(context_core<Types>& core, instance_type& instance,
             typename instance_type::state_type& state, std::size_t subtask)
      : core_(core), instance_(instance), state_(state), subtask_(subtask) {}

  // f(entity_id) for each entity of this subtask's slice.
  template <typename F>
  void for_entities(F&& f) {
    const entity_id* ids = instance_.subscribed().data();
    for (std::size_t i = state_.begin; i < state_.end; ++i) f(ids[i]);
  }
  // f(entity_id) for the system's entities outside this subtask's slice.
  template <typename F>
  void for_other_entities(F&& f) {
    const entity_id* ids = instance_.subscribed().data();
    const std::size_t size = instance_.subscribed().size();
    for (std::size_t i = 0; i < state_.begin; ++i) f(ids[i]);
    for (std::size_t i = state_.end; i < size; ++i) f(ids[i]);
  }
  // f(entity_id) for every entity of the system.
  template <typename F>
  void for_all_entities(F&& f) {
    for (entity_id id : instance_.subscribed()) f(id);
  }
  std::size_t entity_count() const noexcept {
    return state_.end - state_.begin;
  }
  std::size_t all_entity_count() const noexcept {
    return instance_.entity_count();
  }
  std::size_t subtask_index() const noexcept { return subtask_; }
  std::size_t subtask_count() const noexcept {
    return instance_.subtask_count();
  }

  // T& for a component in write(), const T& for one in read(); any other
  // component is a compile error.
  template <tag_value Tag>
  decltype(auto) get(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (contains_v<T, typename signature_type::write_types>) {
      return static_cast<T&>(core_.components().template get<T>(id));
    } else if constexpr (contains_v<T, typename signature_type::read_types>) {
      return static_cast<const T&>(core_.components().template get<T>(id));
    } else {
      diagnostic::report<
          diagnostic::system_uses_undeclared_component<system_type, T>>();
      return static_cast<const T&>(*static_cast<const T*>(nullptr));
    }
  }

  // Whether `id` has the component (any stored component may be asked).
  template <tag_value Tag>
  bool has(Tag, entity_id id) const {
    return core_.template has_component<tag_type<Tag>>(id);
  }

  // Marks `id` dead; it is removed at the refresh. Ids that are not alive
  // then are ignored.
  void kill_entity(entity_id id) { state_.to_kill.push_back(id); }

  // Runs f(defer_proxy&) during the refresh, where critical operations are
  // allowed.
  template <typename F>
  void defer(F&& f) {
    state_.deferred.emplace_back(std::forward<F>(f));
  }

  // This subtask's output (reset before the run).
  auto& output() {
    if constexpr (!instance_type::has_output) {
      diagnostic::report<diagnostic::system_has_no_output<system_type>>();
      // Absorbs whatever the caller does next, so the report stays the only
      // error.
      static context_internal::assignment_sink absorb;
      return absorb;
    } else {
      return state_.output;
    }
  }

  // f(system&, output&) for each subtask output of `st`, which must be a
  // (transitive) dependency of this system.
  template <tag_value Tag, typename F>
  void for_previous_outputs(Tag, F&& f) {
    using other = tag_type<Tag>;
    constexpr std::size_t other_id = Types::template system_id<other>();
    if constexpr (!Types::system_list::runs_before(other_id, I)) {
      diagnostic::report<
          diagnostic::output_read_without_dependency<system_type, other>>();
    } else {
      core_.template instance<other_id>().for_outputs(std::forward<F>(f));
    }
  }

 private:
  context_core<Types>& core_;
  instance_type& instance_;
  typename instance_type::state_type& state_;
  std::size_t subtask_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_DATA_PROXY_H_
