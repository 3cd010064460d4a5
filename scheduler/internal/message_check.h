// Internal to //scheduler:dag: the effect channel's rule on a system
// signature list (context/effect_channel.h). A system that receives a
// message type reads, when it runs, what every system that sends that type
// sent in the step; so each receiver of T must depend, directly or through
// other systems, on every sender of T. unordered_message finds the first
// (receiver, sender, message type) that breaks it, in receiver id, message
// and sender id order; system_signatures(...) names the rule with them. A
// system that sends and receives the same type breaks it too: it cannot run
// after itself.
// Cost: O(N) constexpr steps for N systems, plus O(N * messages) per
// receiver.
#ifndef STRATA_SCHEDULER_INTERNAL_MESSAGE_CHECK_H_
#define STRATA_SCHEDULER_INTERNAL_MESSAGE_CHECK_H_

#include <cstddef>

#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

namespace diagnostic {

template <typename Receiver, typename Sender, typename Message>
inline constexpr bool message_received_before_sent = [] {
  static_assert(always_false<Receiver, Sender, Message>,
                "a system receives a message type that another system sends, "
                "but does not depend on it, so it could run before the "
                "messages are sent; add the sender to the receiver's "
                ".dependencies(...) (a system cannot receive a type it sends "
                "itself). Named above: receiver, sender, message type");
  return false;
}();

}  // namespace diagnostic

namespace dag_internal {

// The first broken pair of `List` (a system_signature_list), if any.
template <typename List>
struct unordered_message {
 private:
  using signatures = typename List::signature_types;
  static constexpr std::size_t count = List::count;

  struct where {
    std::size_t receiver = count;
    std::size_t sender = count;
    std::size_t message = 0;
  };

  template <std::size_t R, std::size_t S, typename... Ms>
  static constexpr std::size_t first_unordered(type_list<Ms...>) {
    using sent = typename type_at_t<S, signatures>::sent_types;
    constexpr bool broken[] = {
        (contains_v<Ms, sent> && (R == S || !List::runs_before(S, R)))...,
        false};
    std::size_t i = 0;
    while (i < sizeof...(Ms) && !broken[i]) ++i;
    return i;
  }

  template <std::size_t R, std::size_t... S>
  static constexpr where find_senders(std::index_sequence<S...>) {
    using received = typename type_at_t<R, signatures>::received_types;
    constexpr std::size_t found[] = {first_unordered<R, S>(received{})...,
                                     size_v<received>};
    for (std::size_t s = 0; s < sizeof...(S); ++s) {
      if (found[s] < size_v<received>) return {R, s, found[s]};
    }
    return {};
  }
  // Only a receiver is paired with every system: a list without receivers
  // costs one look per system.
  template <std::size_t R>
  static constexpr where find_for() {
    if constexpr (size_v<typename type_at_t<R, signatures>::received_types> ==
                  0) {
      return {};
    } else {
      return find_senders<R>(std::make_index_sequence<count>{});
    }
  }

  template <std::size_t... R>
  static constexpr where find(std::index_sequence<R...>) {
    constexpr where each[] = {find_for<R>()..., where{}};
    for (const where& w : each) {
      if (w.receiver < count) return w;
    }
    return {};
  }

  static constexpr where first = find(std::make_index_sequence<count>{});

 public:
  static constexpr bool found = first.receiver < count;
  using receiver =
      typename type_at_t<(found ? first.receiver : 0), signatures>::system_type;
  using sender =
      typename type_at_t<(found ? first.sender : 0), signatures>::system_type;
  using message =
      type_at_t<(found ? first.message : 0),
                concat_t<typename type_at_t<(found ? first.receiver : 0),
                                            signatures>::received_types,
                         type_list<void>>>;
};

}  // namespace dag_internal

}  // namespace strata

#endif  // STRATA_SCHEDULER_INTERNAL_MESSAGE_CHECK_H_
