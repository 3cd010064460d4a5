// Internal to //entity: the text of basic_entity_storage's errors
// (entity_storage.h), built out of line in storage_messages.cc. Only error
// paths call these, so the storage's hot paths stay small and entity
// headers need neither <string> nor a formatting library: ids come as their
// parts, and each function returns a view of text it keeps in a
// thread-local buffer, valid until the same thread builds the next message.
// The storage passes it straight to STRATA_CHECK, which prints it and
// aborts.
#ifndef STRATA_ENTITY_INTERNAL_STORAGE_MESSAGES_H_
#define STRATA_ENTITY_INTERNAL_STORAGE_MESSAGES_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace strata::entity_internal {

// An id as a message spells it, as to_string(id) does: "null", or
// "index@version".
struct id_parts {
  bool is_null = true;
  std::uint64_t index = 0;
  std::uint64_t version = 0;
};

template <typename Id>
constexpr id_parts parts_of(Id id) noexcept {
  return {id.is_null(), id.index(), id.version()};
}

// create() on a full storage.
std::string_view fixed_limit_full_message(std::size_t limit);
std::string_view id_space_full_message(std::size_t max_entities,
                                       std::size_t index_bits);

// id_of() through a handle that is not valid. `now` is the id the handle's
// index holds now, null if the index is free.
std::string_view null_handle_message();
std::string_view stale_handle_message(id_parts handle, id_parts now);

// make_handle() and metadata() of an id that is not alive.
std::string_view handle_of_dead_message(id_parts id);
std::string_view metadata_of_dead_message(id_parts id);

// The same, out of line and marked cold, so that the checks on the
// storage's hot paths inline to a compare and a call taken only on
// failure.
template <typename LimitPolicy, typename Traits>
[[gnu::cold, gnu::noinline]] std::string_view full_message() {
  if constexpr (LimitPolicy::is_fixed) {
    return fixed_limit_full_message(LimitPolicy::value);
  } else {
    return id_space_full_message(Traits::max_entities, Traits::index_bits);
  }
}
template <typename Id>
[[gnu::cold, gnu::noinline]] std::string_view handle_of_dead_id_message(Id id) {
  return handle_of_dead_message(parts_of(id));
}
template <typename Id>
[[gnu::cold, gnu::noinline]] std::string_view metadata_of_dead_id_message(
    Id id) {
  return metadata_of_dead_message(parts_of(id));
}

}  // namespace strata::entity_internal

#endif  // STRATA_ENTITY_INTERNAL_STORAGE_MESSAGES_H_
