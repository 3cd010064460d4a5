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
// components); subscribed_count, for_other_entities and for_all_entities still
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

// The members come by concern from mixins under internal/, each a base
// that reads this class's state as a friend: iteration
// (proxy_iteration.h), access by id (proxy_random_access.h), the effect
// channel (proxy_effect_channel.h) and the hierarchy (proxy_hierarchy.h,
// its queries shared with the step proxy in proxy_hierarchy_queries.h).
// The rest, defer, kill_entity, outputs and resources, is here.

#include <cstddef>
#include <type_traits>
#include <utility>

// The headers that define the rules a misuse of the proxy reports come
// first, from here: the include chain a report prints stays one line
// shorter than through the mixin that checks it.
#include "context/internal/change_stamps.h"
#include "context/internal/context_types.h"
#include "context/internal/diagnostics.h"
#include "context/internal/effect_channel.h"
#include "context/internal/for_each.h"
#include "context/internal/hierarchy_for_each.h"
#include "context/internal/hierarchy_loop.h"
#include "context/internal/hierarchy_queries.h"
#include "context/internal/ordered_loop.h"
#include "context/internal/proxy_effect_channel.h"
#include "context/internal/proxy_hierarchy.h"
#include "context/internal/proxy_hierarchy_queries.h"
#include "context/internal/proxy_iteration.h"
#include "context/internal/proxy_random_access.h"
#include "context/internal/split_rule.h"
#include "context/system_instance.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"
#include "scheduler/inner_parallelism.h"

namespace strata {

namespace context_internal {

// Accepts any assignment; stands in after a reported misuse.
struct assignment_sink {
  template <typename T>
  assignment_sink& operator=(T&&) {
    return *this;
  }
};

// The effect-channel base of system I's data proxy: open when its signature
// sends or receives messages.
template <typename Types, std::size_t I>
using proxy_effect_channel_of = proxy_effect_channel<
    data_proxy<Types, I>,
    sends_or_receives<typename system_instance<Types, I>::signature_type>>;

}  // namespace context_internal

template <typename Types, std::size_t I>
class data_proxy
    : public context_internal::proxy_iteration<data_proxy<Types, I>>,
      public context_internal::proxy_random_access<data_proxy<Types, I>>,
      public context_internal::proxy_effect_channel_of<Types, I>,
      public context_internal::proxy_hierarchy<data_proxy<Types, I>> {
  using effect_channel = context_internal::proxy_effect_channel_of<Types, I>;

 public:
  using instance_type = system_instance<Types, I>;
  using system_type = typename instance_type::system_type;
  using signature_type = typename instance_type::signature_type;
  using output_type = typename instance_type::output_type;

  // The effect-channel base of a system that sends or receives copies the
  // entity storage's liveness view; that of one that does neither is empty
  // and is not given the storage.
  data_proxy(context_internal::context_core<Types>& core,
             instance_type& instance, typename instance_type::state_type& state,
             std::size_t subtask) requires(!effect_channel::open)
      : core_(core), instance_(instance), state_(state), subtask_(subtask) {}
  data_proxy(context_internal::context_core<Types>& core,
             instance_type& instance, typename instance_type::state_type& state,
             std::size_t subtask) requires(effect_channel::open)
      : effect_channel(core.entities()),
        core_(core),
        instance_(instance),
        state_(state),
        subtask_(subtask) {}

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
    core_.note_subtask_work(context_internal::subtask_work::kills, I);
  }

  // Runs f(defer_proxy&) during the refresh, where critical operations are
  // allowed.
  template <typename F>
  void defer(F&& f) {
    state_.deferred.push(std::forward<F>(f));
    core_.note_subtask_work(context_internal::subtask_work::deferred, I);
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
  friend class context_internal::proxy_iteration<data_proxy>;
  friend class context_internal::proxy_random_access<data_proxy>;
  friend effect_channel;
  friend class context_internal::proxy_hierarchy<data_proxy>;
  friend class context_internal::hierarchy_query_members<data_proxy>;

  using types_type = Types;
  static constexpr std::size_t system_index = I;
  static constexpr bool splits =
      context_internal::may_split<Types, signature_type>;
  // Visits by depth level (internal/hierarchy_loop.h).
  static constexpr bool in_hierarchy_order =
      signature_type::visits_in_hierarchy_order && Types::has_hierarchy;
  // Visits in the order of ordered_by (internal/ordered_loop.h).
  static constexpr bool in_component_order =
      signature_type::visits_in_component_order;

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
