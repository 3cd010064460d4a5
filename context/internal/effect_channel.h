// Internal to //context: the buffers behind the effect channel
// (context/effect_channel.h says what users see).
//
// Senders. Each subtask state of a system that sends has an `outboxes`:
// per sent type, an append_buffer of message<T> in send order and a count
// of messages dropped because the target was not alive; plus, in a system
// that may split, the range of entity indices its slice covers and the
// lowest sender index the next send may name. A state of a system that
// sends nothing holds an empty `no_outboxes`. Outboxes keep their capacity:
// the end of the step clears them (end_messages) after adding up the drops.
//
// Receivers. A system that receives has an `inbox<T>` per received type,
// filled before its subtasks start (gather_messages): every sender's
// outboxes, in system id then state order (a sender's states hold its
// passes of the step one after the other, each in subtask order:
// instance_runtime.h), are grouped by target index with a stable counting
// sort, so the messages to one entity keep the order they were gathered in.
// O(messages + highest target index) per receiver and step with messages;
// the two vectors keep their capacity.
//
// Thread-safety: a subtask appends only to its own outboxes; gathering
// reads senders that the signature list orders before the receiver
// (scheduler/internal/message_check.h), and writes the receiver's own
// inboxes before its subtasks start; subtasks then only read them.
#ifndef STRATA_CONTEXT_INTERNAL_EFFECT_CHANNEL_H_
#define STRATA_CONTEXT_INTERNAL_EFFECT_CHANNEL_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/internal/standard_parts.h"
#include "base/internal/trivial_vector.h"
#include "context/internal/split_rule.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename System, typename Message>
inline constexpr bool message_sent_but_not_declared = [] {
  static_assert(always_false<System, Message>,
                "data.send(sender, target, value): the system's signature "
                "does not declare .sends<T>() for the value's type; add it "
                "(or convert the value to a declared message type); system "
                "and message type are named above");
  return false;
}();

template <typename System, typename Message>
inline constexpr bool message_received_but_not_declared = [] {
  static_assert(always_false<System, Message>,
                "data.messages(tag, id) / data.for_each_message(tag, f): the "
                "system's signature does not declare .receives<T>(); add it, "
                "with the senders of T in .dependencies(...) (system and "
                "message type are named above)");
  return false;
}();

template <typename System, typename Message>
inline constexpr bool for_each_message_in_split_system = [] {
  static_assert(always_false<System, Message>,
                "data.for_each_message(tag, f) visits every message of the "
                "step, so in a system that may split every subtask would "
                "apply all of them: read data.messages(tag, id) for the "
                "entities of data.for_each instead, or give the system "
                ".parallelism(strata::inner_parallelism::none()) (system "
                "and message type are named above)");
  return false;
}();

}  // namespace diagnostic

// One message of the effect channel: who sent it (an entity of the sending
// system), to whom, and the value.
template <typename T>
struct message {
  entity_id sender;
  entity_id target;
  T value;
};

namespace context_internal {

template <typename T>
struct outbox {
  base_internal::append_buffer<message<T>> sent;
  std::size_t dropped = 0;  // targets not alive when sent
};

struct no_outboxes {
  std::size_t dropped() const noexcept { return 0; }
  void clear() noexcept {}
};

template <typename... Ts>
struct outboxes : outbox<Ts>... {
  // In a system that may split: the entity indices a send may name as its
  // sender, [sender_floor, slice_end). Empty until the subtask's first
  // send, which sets it to the subtask's slice, then sender_floor follows
  // each send's sender (always below slice_end). Empty therefore means the
  // slice is not known yet, or is itself empty (no send can pass).
  std::uint32_t sender_floor = 0;
  std::uint32_t slice_end = 0;

