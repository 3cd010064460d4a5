#include "entity/internal/storage_messages.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/versioned_id.h"

namespace strata::entity_internal {
namespace {

// The text the returned views point into (see the header).
std::string_view keep(std::string text) {
  thread_local std::string kept;
  kept = std::move(text);
  return kept;
}

std::string text_of(id_parts id) {
  if (id.is_null) return "null";
  return base_internal::versioned_id_text(id.index, id.version);
}

}  // namespace

std::string_view fixed_limit_full_message(std::size_t limit) {
  return keep(absl::StrCat("entity storage is full: fixed entity limit of ",
                           limit, " reached; existing entities are unchanged"));
}

std::string_view id_space_full_message(std::size_t max_entities,
                                       std::size_t index_bits) {
  return keep(absl::StrCat(
      "entity storage is full: the entity id type can index at most ",
      max_entities, " entities (", index_bits,
      " index bits); existing entities are unchanged"));
}

std::string_view null_handle_message() {
  return "entity storage: access through a null handle";
}

std::string_view stale_handle_message(id_parts handle, id_parts now) {
  return keep(absl::StrCat("entity storage: stale handle ", text_of(handle),
                           ": its entity was reclaimed (index ", handle.index,
                           now.is_null
                               ? std::string(" is free")
                               : absl::StrCat(" now holds ", text_of(now)),
                           ")"));
}

std::string_view handle_of_dead_message(id_parts id) {
  return keep(absl::StrCat("entity storage: make_handle(", text_of(id),
                           ") on an entity that is not alive"));
}

std::string_view metadata_of_dead_message(id_parts id) {
  return keep(absl::StrCat("entity storage: metadata of ", text_of(id),
                           ", which is not alive (stale or reclaimed id)"));
}

}  // namespace strata::entity_internal
