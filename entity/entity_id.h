// Versioned entity identifiers.
//
// An entity id is one unsigned integer split into an index (low bits: which
// slot the entity occupies) and a version (high bits: how many times that
// slot was recycled). Storing the version lets every container tell a live
// entity from a stale id whose slot was reused (seed 004).
//
// Widths are chosen at compile time through `entity_traits<Int, IndexBits>`:
//   * entity_traits32 (the default, `entity_id`): 22 index bits and 10 version
//     bits: indices 0 .. 4'194'302, versions 0 .. 1022.
//   * entity_traits64 (`entity_id64`): 32 index bits and 32 version bits.
//
// Reserved values:
//   * the null index (all index bits set) never names an entity; an id whose
//     index is null `is_null()`. `entity_id::null()` has all bits set.
//   * the tombstone version (all version bits set) is never handed out;
//     `next_version()` skips it, wrapping from the largest real version to 0.
//
// Ids are trivially copyable values; all operations are constexpr, O(1) and
// thread-safe. Equality compares the whole value (index and version).
#ifndef STRATA_ENTITY_ENTITY_ID_H_
#define STRATA_ENTITY_ENTITY_ID_H_

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <ostream>
#include <string>

namespace strata {

template <std::unsigned_integral Int, int IndexBits>
struct entity_traits {
  static_assert(IndexBits > 0 && IndexBits < std::numeric_limits<Int>::digits,
                "entity_traits: IndexBits must leave at least one version bit");
  using value_type = Int;
  static constexpr int index_bits = IndexBits;
  static constexpr int version_bits =
      std::numeric_limits<Int>::digits - IndexBits;
  // Mask of the index bits, in place; also the reserved null index.
  static constexpr value_type index_mask = (value_type{1} << IndexBits) - 1;
  // Mask of the version bits, in place.
  static constexpr value_type version_mask =
      static_cast<value_type>(~index_mask);
  static constexpr value_type null_index = index_mask;
  // Largest version value; reserved as the tombstone.
  static constexpr value_type tombstone_version =
      static_cast<value_type>(version_mask >> IndexBits);
  // How many distinct indices can name live entities (0 .. max_entities-1).
  static constexpr std::size_t max_entities =
      static_cast<std::size_t>(null_index);
};

using entity_traits32 = entity_traits<std::uint32_t, 22>;
using entity_traits64 = entity_traits<std::uint64_t, 32>;

template <typename Traits>
class basic_entity_id {
 public:
  using traits = Traits;
  using value_type = typename Traits::value_type;

  // The default id is null.
  constexpr basic_entity_id() noexcept = default;

  // Builds an id from an index and a version; both are masked to their width.
  static constexpr basic_entity_id combine(value_type index,
                                           value_type version) noexcept {
    return from_value(static_cast<value_type>(
        (index & Traits::index_mask) |
        static_cast<value_type>(version << Traits::index_bits)));
  }
  static constexpr basic_entity_id from_value(value_type value) noexcept {
    basic_entity_id id;
    id.value_ = value;
    return id;
  }
  // All bits set: null index and tombstone version.
  static constexpr basic_entity_id null() noexcept { return basic_entity_id(); }
  // The id of `index` carrying the tombstone version: never alive.
  static constexpr basic_entity_id tombstone(value_type index) noexcept {
    return combine(index, Traits::tombstone_version);
  }

  constexpr value_type value() const noexcept { return value_; }
  constexpr value_type index() const noexcept {
    return value_ & Traits::index_mask;
  }
  constexpr value_type version() const noexcept {
    return static_cast<value_type>(value_ >> Traits::index_bits);
  }
  constexpr bool is_null() const noexcept {
    return index() == Traits::null_index;
  }
  constexpr bool has_tombstone_version() const noexcept {
    return version() == Traits::tombstone_version;
  }

  // The same index with the next version; never yields the tombstone version
  // (wraps from tombstone_version - 1 to 0).
  constexpr basic_entity_id next_version() const noexcept {
    const value_type next = static_cast<value_type>(version() + 1);
    return combine(index(),
                   next >= Traits::tombstone_version ? value_type{0} : next);
  }

  friend constexpr bool operator==(basic_entity_id, basic_entity_id) = default;
  friend constexpr auto operator<=>(basic_entity_id, basic_entity_id) = default;

  // "index@version", or "null" for the null index.
  friend std::string to_string(basic_entity_id id) {
    if (id.is_null()) return "null";
    return std::to_string(id.index()) + "@" + std::to_string(id.version());
  }
  friend std::ostream& operator<<(std::ostream& os, basic_entity_id id) {
    return os << to_string(id);
  }
  template <typename Sink>
  friend void AbslStringify(Sink& sink, basic_entity_id id) {
    sink.Append(to_string(id));
  }
  template <typename H>
  friend H AbslHashValue(H state, basic_entity_id id) {
    return H::combine(std::move(state), id.value_);
  }

 private:
  value_type value_ = std::numeric_limits<value_type>::max();
};

using entity_id = basic_entity_id<entity_traits32>;
using entity_id64 = basic_entity_id<entity_traits64>;

inline constexpr entity_id null_entity = entity_id::null();

}  // namespace strata

template <typename Traits>
struct std::hash<strata::basic_entity_id<Traits>> {
  std::size_t operator()(strata::basic_entity_id<Traits> id) const noexcept {
    return std::hash<typename Traits::value_type>{}(id.value());
  }
};

#endif  // STRATA_ENTITY_ENTITY_ID_H_
