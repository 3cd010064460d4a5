// Internal to //context: the data proxy's side of the effect channel
// (context/effect_channel.h; context/data_proxy.h states the contract):
// send, messages, for_each_message, and the sender rule of a system that
// may split.
//
// Trusted targets. While for_each_message calls f with a message, the
// proxy remembers that message's target (visited_target_): random access
// (proxy_random_access.h) to that id skips its liveness check. It is sound
// because the target was alive when sent (send drops the others), and no
// id that is alive stops being alive before the refresh: kills, a data
// proxy's and a step proxy's alike, are marked and carried out at the
// refresh, which first clears every message; creations mid-step only make
// new ids. The trust covers liveness only: whether the entity has the
// component is still checked (the sender knew nothing of the receiver's
// components, and a step proxy may remove one between two
// execute_systems() calls). It is kept in the proxy, for the message being
// visited only: an id copied out of a message is an ordinary id again
// once f returns, so a copy kept past the step can never skip a check.
//
// A system that neither sends nor receives gets the class with nothing in
// it (`Open` false): no state, a trivial constructor, and calls of send,
// messages or for_each_message only report the undeclared type; making its
// proxy reaches no entity storage.
//
// Liveness of targets. send and messages check a target against a copy of
// the entity storage's liveness view (the id array's address and length,
// entity/entity_storage.h), taken when the proxy is made: one load from the
// proxy reaches the array, where going through the context and the
// storage's vector took four, repeated for every message since the
// outbox's growing call in the sender's loop keeps the compiler from
// hoisting them. The copy stays valid for the proxy's life: a proxy lives
// for one subtask, while the systems run, and no entity is created or
// reclaimed then (creations come from the step proxy between
// execute_systems() calls, kills at the refresh).
#ifndef STRATA_CONTEXT_INTERNAL_PROXY_EFFECT_CHANNEL_H_
#define STRATA_CONTEXT_INTERNAL_PROXY_EFFECT_CHANNEL_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "base/check.h"
#include "context/internal/diagnostics.h"
#include "context/internal/effect_channel.h"
#include "context/internal/for_each.h"
#include "context/internal/ordered_loop.h"
#include "entity/entity_id.h"
#include "entity/entity_storage.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata::context_internal {

template <typename Proxy>
class proxy_random_access;

// Whether a system with signature `Signature` sends or receives messages.
template <typename Signature>
inline constexpr bool sends_or_receives =
    size_v<typename Signature::sent_types> != 0 ||
    size_v<typename Signature::received_types> != 0;

// send / messages / for_each_message of data_proxy (Proxy), which
// befriends it; `Open`: the system sends or receives (sends_or_receives).
template <typename Proxy, bool Open>
class proxy_effect_channel {
 public:
  static constexpr bool open = Open;

  proxy_effect_channel() requires(!Open) = default;
  // `entities`: the context's entity storage.
  template <typename Entities>
  explicit proxy_effect_channel(const Entities& entities) requires(Open)
      : channel_{.live_entities = entities.liveness()} {}

