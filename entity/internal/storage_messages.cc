#include "entity/internal/storage_messages.h"

#include <cstddef>
#include <string>

#include "absl/strings/str_cat.h"

namespace strata::entity_internal {

std::string fixed_limit_full_message(std::size_t limit) {
  return absl::StrCat("entity storage is full: fixed entity limit of ", limit,
                      " reached; existing entities are unchanged");
}

std::string id_space_full_message(std::size_t max_entities,
                                  std::size_t index_bits) {
  return absl::StrCat(
      "entity storage is full: the entity id type can index at most ",
      max_entities, " entities (", index_bits,
      " index bits); existing entities are unchanged");
}

std::string null_handle_message() {
  return "entity storage: access through a null handle";
}

std::string stale_handle_message(const std::string& handle_id,
                                 std::size_t index, const std::string& now) {
  return absl::StrCat(
      "entity storage: stale handle ", handle_id,
      ": its entity was reclaimed (index ", index,
      now.empty() ? std::string(" is free") : absl::StrCat(" now holds ", now),
      ")");
}

std::string handle_of_dead_message(const std::string& id) {
  return absl::StrCat("entity storage: make_handle(", id,
                      ") on an entity that is not alive");
}

std::string metadata_of_dead_message(const std::string& id) {
  return absl::StrCat("entity storage: metadata of ", id,
                      ", which is not alive (stale or reclaimed id)");
}

}  // namespace strata::entity_internal
