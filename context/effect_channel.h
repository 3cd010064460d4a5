// The effect channel: how one entity acts on another, in parallel, without a
// race and with the same result at every thread count.
//
//   struct damage { int amount; };
//   namespace mt { inline constexpr auto damage = strata::tag<::damage>; }
//   constexpr auto gunnery = strata::system_signature::make(st::gunnery)
//       .read(ct::weapon)
//       .sends<damage>();
//   constexpr auto hull = strata::system_signature::make(st::hull)
//       .write(ct::health)
//       .receives<damage>()
//       .dependencies(st::gunnery);   // a receiver follows every sender
//
//   // gunnery, any number of subtasks:
//   data.for_each([&](entity_id self, const weapon& w) {
//     data.send(self, w.target, damage{w.power});
//   });
//   // hull, any number of subtasks: each entity applies its own messages.
//   data.for_each([&](entity_id self, health& h) {
//     for (const auto& m : data.messages(mt::damage, self))
//       h.points -= m.value.amount;
//   });
//
// A message<T> is {sender, target, value}. A system declared .sends<T>()
// calls data.send(sender, target, value) from any subtask; a system declared
// .receives<T>() reads, when it runs, every message of type T sent in the
// step so far: data.messages(tag, id) gives those sent to `id` (tag:
// strata::tag<T>), and data.for_each_message(tag, f) calls
// f(const message<T>&) for all of them
// (only in a system that does not split: every subtask would otherwise
// apply every message). A message type is plain data (trivially copyable,
// default-constructible).
//
// Rules, checked at compile time with Strata's message:
//   * send needs .sends<T>() for the value's type, messages and
//     for_each_message need .receives<T>();
//   * system_signatures(...) requires every receiver of T to depend,
//     directly or transitively, on every sender of T; a system cannot
//     receive a type it sends. Receivers only read the channel, so two
//     receivers of T may run at once; what they write is checked like any
//     other access (the race check of scheduler/dag.h). A receiver writes
//     the targets' components as any system writes its entities: through
//     for_each's T& (race-free under inner parallelism, since each subtask
//     visits its own slice), or with data.write in a system with
//     .parallelism(inner_parallelism::none()).
//
// Order. data.messages(tag, id) lists the messages to `id` by sending system
// (system id: declaration order), then by the sender's run in the step,
// then by sender index, then in send order: the same under both schedulers
// and at every thread count. This holds because in a system that may
// split, `sender` must be an entity of the sending subtask's slice (its
// index in the slice's range: the order rests on the index alone) and
// the subtask must name senders in ascending index order (as for_each and
// for_entities visit them); a send that breaks this aborts with a message
// in every build (STRATA_CHECK), like data.get of a dead id. A system that
// never splits (none(), or settings without inner parallelism) runs as one
// subtask: its sender ids are recorded as given and its messages keep its
// send order. for_each_message visits every message in that order
// (sending system, run, sender index, send order) without grouping by
// target.
//
// Dead targets. A message to an id that is not alive when sent (killed in
// an earlier step, stale, or null) is dropped and counted:
// ctx.dropped_messages() is the count of the latest step. A target killed
// during the step is alive until the refresh and still receives.
//
// Trusted targets. So every message a receiver sees names a live entity:
// kills (requested by a system or by the step proxy) take effect at the
// refresh, which clears the messages first, and nothing else ends an
// entity mid-step. Hence, while for_each_message calls f with a message,
// data.get / write / read / try_get / try_read of that message's target
// skip the liveness check; whether the target has the component is still
// checked, as for any id (STRATA_CHECK in get/write/read, null from
// try_get/try_read): the sender knew nothing of the receiver's components,
// and a step proxy may remove one between two execute_systems() calls. The
// trust belongs to the visit, not to the id: the same id copied out of the
// message, used after f returns or in a later step, is checked like any
// other, so a target that dies and whose slot is reused is never served
// the new owner.
//
// Lifetime. Messages live until the refresh of the step that sent them,
// which clears them: a receiver sees the messages its senders sent earlier
// in the same step (in one execute_systems() call, all of them, since it
// runs after them). Nothing carries over to the next step, so snapshots
// (context/snapshot.h) and saved worlds hold no messages. A run of a sender
// that throws leaves no messages, like its kills and deferred functions.
//
// Complexity. A send is an alive check of the target and an append to the
// subtask's own buffer (no lock, no allocation once warm). for_each_message
// reads the senders' buffers where they are: O(messages), no copy; a write
// of the visited target reads no more than the component itself (and the
// entity's component bits, unless every live entity is the receiver's). For
// messages(tag, id), the messages of the type are grouped by target index
// with a stable counting sort, O(messages + highest target index), nothing
// when no message was sent: before the subtasks of a receiver that may
// split, and at the first messages() call of a run in one that never
// splits, so a receiver that only calls for_each_message never groups;
// messages(tag, id) is then O(1). The buffers keep
// their capacity, so a steady state allocates nothing
// (context/effect_channel_allocation_test.cc). A program with no sends<T>()
// pays nothing: the buffers, the gathering and the refresh's clearing are
// compiled out.
//
// Thread-safety: each subtask appends to buffers of its own; a receiver
// gathers from senders that finished before it (the ordering rule) into
// its own buffers before its subtasks start, and they only read them. The
// span messages(tag, id) returns stays valid until the receiver's run ends.
#ifndef STRATA_CONTEXT_EFFECT_CHANNEL_H_
#define STRATA_CONTEXT_EFFECT_CHANNEL_H_

#include "context/internal/effect_channel.h"

#endif  // STRATA_CONTEXT_EFFECT_CHANNEL_H_