  template <typename T>
  outbox<T>& box() noexcept {
    return *this;
  }
  std::size_t dropped() const noexcept {
    return (std::size_t{0} + ... +
            static_cast<const outbox<Ts>&>(*this).dropped);
  }
  void clear() noexcept {
    ((static_cast<outbox<Ts>&>(*this).sent.clear(),
      static_cast<outbox<Ts>&>(*this).dropped = 0),
     ...);
    sender_floor = 0;
    slice_end = 0;
  }
};

// Whether every type of a system's message list (its sent_types or
// received_types) is plain data, the signature's rule, reported with
// Strata's message where the signature is built. A list that is not gets
// no buffers, and the channel's code skips it (sends, reads and gathering
// do nothing), so the context adds no error of its own under that message.
template <typename List>
inline constexpr bool plain_messages = false;
template <typename... Ts>
inline constexpr bool plain_messages<type_list<Ts...>> =
    ((std::is_trivially_copyable_v<Ts> && std::is_default_constructible_v<Ts> &&
      std::is_object_v<Ts> && !std::is_const_v<Ts>)&&...);

template <typename Sent>
struct outboxes_for {
  using type = no_outboxes;
};
template <typename T, typename... Ts>
requires plain_messages<type_list<T, Ts...>>
struct outboxes_for<type_list<T, Ts...>> {
  using type = outboxes<T, Ts...>;
};

// The messages of type T a receiver sees in one run. Before the run,
// collect() records the senders' buffers in gathering order (pointers only,
// nothing is copied); for_each() visits them in that order. to(index) needs
// the messages grouped by target index: group() does it with a stable
// counting sort into reused buffers, eagerly for a receiver that may split
// (before its subtasks start) and on the first to() of a run for one that
// never splits (its single subtask is the only reader), so a receiver that
// only calls for_each_message never pays for grouping.
template <typename T>
class inbox {
 public:
  using buffer = base_internal::append_buffer<message<T>>;

  // Records, in the order for_each_buffer(f) passes them to f, the
  // buffers holding this run's messages. Every target index is below
  // `index_end` (the entity storage's end_index(): targets were alive when
  // sent). Keeps its capacity: no allocation once warm.
  template <typename ForEachBuffer>
  void collect(std::uint32_t index_end, ForEachBuffer for_each_buffer) {
    buffers_.clear();
    count_ = 0;
    index_end_ = index_end;
    grouped_ = false;
    bound_ = 0;  // after a run without messages, no index reads older ones
    for_each_buffer([&](const buffer& sent) {
      if (sent.empty()) return;
      buffers_.push_back(&sent);
      count_ += sent.size();
    });
  }

  // f(const message<T>&) for every message, in gathering order.
  template <typename F>
  void for_each(F& f) const {
    for (const buffer* sent : buffers_) {
      for (const message<T>& m : *sent) f(m);
    }
  }

  bool grouped() const noexcept { return grouped_; }

  // The messages to entity index `index`, in gathering order; group()
  // first.
  std::span<const message<T>> to(std::uint32_t index) const noexcept {
    if (index >= bound_) return {};
    return {sorted_.data() + starts_[index],
            sorted_.data() + starts_[index + 1]};
  }

  // Groups the collected messages by target index, keeping their order
  // within an index. Few messages in a large world are first scanned for
  // their highest target index, so that the counts cover only the indices
  // below it.
  void group() {
    grouped_ = true;
    if (count_ == 0) return;
    std::uint32_t bound = index_end_;
    if (count_ < index_end_ / 8) {
      bound = 0;
      for (const buffer* sent : buffers_) {
        for (const message<T>& m : *sent) {
          bound =
              std::max(bound, static_cast<std::uint32_t>(m.target.index()) + 1);
        }
      }
    }
    bound_ = bound;
    // starts_[i + 2] counts index i; after the prefix sum starts_[i + 1] is
    // where index i's messages begin, and it advances as they are placed,
    // ending where index i + 1's begin: then starts_[i] begins index i.
    starts_.assign(static_cast<std::size_t>(bound) + 2, 0);
    for (const buffer* sent : buffers_) {
      for (const message<T>& m : *sent) ++starts_[m.target.index() + 2];
    }
    for (std::size_t i = 2; i < starts_.size(); ++i) {
      starts_[i] += starts_[i - 1];
    }
    if (sorted_.size() < count_) sorted_.resize(count_);
    for (const buffer* sent : buffers_) {
      for (const message<T>& m : *sent) {
        sorted_[starts_[m.target.index() + 1]++] = m;
      }
    }
  }

