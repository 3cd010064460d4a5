// The data proxy: what one subtask of a system sees while it runs.
//
//   struct movement {
//     template <typename Data>
//     void process(float dt, Data& data) {
//       data.for_each([dt](position& p, const velocity& v) {
//         p.x += v.x * dt;
//         p.y += v.y * dt;
//       });
//     }
//   };
//
// A system's entities (those with every component of its read() and write()
// lists and none of exclude()) are visited in ascending index order, split
// into slices of equal count, one per subtask (scheduler/inner_parallelism.h).
// A data proxy gives its subtask:
//   * for_each(f): f([entity_id,] components...) for each entity of the
//     slice; f's parameter types name the components: `T&` for one in
//     write(), `const T&` for one in read() or write(); anything else is a
//     compile error naming the system and the component. Over runs of
//     consecutive indices, components in contiguous storage are reached by
//     index in a plain loop (vectorizable); others by id.
//   * for_entities(f): f(entity_id) for each entity of the slice (like
//     for_each, every one even when f throws, then the first exception is
//     rethrown); for_other_entities(f) the system's entities outside it;
//     for_all_entities(f) all of them. slice_entity_count() /
//     subscribed_count(), subtask_index() / subtask_count();
//   * read(ct::x, id): const T& for a component in read() or write();
//     get(ct::x, id) (or write(ct::x, id), the same): T& for a component in
//     write(), and for one in read() a compile error with Strata's message
//     naming data.read, so that writing a read-only component through get
//     is never the compiler's const error; try_read(ct::x, id): const T*
//     for any component the signature declares (required or optional),
//     null if the entity is dead, stale or lacks the component; try_get:
//     the same as T* for one it writes (write() or write_optional()), and
//     for a read-only one Strata's message naming try_read; alive(id);
//     has(ct::x, id) for any stored component. In a system that may split,
//     get / read / write / try_get / try_read reach only components it does
//     not write (the split rule below);
//   * resource<T>(): T& for write_resource<T>() (not in a system that may
//     split), const T& for read_resource;
//   * kill_entity(id): marks it dead (effective at the refresh);
//   * defer(f): runs f(defer_proxy&) during the refresh, where critical
//     operations are allowed (no allocation per call in a steady state,
//     whatever f captures: context/deferred_queue.h);
//   * with a hierarchy declared (context/hierarchy.h): set_parent(child,
//     parent) / remove_parent(child), deferred like defer(f), and the
//     queries parent_of, children_of, depth_of, root_of; in a system
//     declared .in_hierarchy_order(), for_each and for_entities visit one
//     depth level per pass, parents first (internal/hierarchy_loop.h), and
//     parent(ct::x, e) reads the parent's x (a const T*, null for a root or
//     a parent without x; any x the system declares, written ones included:
//     the parent's level is done), for the entity e being visited;
//     for_each_with_parent(ct::x, f) hands that pointer to f instead
//     (internal/hierarchy_for_each.h), without a check per entity;
//   * in a system declared .ordered_by(ct::x, compare), for_each,
//     for_entities, for_other_entities and for_all_entities visit in that
//     order (ties by index), the slices being contiguous chunks of it
//     (internal/ordered_loop.h); such a system may not send();
//   * output(): this subtask's output (signature .output<T>(); reset before
//     every run); for_previous_outputs(st, f): f(system&, output&) for each
//     subtask output of st, which must be a (transitive) dependency.
//   * the effect channel (context/effect_channel.h): send(sender, target,
//     value) with .sends<T>(); messages(tag, id), the messages sent to `id`
//     in the step, and for_each_message(tag, f) (not in a system that may
//     split), with .receives<T>() (tag: strata::tag<T>).
//
// Access to other entities (the split rule). A system "may split" when the
// settings allow inner parallelism and its .parallelism(...) is not
// inner_parallelism::none() (a system without .parallelism(...) may split:
// the context's default, automatic(), splits when it pays). Its subtasks
// then run at once over disjoint slices, so in a system that may split:
//   * get / write / try_get by id of a component the system writes (write()
//     or write_optional()) is a compile error with Strata's message: another
//     subtask may write that entity's row, or read it, at the same time.
//     The current entity is written through for_each's T& parameter;
//     effects on other entities go to a later system (an output read with
//     for_previous_outputs, or data.defer for the refresh);
//   * resource<T>() of a write_resource<T>() is a compile error: every
//     subtask would write it at once. Collect per-subtask results in
//     output() and merge them in a later system, or declare none();
//   * the system object is shared by the subtasks, so they receive it as
//     `const system&` (a for_subtasks callable and executor.for_subtasks
//     alike): calling a non-const process() on it, or writing a member, is
//     the compiler's own error ("passing 'const S' as 'this' argument
//     discards qualifiers" with GCC; with Clang "no matching member function
//     for call to 'process'" and the note "'this' argument has type
//     'const S', but method is not marked const"), since a member call has
//     no hook for Strata's message. Mark process() const; per-subtask state
//     lives in output() or in the subtask's own locals;
//   * for_previous_outputs(st, f) gives f const references, since every
//     subtask visits the same outputs.
// Reads of read() and read_optional() components at any id, and resources
// declared with read_resource, stay allowed everywhere: no system that runs
// at the same time writes them (the inter-system race check,
// scheduler/dag.h). A system with .parallelism(inner_parallelism::none()),
// or any system of settings that disallow inner parallelism, runs as one
// subtask and keeps random access to everything it declares.
//
// Change filters. With changed(ct::x) / added(ct::x) in the signature,
// for_each and for_entities visit only the slice's entities whose x was
// written / added since this system's previous run (any one of the listed
// components); entity_count, for_other_entities and for_all_entities still
// count and visit the whole subscription. What counts as a write of a
// tracked component: for_each handing it out as T& (every visited entity,
// even if f then throws), get/write of a write() component, try_get
// returning a T* (a write_optional() component included); outside systems,
// add_component and create_entities. A write through a step proxy's
// get_component or for_each does not count: add_component the new value.
// context/internal/change_stamps.h says how writes and runs are ordered.
//
// Ids and versions. Ids the proxy hands out (for_each, for_entities) name
// live subscribed entities by construction, so component access through them
// is unchecked in optimized builds. An id from anywhere else (stored in a
// component, read from an output) may be stale. Every random-access call
// checks the id's version in every build: try_get returns null and has /
// alive return false for a dead or stale id; get and write abort with a
// message (STRATA_CHECK, base/check.h) when the id is not alive (killed, or
// stale: its slot was reused) or lacks the component, so a stale id is never
// served the slot's new owner. The check is one load of the entity's record
// and one of its component bits (//benchmarks:update_benchmark,
// strata_1t_ids: data.get by id for every entity).
//
// Thread-safety: data proxies of different subtasks, of one system or of
// systems the scheduler runs at once, are used concurrently. Each touches
// only its own subtask state and reads entity storage, which nothing changes
// while systems run; the compile-time race check guarantees that concurrently
// running systems never write the same component or resource, and slices of
// one system are disjoint. A proxy must not escape its subtask.
#ifndef STRATA_CONTEXT_DATA_PROXY_H_
#define STRATA_CONTEXT_DATA_PROXY_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "context/internal/change_stamps.h"
#include "context/internal/context_types.h"
#include "context/internal/diagnostics.h"
#include "context/internal/effect_channel.h"
#include "context/internal/for_each.h"
#include "context/internal/hierarchy_for_each.h"
#include "context/internal/hierarchy_loop.h"
#include "context/internal/hierarchy_queries.h"
#include "context/internal/ordered_loop.h"
#include "context/internal/split_rule.h"
#include "context/system_instance.h"
#include "entity/entity_id.h"
#include "scheduler/inner_parallelism.h"
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

  data_proxy(context_internal::context_core<Types>& core,
             instance_type& instance, typename instance_type::state_type& state,
             std::size_t subtask)
      : core_(core), instance_(instance), state_(state), subtask_(subtask) {}

  // f([entity_id,] T&... / const T&...) for each entity of the slice.
  template <typename F>
  void for_each(F&& f) {
    using signature = context_internal::for_each_signature<F>;
    if constexpr (!signature::known) {
      diagnostic::report(
          diagnostic::for_each_needs_typed_parameters<system_type>);
    } else {
      // The first parameter that is not a reference to a required
      // component with a permitted constness, reported here so that no
      // helper stands between the user's call and the rule.
      using check = context_internal::parameter_check<
          signature_type, typename signature::component_parameters>;
      using problem = context_internal::parameter_problem;
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
    context_internal::continuing_call<F> call{f, first};
    if constexpr (signature_type::has_change_filter &&
                  (in_hierarchy_order || in_component_order)) {
      // Visited in their order, each tested (the walk of the filter's
      // ranges below goes by index).
      const auto filter = change_filter();
      auto passing = [&](entity_id id) {
        if (filter(id.index())) call(id);
      };
      visit_slice(passing);
    } else if constexpr (signature_type::has_change_filter) {
      const auto& set = instance_.subscribed().indices();
      const auto& entities = core_.entities();
      if (state_.begin < state_.end) {
        change_filter().for_each_member(
            set, context_internal::index_of_rank(set, state_.begin),
            context_internal::index_of_rank(set, state_.end),
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
    visit_ranks(0, state_.begin, f);
    visit_ranks(state_.end, instance_.subscribed_count(), f);
  }
  // f(entity_id) for every entity of the system.
  template <typename F>
  void for_all_entities(F&& f) {
    visit_ranks(0, instance_.subscribed_count(), f);
  }
  std::size_t slice_entity_count() const noexcept {
    return state_.end - state_.begin;
  }
  std::size_t subscribed_count() const noexcept {
    return instance_.subscribed_count();
  }
  std::size_t subtask_index() const noexcept { return subtask_; }
  std::size_t subtask_count() const noexcept {
    return instance_.subtask_count();
  }

  // T& for a component in write(). A component in read() is a compile
  // error with Strata's message naming data.read: get hands out what a
  // system may write, so writing through it (`data.get(ct::x, e).y = 0`) is
  // never the compiler's const error on a member, which no library code can
  // intercept.
  template <tag_value Tag>
  tag_type<Tag>& get(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (contains_v<T, typename signature_type::read_types>) {
      diagnostic::report(
          diagnostic::get_of_read_only_component<system_type, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (splits &&
                         contains_v<T, typename signature_type::write_types>) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<
              system_type, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (contains_v<T, typename signature_type::write_types>) {
      T& component = checked_get<T>(id);
      note_written<T>(id);
      return component;
    } else if constexpr (contains_v<T,
                                    typename signature_type::accessed_types>) {
      diagnostic::report(diagnostic::get_of_optional_component<system_type, T>);
      return diagnostic::after_report<T>();
    } else {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system_type, T>);
      return diagnostic::after_report<T>();
    }
  }
  // const T& for a component in read() or write(): reading never marks a
  // change.
  template <tag_value Tag>
  const tag_type<Tag>& read(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (splits &&
                  contains_v<T, typename signature_type::write_types>) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<
              system_type, T>);
      return diagnostic::after_report<const T>();
    } else if constexpr (contains_v<T, typename signature_type::write_types> ||
                         contains_v<T, typename signature_type::read_types>) {
      return checked_get<T>(id);
    } else if constexpr (contains_v<T,
                                    typename signature_type::accessed_types>) {
      diagnostic::report(diagnostic::get_of_optional_component<system_type, T>);
      return diagnostic::after_report<const T>();
    } else {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system_type, T>);
      return diagnostic::after_report<const T>();
    }
  }
  // T& for a component in write(); a compile error for any other.
  template <tag_value Tag>
  tag_type<Tag>& write(Tag tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (splits &&
                  contains_v<T, typename signature_type::write_types>) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<
              system_type, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (contains_v<T, typename signature_type::write_types>) {
      return get(tag, id);
    } else if constexpr (contains_v<T, typename signature_type::read_types>) {
      diagnostic::report(
          diagnostic::component_written_but_read_only<system_type, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (contains_v<T,
                                    typename signature_type::accessed_types>) {
      diagnostic::report(diagnostic::get_of_optional_component<system_type, T>);
      return diagnostic::after_report<T>();
    } else {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system_type, T>);
      return diagnostic::after_report<T>();
    }
  }
  // T* for a component the system writes (write() or write_optional());
  // null if `id` is not alive (stale included) or lacks the component. A
  // read-only one (read() or read_optional()) is a compile error with
  // Strata's message naming data.try_read, as for get.
  template <tag_value Tag>
  tag_type<Tag>* try_get(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (!contains_v<T, typename signature_type::accessed_types>) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system_type, T>);
      return nullptr;
    } else if constexpr (!writes<T>) {
      diagnostic::report(
          diagnostic::try_get_of_read_only_component<system_type, T>);
      return nullptr;
    } else if constexpr (splits) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<
              system_type, T>);
      return nullptr;
    } else {
      if (!alive_with<T>(id)) return nullptr;
      note_written<T>(id);
      return &core_.components().template get<T>(id);
    }
  }
  // const T* for any component the signature declares, required or
  // optional, read or written (reading marks no change); null as try_get.
  template <tag_value Tag>
  const tag_type<Tag>* try_read(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (!contains_v<T, typename signature_type::accessed_types>) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system_type, T>);
      return nullptr;
    } else if constexpr (splits && writes<T>) {
      diagnostic::report(
          diagnostic::random_access_to_written_component_in_split_system<
              system_type, T>);
      return nullptr;
    } else {
      if (!core_.template has_component<T>(id)) return nullptr;
      return &core_.components().template get<T>(id);
    }
  }
  // Whether `id` names a live entity (its version included).
  bool alive(entity_id id) const { return core_.entities().alive(id); }
  // Whether `id` is alive and has the component (any stored component).
  template <tag_value Tag>
  bool has(Tag, entity_id id) const {
    return core_.template has_component<tag_type<Tag>>(id);
  }

  // The resource T: T& with write_resource<T>(), const T& with
  // read_resource<T>().
  template <typename T>
  decltype(auto) resource() {
    using written = typename signature_type::write_resource_types;
    if constexpr (splits && contains_v<T, written>) {
      diagnostic::report(
          diagnostic::written_resource_in_split_system<system_type, T>);
      return diagnostic::after_report<T>();
    } else if constexpr (contains_v<T, written>) {
      return static_cast<T&>(core_.template resource<T>());
    } else if constexpr (contains_v<
                             T, typename signature_type::read_resource_types>) {
      return static_cast<const T&>(core_.template resource<T>());
    } else {
      diagnostic::report(
          diagnostic::system_uses_undeclared_resource<system_type, T>);
      // T&, so that a write through it adds no second error to the report.
      return diagnostic::after_report<T>();
    }
  }

  // Marks `id` dead; it is removed at the refresh. Ids that are not alive
  // then are ignored.
  void kill_entity(entity_id id) {
    state_.to_kill.push_back(id);
    core_.note_subtask_work();
  }

  // Runs f(defer_proxy&) during the refresh, where critical operations are
  // allowed.
  template <typename F>
  void defer(F&& f) {
    state_.deferred.push(std::forward<F>(f));
    core_.note_subtask_work();
  }

  // The hierarchy (context/hierarchy.h). set_parent / remove_parent are
  // deferred: queued when the refresh runs this subtask's deferred
  // functions, in their order among them. The queries read the relation as
  // the last refresh left it (never changed while systems run).
  void set_parent(entity_id child, entity_id parent) {
    if constexpr (!Types::has_hierarchy) {
      diagnostic::report(
          diagnostic::hierarchy_not_declared<hierarchy_operation::set_parent,
                                             system_type>);
    } else {
      defer([child, parent](auto& proxy) { proxy.set_parent(child, parent); });
    }
  }
  void remove_parent(entity_id child) {
    if constexpr (!Types::has_hierarchy) {
      diagnostic::report(
          diagnostic::hierarchy_not_declared<hierarchy_operation::remove_parent,
                                             system_type>);
    } else {
      defer([child](auto& proxy) { proxy.remove_parent(child); });
    }
  }
  entity_id parent_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::parent_of>(
               core_)
        .parent_of(id);
  }
  auto children_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::children_of>(
               core_)
        .children_of(id);
  }
  std::size_t depth_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::depth_of>(
               core_)
        .depth_of(id);
  }
  entity_id root_of(entity_id id) const {
    return context_internal::hierarchy_access<hierarchy_operation::root_of>(
               core_)
        .root_of(id);
  }

  // In a system declared .in_hierarchy_order(): f([entity_id,] const T*
  // parent, components...), the parent's x handed in (null for a root or a
  // parent without x); otherwise as for_each (internal/hierarchy_for_each.h).
  template <tag_value Tag, typename F>
  void for_each_with_parent(Tag, F&& f) {
    using T = tag_type<Tag>;
    using check = context_internal::parent_pass_check<T, signature_type, F>;
    if constexpr (check::problem !=
                  context_internal::parent_pass_problem::none) {
      diagnostic::report(
          diagnostic::parent_pass_misuse<check::problem, system_type, T,
                                         typename check::given>);
    } else {
      context_internal::for_each_with_parent<
          T, Types, signature_type,
          Types::settings_type::checked_access_enabled>(*this,
                                                        core_.components(), f);
    }
  }
  // In a system declared .in_hierarchy_order(): the parent's component of
  // `id`, the entity being visited; null for a root or a parent without it.
  template <tag_value Tag>
  const tag_type<Tag>* parent(Tag, entity_id id) {
    using T = tag_type<Tag>;
    if constexpr (!signature_type::visits_in_hierarchy_order) {
      diagnostic::report(
          diagnostic::parent_read_outside_hierarchy_order<system_type, T>);
      return nullptr;
    } else if constexpr (!contains_v<T,
                                     typename signature_type::accessed_types>) {
      diagnostic::report(
          diagnostic::system_uses_undeclared_component<system_type, T>);
      return nullptr;
    } else if constexpr (!Types::has_hierarchy) {
      return nullptr;  // make_context reported it
    } else {
      STRATA_CHECK(id.index() == cursor_.visiting.index,
                   "data.parent(ct::x, e): e must be the entity being "
                   "visited (its parent's level is the one finished)");
      return parent_component<T>(cursor_.visiting.parent);
    }
  }

  // This subtask's output (reset before the run).
  auto& output() {
    if constexpr (!instance_type::has_output) {
      diagnostic::report(diagnostic::system_has_no_output<system_type>);
      // Absorbs whatever the caller does next, so the report stays the only
      // error.
      static context_internal::assignment_sink absorb;
      return absorb;
    } else {
      return state_.output;
    }
  }

  // The effect channel (context/effect_channel.h). Sends `value` from
  // `sender` to `target`, for the systems that receive T; a target that is
  // not alive (dead, stale or null) drops the message, counted in
  // ctx.dropped_messages(). In a system that may split, `sender` must be an
  // entity of this subtask's slice and sends must name senders in
  // ascending index order (as for_each visits them): a check in every
  // build (STRATA_CHECK) that keeps the receivers' order independent of the
  // split.
  template <typename T>
  void send(entity_id sender, entity_id target, const T& value) {
    if constexpr (!contains_v<T, typename signature_type::sent_types>) {
      diagnostic::report(
          diagnostic::message_sent_but_not_declared<system_type, T>);
    } else if constexpr (in_component_order) {
      diagnostic::report(diagnostic::send_in_ordered_system<system_type, T>);
    } else {
      auto& boxes = state_.outboxes;
      if constexpr (splits) check_sender(boxes, sender);
      auto& box = boxes.template box<T>();
      if (!core_.entities().alive(target)) [[unlikely]] {
        ++box.dropped;
        return;
      }
      box.sent.append() = message<T>{sender, target, value};
    }
  }
  // The messages of type T sent to `target` in this step, in (sending
  // system, run, sender index, send order) order; empty for an id that is
  // not alive.
  template <tag_value Tag>
  auto messages(Tag, entity_id target) const {
    using T = tag_type<Tag>;
    if constexpr (!contains_v<T, typename signature_type::received_types>) {
      diagnostic::report(
          diagnostic::message_received_but_not_declared<system_type, T>);
      return std::span<const message<T>>{};
    } else {
      if (!core_.entities().alive(target)) {
        return std::span<const message<T>>{};
      }
      auto& box = instance_.inboxes.template box<T>();
      // A system that never splits groups on its first call: its single
      // subtask is the only reader (internal/effect_channel.h).
      if constexpr (!splits) {
        if (!box.grouped()) [[unlikely]]
          box.group();
      }
      return box.to(static_cast<std::uint32_t>(target.index()));
    }
  }
  // f(const message<T>&) for every message of type T of this step, by
  // sending system, run, sender index and send order (as messages(tag, id)
  // orders those to one target), without grouping them by target.
  template <tag_value Tag, typename F>
  void for_each_message(Tag, F&& f) const {
    using T = tag_type<Tag>;
    if constexpr (!contains_v<T, typename signature_type::received_types>) {
      diagnostic::report(
          diagnostic::message_received_but_not_declared<system_type, T>);
    } else if constexpr (splits) {
      diagnostic::report(
          diagnostic::for_each_message_in_split_system<system_type, T>);
    } else {
      instance_.inboxes.template box<T>().for_each(f);
    }
  }

  // f(system&, output&) for each subtask output of `st`, which must be a
  // (transitive) dependency of this system; const references in a system
  // that may split.
  template <tag_value Tag, typename F>
  void for_previous_outputs(Tag, F&& f) {
    using other = tag_type<Tag>;
    constexpr std::size_t other_id = Types::template system_id<other>();
    if constexpr (!Types::system_list::runs_before(other_id, I)) {
      diagnostic::report(
          diagnostic::output_read_without_dependency<system_type, other>);
    } else if constexpr (splits) {
      // for_outputs' loop, with const references, written here: a wrapping
      // lambda would add two notes to the compiler's const error.
      auto& other_instance = core_.template instance<other_id>();
      for (std::size_t i = 0; i < other_instance.subtask_count(); ++i) {
        f(std::as_const(other_instance.system()),
          std::as_const(other_instance.state(i).output));
      }
    } else {
      core_.template instance<other_id>().for_outputs(std::forward<F>(f));
    }
  }

 private:
  static constexpr bool splits =
      context_internal::may_split<Types, signature_type>;
  // Visits by depth level (internal/hierarchy_loop.h).
  static constexpr bool in_hierarchy_order =
      signature_type::visits_in_hierarchy_order && Types::has_hierarchy;
  // Visits in the order of ordered_by (internal/ordered_loop.h).
  static constexpr bool in_component_order =
      signature_type::visits_in_component_order;

  template <typename T>
  static constexpr bool writes =
      contains_v<T, typename signature_type::written_types>;

  // Logs T of `id` as written, if a change filter tracks T (random access:
  // the system runs as one subtask, so nothing appends at the same time).
  template <typename T>
  void note_written(entity_id id) {
    auto& changes = core_.changes();
    if constexpr (std::remove_reference_t<
                      decltype(changes)>::template tracks_changes<T>) {
      changes.template written<T>().append(id.index(), id.index() + 1,
                                           changes.template system_stamp<I>(),
                                           false);
    }
  }

  // The system's change filter for this run: the ranges gathered when the
  // run started (internal/change_stamps.h).
  auto change_filter() const {
    return context_internal::change_filter{&instance_.changed_ranges};
  }

  // The logs of the tracked components among f's T& parameters.
  template <typename... P>
  auto write_log_of(type_list<P...>) {
    auto& changes = core_.changes();
    using tracking = std::remove_reference_t<decltype(changes)>;
    using stamped = concat_t<
        type_list<>,
        std::conditional_t<
            !std::is_const_v<std::remove_reference_t<P>> &&
                tracking::template tracks_changes<std::remove_cvref_t<P>>,
            type_list<std::remove_cvref_t<P>>, type_list<>>...>;
    return [&]<typename... T>(type_list<T...>) {
      if constexpr (sizeof...(T) == 0) {
        return context_internal::write_log<0>{};
      } else {
        return context_internal::write_log<sizeof...(T)>{
            {&changes.template written<T>()...},
            changes.template system_stamp<I>(),
            splits && subtask_count() > 1};
      }
    }(stamped{});
  }

  // The sender rule of send() in a system that may split.
  template <typename Boxes>
  void check_sender(Boxes& boxes, entity_id sender) {
    if (!boxes.slice_known) [[unlikely]] {
      find_slice(boxes);
    }
    const auto index = static_cast<std::uint32_t>(sender.index());
    STRATA_CHECK(index >= boxes.sender_floor && index < boxes.slice_end,
                 "data.send in a system that may split: the sender must be an "
                 "entity of this subtask's slice (an id data.for_each or "
                 "data.for_entities gave), named in ascending index order "
                 "(the order they visit), so that receivers see the same "
                 "order at every thread count");
    boxes.sender_floor = index;
  }
  // The entity indices of this subtask's slice, [sender_floor, slice_end).
  template <typename Boxes>
  [[gnu::noinline]] void find_slice(Boxes& boxes) {
    const auto& indices = instance_.subscribed().indices();
    const auto index_of_rank = [&](std::size_t rank) {
      return static_cast<std::uint32_t>(
          context_internal::index_of_rank(indices, rank));
    };
    const bool empty = state_.begin >= state_.end;
    boxes.sender_floor = empty ? 0 : index_of_rank(state_.begin);
    boxes.slice_end = empty ? 0 : index_of_rank(state_.end);
    boxes.slice_known = true;
  }

  // Component T of the visited entity's parent (index `up`, alive: the
  // hierarchy holds live entities only), or null; by index when T's chunk
  // allows (internal/for_each.h). When every live entity is the system's,
  // a component the system requires needs no test.
  template <typename T>
  const T* parent_component(std::size_t up) {
    if (up == context_internal::hierarchy_storage::none) return nullptr;
    const auto& entities = core_.entities();
    constexpr std::size_t bit = Types::component_list::template id_of<T>();
    constexpr bool required =
        contains_v<T, typename signature_type::required_types>;
    if (!(required && cursor_.every_entity) &&
        !entities.metadata_at(up).components.test(bit)) {
      return nullptr;
    }
    const context_internal::component_access<
        T, typename Types::component_storage_type, false>
        access(core_.components());
    return &access(entities, up, entities.live_id_at(up));
  }

  // This subtask's part of the level being visited.
  context_internal::hierarchy_slice hierarchy_slice() const {
    return {instance_.hierarchy_level, state_.begin, state_.end, subtask_,
            subtask_count()};
  }

  // Whether `id` is alive and has T. For a component the system requires
  // while every live entity is the system's (its members have what it
  // requires; kills and creations wait for the refresh), the liveness check
  // alone: it reads the id array, not the entity's component bits. (The
  // run settled the departures before it started; none are noted in it.)
  template <typename T>
  bool alive_with(entity_id id) const {
    if constexpr (contains_v<T, typename signature_type::required_types>) {
      if (instance_.subscription().raw_subscribed_indices().size() ==
          core_.entities().size()) {
        return core_.entities().alive(id);
      }
    }
    return core_.template has_component<T>(id);
  }

  template <typename T>
  T& checked_get(entity_id id) {
    STRATA_CHECK(alive_with<T>(id),
                 "data.get / data.write: the id is not alive (killed, or "
                 "stale: its slot was reused) or the entity lacks this "
                 "component; ask data.try_get or data.alive for ids that do "
                 "not come from this system's iteration");
    return core_.components().template get<T>(id);
  }

  template <bool TakesId, typename F, typename... P>
  void run_for_each(F& f, type_list<P...>) {
    using storage_type = typename Types::component_storage_type;
    constexpr bool checked = Types::settings_type::checked_access_enabled;
    auto stamps = write_log_of(type_list<P...>{});
    const auto run = [&](const auto& filter) {
      if constexpr (in_hierarchy_order) {
        context_internal::loop_hierarchy_level<TakesId>(
            core_.hierarchy().storage, instance_.subscribed().indices(),
            hierarchy_slice(), cursor_, core_.entities(), f, filter, stamps,
            context_internal::component_access<std::remove_cvref_t<P>,
                                               storage_type, checked>(
                core_.components())...);
      } else if constexpr (in_component_order) {
        context_internal::loop_ordered<TakesId>(
            instance_.order, state_.begin, state_.end, core_.entities(), f,
            filter, stamps,
            context_internal::component_access<std::remove_cvref_t<P>,
                                               storage_type, checked>(
                core_.components())...);
      } else {
        context_internal::loop_ranks<TakesId>(
            instance_.subscribed().indices(), state_.begin, state_.end,
            core_.entities(), f, filter, stamps,
            context_internal::component_access<std::remove_cvref_t<P>,
                                               storage_type, checked>(
                core_.components())...);
      }
    };
    if constexpr (signature_type::has_change_filter) {
      run(change_filter());
    } else {
      run(context_internal::no_change_filter{});
    }
  }

  // f(id) for this subtask's entities: its slice of ranks, or of the level
  // being visited in hierarchy order.
  template <typename F>
  void visit_slice(F& f) {
    if constexpr (in_hierarchy_order) {
      const auto& entities = core_.entities();
      const auto& set = instance_.subscribed().indices();
      cursor_.every_entity = set.size() == entities.size();
      context_internal::for_level_slice(
          core_.hierarchy().storage, set, cursor_.every_entity,
          hierarchy_slice(),
          [&](context_internal::hierarchy_storage::level_entry entry) {
            cursor_.visiting = entry;
            f(entities.live_id_at(entry.index));
          });
      cursor_ = {};
    } else {
      visit_ranks(state_.begin, state_.end, f);
    }
  }

  // (Positions in the order, in a system declared ordered_by.)
  template <typename F>
  void visit_ranks(std::size_t begin, std::size_t end, F& f) {
    const auto& entities = core_.entities();
    if constexpr (in_component_order) {
      context_internal::for_ordered_slice(
          instance_.order, begin, end,
          [&](std::size_t index) { f(entities.live_id_at(index)); });
    } else {
      instance_.subscribed().indices().for_each(
          begin, end,
          [&](std::size_t index) { f(entities.live_id_at(index)); });
    }
  }

  context_internal::context_core<Types>& core_;
  instance_type& instance_;
  typename instance_type::state_type& state_;
  std::size_t subtask_;
  // The entity being visited in hierarchy order (data.parent).
  [[no_unique_address]] std::conditional_t<
      in_hierarchy_order, context_internal::hierarchy_cursor,
      context_internal::no_hierarchy_cursor>
      cursor_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_DATA_PROXY_H_
