// Internal to //entity: the text of basic_entity_storage's errors
// (entity_storage.h), built out of line in storage_messages.cc. Only error
// paths call these, so the storage's hot paths stay small and entity
// headers need no string formatting library. Ids come already formatted
// (to_string of the storage's id type).
#ifndef STRATA_ENTITY_INTERNAL_STORAGE_MESSAGES_H_
#define STRATA_ENTITY_INTERNAL_STORAGE_MESSAGES_H_

#include <cstddef>
#include <string>

namespace strata::entity_internal {

// create() on a full storage.
std::string fixed_limit_full_message(std::size_t limit);
std::string id_space_full_message(std::size_t max_entities,
                                  std::size_t index_bits);

// id_of() through a handle that is not valid.
std::string null_handle_message();
// `now` is the id its index holds now, or empty if the index is free.
std::string stale_handle_message(const std::string& handle_id,
                                 std::size_t index, const std::string& now);

// make_handle() and metadata() of an id that is not alive.
std::string handle_of_dead_message(const std::string& id);
std::string metadata_of_dead_message(const std::string& id);

// The same, out of line and marked cold, so that the checks on the
// storage's hot paths inline to a compare and a call taken only on
// failure.
template <typename LimitPolicy, typename Traits>
[[gnu::cold, gnu::noinline]] std::string full_message() {
  if constexpr (LimitPolicy::is_fixed) {
    return fixed_limit_full_message(LimitPolicy::value);
  } else {
    return id_space_full_message(Traits::max_entities, Traits::index_bits);
  }
}
template <typename Id>
[[gnu::cold, gnu::noinline]] std::string metadata_of_dead_id_message(Id id) {
  return metadata_of_dead_message(to_string(id));
}

}  // namespace strata::entity_internal

#endif  // STRATA_ENTITY_INTERNAL_STORAGE_MESSAGES_H_