 private:
  std::vector<const buffer*> buffers_;
  std::vector<std::uint32_t> starts_;
  std::vector<message<T>> sorted_;
  std::size_t count_ = 0;
  std::uint32_t index_end_ = 0;
  std::uint32_t bound_ = 0;  // target indices with messages are below
  bool grouped_ = false;
};

struct no_inboxes {};

template <typename... Ts>
struct inboxes : inbox<Ts>... {
  template <typename T>
  inbox<T>& box() noexcept {
    return *this;
  }
  template <typename T>
  const inbox<T>& box() const noexcept {
    return *this;
  }
};

template <typename Received>
struct inboxes_for {
  using type = no_inboxes;
};
template <typename T, typename... Ts>
requires plain_messages<type_list<T, Ts...>>
struct inboxes_for<type_list<T, Ts...>> {
  using type = inboxes<T, Ts...>;
};

// Collects into `box` the outboxes of T of every system that sends T, and
// groups them now when `GroupNow` (a receiver that may split).
template <typename Types, bool GroupNow, typename T, typename Core,
          std::size_t... J>
void gather_type(Core& core, inbox<T>& box, std::index_sequence<J...>) {
  box.collect(
      static_cast<std::uint32_t>(core.entities().end_index()),
      [&core](auto&& f) {
        (
            [&] {
              using signature =
                  typename Types::system_list::template signature_at<J>;
              using sent = typename signature::sent_types;
              if constexpr (contains_v<T, sent> && plain_messages<sent>) {
                auto& sender = core.template instance<J>();
                auto* states = sender.states();
                for (std::size_t s = 0; s < sender.state_count(); ++s) {
                  f(states[s].outboxes.template box<T>().sent);
                }
              }
            }(),
            ...);
      });
  if constexpr (GroupNow) box.group();
}

// Fills each inbox of receiving `instance` from the outboxes of the
// systems that send its type, in system id then state order; a receiver
// that may split has them grouped by target before its subtasks start.
template <typename Types, typename Core, typename Instance>
void gather_messages(Core& core, Instance& instance) {
  using signature = typename Instance::signature_type;
  using received = typename signature::received_types;
  constexpr bool group_now = may_split<Types, signature>;
  if constexpr (plain_messages<received>) {
    [&]<typename... Ts>(type_list<Ts...>) {
      (gather_type<Types, group_now, Ts>(
           core, instance.inboxes.template box<Ts>(),
           std::make_index_sequence<Types::system_count>{}),
       ...);
    }(received{});
  }
}

// Whether a system of SystemList sends messages: the core ends the step's
// messages only then, tested at the caller, so that a program without
// messages runs none of this header's code.
template <typename SystemList, std::size_t... I>
constexpr bool any_sends(std::index_sequence<I...>) {
  return (
      false || ... ||
      (size_v<typename SystemList::template signature_at<I>::sent_types> != 0));
}
template <typename SystemList>
inline constexpr bool sends_messages =
    any_sends<SystemList>(std::make_index_sequence<SystemList::count>{});

// The messages end with the step (context/effect_channel.h), before its
// refresh: every sender's drops are added up and its outboxes cleared
// (capacity kept). Returns the drops. Nothing for systems that send none.
// Core: a context_core (internal/core.h), after the step's systems joined.
template <typename Core>
std::size_t end_messages(Core& core) {
  std::size_t dropped = 0;
  core.for_each_instance_in_order([&dropped](auto& instance) {
    using signature =
        typename std::remove_reference_t<decltype(instance)>::signature_type;
    if constexpr (size_v<typename signature::sent_types> != 0) {
      auto* states = instance.states();
      for (std::size_t s = 0; s < instance.state_count(); ++s) {
        dropped += states[s].outboxes.dropped();
        states[s].outboxes.clear();
      }
    }
  });
  return dropped;
}

}  // namespace context_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_EFFECT_CHANNEL_H_
