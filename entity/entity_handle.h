// Entity handles: an (index, validity counter) pair that detects reuse.
//
// The bug this type exists to prevent: in ECST a handle stores the entity id
// and the slot's validity counter, but its `alive(handle)` looks only at the
// id's slot; once that entity is killed and the index handed to a new entity,
// the stale handle reports "alive" and reads the new entity's components.
//
// In Strata the validity counter *is* the id's version: the entity storage
// bumps the version of a slot every time it reclaims it, and a handle keeps the
// version its entity was created with. `storage.valid(handle)` compares the
// handle's counter with the slot's current version (and checks the slot is
// occupied), so a reclaimed entity's handle is invalid even after its index is
// reused: the reused slot carries a different version. The only way back to an
// id is through the storage (`valid`, `access`, `id_of`), which always makes
// that comparison; there is no accessor that skips it except the explicitly
// named `unchecked_id()`.
//
// Limit: the counter has Traits::version_bits bits and wraps (skipping the
// tombstone) after Traits::tombstone_version reuses of the same index, at which
// point a handle that old would validate again. With the default 32-bit ids
// that is 1023 reuses of one index; the storage recycles indices in FIFO order
// to spread reuse over all free indices (see entity_storage.h). Use
// entity_traits64 (2^32 - 1 reuses) where handles are kept for very long.
//
// Complexity: O(1) everything; a handle is exactly one id in size.
// Thread-safety: a handle is an immutable value, safe to copy and read from
// any thread. Validating it reads the storage (see entity_storage.h).
#ifndef STRATA_ENTITY_ENTITY_HANDLE_H_
#define STRATA_ENTITY_ENTITY_HANDLE_H_

#include <iosfwd>
#include <utility>

#include "base/internal/dependent_string.h"
#include "entity/entity_id.h"

namespace strata {

template <typename Traits>
class basic_entity_handle {
 public:
  using traits = Traits;
  using id_type = basic_entity_id<Traits>;
  using value_type = typename Traits::value_type;

  // The null handle: never valid.
  constexpr basic_entity_handle() noexcept = default;
  // Prefer storage.make_handle(id), which checks that `id` is alive.
  constexpr explicit basic_entity_handle(id_type id) noexcept : id_(id) {}

  constexpr value_type index() const noexcept { return id_.index(); }
  // The validity counter: the version of the slot when the handle was made.
  constexpr value_type counter() const noexcept { return id_.version(); }
  constexpr bool is_null() const noexcept { return id_.is_null(); }

  // The id as it was when the handle was made, WITHOUT checking that it still
  // names the same entity. Use storage.access(handle) / id_of(handle) instead.
  constexpr id_type unchecked_id() const noexcept { return id_; }

  friend constexpr bool operator==(basic_entity_handle,
                                   basic_entity_handle) = default;

  // "handle(index@version)", as a std::string: as to_string(id)
  // (base/versioned_id.h), a caller includes <string>.
  friend base_internal::dependent_string<Traits> to_string(
      basic_entity_handle h) {
    return "handle(" + to_string(h.id_) + ")";
  }
  friend std::ostream& operator<<(std::ostream& os, basic_entity_handle h) {
    return os << to_string(h);
  }
  template <typename H>
  friend H AbslHashValue(H state, basic_entity_handle h) {
    return H::combine(std::move(state), h.id_);
  }

 private:
  id_type id_;
};

using entity_handle = basic_entity_handle<entity_traits32>;
using entity_handle64 = basic_entity_handle<entity_traits64>;

}  // namespace strata

#endif  // STRATA_ENTITY_ENTITY_HANDLE_H_