  // Sends `value` from `sender` to `target`, for the systems that receive
  // T; a target that is not alive (dead, stale or null) drops the message,
  // counted in ctx.dropped_messages(). In a system that may split, `sender`
  // must be an entity of this subtask's slice and sends must name senders
  // in ascending index order (as for_each visits them): a check in every
  // build (STRATA_CHECK) that keeps the receivers' order independent of the
  // split.
  template <typename T>
  void send(entity_id sender, entity_id target, const T& value) {
    using signature_type = typename Proxy::signature_type;
    using system_type = typename Proxy::system_type;
    if constexpr (!contains_v<T, typename signature_type::sent_types>) {
      diagnostic::report(
          diagnostic::message_sent_but_not_declared<system_type, T>);
    } else if constexpr (Proxy::in_component_order) {
      diagnostic::report(diagnostic::send_in_ordered_system<system_type, T>);
    } else if constexpr (!plain_messages<typename signature_type::sent_types>) {
      // Reported where the signature was built.
    } else {
      // The sender rule is checked last (a send that breaks it aborts, so
      // checking it after the append changes nothing): by then nothing of
      // the message has to be kept across the rule's rare call.
      auto& boxes = self().state_.outboxes;
      auto& box = boxes.template box<T>();
      if (channel_.live_entities.alive(target)) [[likely]] {
        box.sent.append(message<T>{sender, target, value});
      } else {
        ++box.dropped;
      }
      if constexpr (Proxy::splits) check_sender(boxes, sender);
    }
  }
  // The messages of type T sent to `target` in this step, in (sending
  // system, run, sender index, send order) order; empty for an id that is
  // not alive.
  template <tag_value Tag>
  auto messages(Tag, entity_id target) const {
    using T = tag_type<Tag>;
    using signature_type = typename Proxy::signature_type;
    if constexpr (!contains_v<T, typename signature_type::received_types>) {
      diagnostic::report(diagnostic::message_received_but_not_declared<
                         typename Proxy::system_type, T>);
      return std::span<const message<T>>{};
    } else if constexpr (!plain_messages<
                             typename signature_type::received_types>) {
      return std::span<const message<T>>{};  // reported with the signature
    } else {
      if (!channel_.live_entities.alive(target)) {
        return std::span<const message<T>>{};
      }
      auto& box = self().instance_.inboxes.template box<T>();
      // A system that never splits groups on its first call: its single
      // subtask is the only reader (internal/effect_channel.h).
      if constexpr (!Proxy::splits) {
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
    using signature_type = typename Proxy::signature_type;
    using system_type = typename Proxy::system_type;
    if constexpr (!contains_v<T, typename signature_type::received_types>) {
      diagnostic::report(
          diagnostic::message_received_but_not_declared<system_type, T>);
    } else if constexpr (Proxy::splits) {
      diagnostic::report(
          diagnostic::for_each_message_in_split_system<system_type, T>);
    } else if constexpr (!plain_messages<
                             typename signature_type::received_types>) {
      // Reported where the signature was built.
    } else {
      visit_scope scope(channel_.visited_target);
      auto visit = [&](const message<T>& m) {
        channel_.visited_target = reinterpret_cast<std::uintptr_t>(&m.target);
        f(m);
      };
      self().instance_.inboxes.template box<T>().for_each(visit);
    }
  }

 private:
  friend class proxy_random_access<Proxy>;

  // Marks a visit for its duration, restoring what an enclosing visit (a
  // for_each_message called from another's f) had, also when f throws.
  class visit_scope {
   public:
    explicit visit_scope(std::uintptr_t& visited)
        : visited_(visited), saved_(visited) {}
    ~visit_scope() { visited_ = saved_; }
    visit_scope(const visit_scope&) = delete;
    visit_scope& operator=(const visit_scope&) = delete;

   private:
    std::uintptr_t& visited_;
    std::uintptr_t saved_;
  };

  // Whether `id` is the target of the message being visited: alive, by the
  // reasoning at the top of this file. Always false in a system that
  // receives nothing.
  bool is_visited_target(entity_id id) const noexcept {
    if constexpr (size_v<typename Proxy::signature_type::received_types> == 0) {
      return false;
    } else {
      return channel_.visited_target != 0 &&
             id == *reinterpret_cast<const entity_id*>(channel_.visited_target);
    }
  }

  Proxy& self() { return static_cast<Proxy&>(*this); }
  const Proxy& self() const { return static_cast<const Proxy&>(*this); }

  struct channel_state {
    // The address of the visited message's target, 0 outside a visit
    // (mutable: for_each_message is const, and this is the proxy's own
    // bookkeeping). An integer, not a pointer: storing it once per message
    // then makes the compiler reload nothing around the loop (a pointer
    // store may alias every pointer it holds, an id-sized store the
    // message's own fields), and the check of the visited target, the
    // same load as the caller's, folds away.
    mutable std::uintptr_t visited_target = 0;
    // alive(id) for targets (see the top of this file).
    liveness_view<entity_id::traits> live_entities;
  };
  struct no_channel_state {};
  [[no_unique_address]] std::conditional_t<Open, channel_state,
                                           no_channel_state>
      channel_;

  // The sender rule of send() in a system that may split. Before the
  // subtask's first send the range is empty (outboxes::clear), so that send
  // takes the rare path too, which finds the slice first: the common path
  // is two compares and a store.
  template <typename Boxes>
  void check_sender(Boxes& boxes, entity_id sender) {
    const auto index = static_cast<std::uint32_t>(sender.index());
    if (index < boxes.sender_floor || index >= boxes.slice_end) [[unlikely]] {
      check_sender_outside_range(boxes, index);
    }
    boxes.sender_floor = index;
  }
  template <typename Boxes>
  [[gnu::noinline]] void check_sender_outside_range(Boxes& boxes,
                                                    std::uint32_t index) {
    // An empty range: the slice is not yet known (or is empty, and the
    // check below fails whatever the sender).
    if (boxes.sender_floor >= boxes.slice_end) find_slice(boxes);
    STRATA_CHECK(index >= boxes.sender_floor && index < boxes.slice_end,
                 "data.send in a system that may split: the sender must be an "
                 "entity of this subtask's slice (an id data.for_each or "
                 "data.for_entities gave), named in ascending index order "
                 "(the order they visit), so that receivers see the same "
                 "order at every thread count");
  }
  // The entity indices of this subtask's slice, [sender_floor, slice_end).
  template <typename Boxes>
  void find_slice(Boxes& boxes) {
    const auto& indices = self().instance_.subscribed_indices();
    const auto& state = self().state_;
    const auto index_of_rank = [&](std::size_t rank) {
      return static_cast<std::uint32_t>(
          context_internal::index_of_rank(indices, rank));
    };
    const bool empty = state.begin >= state.end;
    boxes.sender_floor = empty ? 0 : index_of_rank(state.begin);
    boxes.slice_end = empty ? 0 : index_of_rank(state.end);
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_PROXY_EFFECT_CHANNEL_H_
