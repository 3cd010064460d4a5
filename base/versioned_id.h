// Versioned identifiers: the id concept sparse sets and entity storage share.
//
// A versioned id is one unsigned integer split into an index (low bits: which
// slot the object, e.g. an entity, occupies) and a version (high bits: how
// many times that slot was recycled). Storing the version lets every
// container tell a live object from a stale id whose slot was reused (seed
// 004).
//
// Widths are chosen at compile time through `versioned_id_traits<Int,
// IndexBits>`; //entity names the two it uses (entity/entity_id.h):
//   * 32-bit ids with 22 index bits and 10 version bits (`entity_id`):
//     indices 0 .. 4'194'302, versions 0 .. 1022;
//   * 64-bit ids with 32 index bits and 32 version bits (`entity_id64`).
//
// `versioned_id<Id>` is the concept a container of versioned ids needs
// (//sparse_set is templated on it); `basic_versioned_id<Traits>` is the one
// model Strata ships. It lives here, below both //sparse_set and //entity, so
// neither depends on the other.
//
// Reserved values:
//   * the null index (all index bits set) never names an entity; an id whose
//     index is null `is_null()`. `Id::null()` has all bits set.
//   * the tombstone version (all version bits set) is never handed out;
//     `next_version()` skips it, wrapping from the largest real version to 0.
//
// Ids are trivially copyable values; all operations are constexpr, O(1) and
// thread-safe. Equality compares the whole value (index and version).
#ifndef STRATA_BASE_VERSIONED_ID_H_
#define STRATA_BASE_VERSIONED_ID_H_

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>

#include "base/internal/dependent_string.h"
#include "base/internal/standard_parts.h"

namespace strata {

namespace base_internal {
// The text of to_string(id), built out of line in versioned_id.cc: every
// id type shares one non-template function, so a program that never prints
// an id compiles no number formatting for it. Declared only: this header
// does not include <string> (see to_string below).
std::string versioned_id_text(std::uint64_t index, std::uint64_t version);
}  // namespace base_internal

template <std::unsigned_integral Int, int IndexBits>
struct versioned_id_traits {
  static_assert(
      IndexBits > 0 && IndexBits < std::numeric_limits<Int>::digits,
      "versioned_id_traits: IndexBits must leave at least one version bit");
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

template <typename Traits>
class basic_versioned_id {
 public:
  using traits = Traits;
  using value_type = typename Traits::value_type;

  // The default id is null.
  constexpr basic_versioned_id() noexcept = default;

  // Builds an id from an index and a version; both are masked to their width.
  static constexpr basic_versioned_id combine(value_type index,
                                              value_type version) noexcept {
    return from_value(static_cast<value_type>(
        (index & Traits::index_mask) |
        static_cast<value_type>(version << Traits::index_bits)));
  }
  static constexpr basic_versioned_id from_value(value_type value) noexcept {
    basic_versioned_id id;
    id.value_ = value;
    return id;
  }
  // All bits set: null index and tombstone version.
  static constexpr basic_versioned_id null() noexcept {
    return basic_versioned_id();
  }
  // The id of `index` carrying the tombstone version: never alive.
  static constexpr basic_versioned_id tombstone(value_type index) noexcept {
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
  constexpr basic_versioned_id next_version() const noexcept {
    const value_type next = static_cast<value_type>(version() + 1);
    return combine(index(),
                   next >= Traits::tombstone_version ? value_type{0} : next);
  }

  friend constexpr bool operator==(basic_versioned_id,
                                   basic_versioned_id) = default;
  friend constexpr auto operator<=>(basic_versioned_id,
                                    basic_versioned_id) = default;

  // "index@version", or "null" for the null index, as a std::string. This
  // header only declares std::string (base/internal/dependent_string.h): a
  // caller includes <string>, as it would to use the result. operator<<
  // (which also needs <ostream>) and AbslStringify call it, so the same
  // holds for them.
  friend base_internal::dependent_string<Traits> to_string(
      basic_versioned_id id) {
    if (id.is_null()) return "null";
    return base_internal::versioned_id_text(id.index(), id.version());
  }
  friend std::ostream& operator<<(std::ostream& os, basic_versioned_id id) {
    return os << to_string(id);
  }
  template <typename Sink>
  friend void AbslStringify(Sink& sink, basic_versioned_id id) {
    sink.Append(to_string(id));
  }
  template <typename H>
  friend H AbslHashValue(H state, basic_versioned_id id) {
    return H::combine(std::move(state), id.value_);
  }

 private:
  value_type value_ = std::numeric_limits<value_type>::max();
};

// What a container of versioned ids relies on.
template <typename Id>
concept versioned_id = requires(const Id id, typename Id::value_type value) {
  typename Id::traits;
  requires std::same_as<typename Id::value_type,
                        typename Id::traits::value_type>;
  requires std::unsigned_integral<typename Id::value_type>;
  { Id::traits::index_bits } -> std::convertible_to<int>;
  { Id::traits::index_mask } -> std::convertible_to<typename Id::value_type>;
  { Id::traits::version_mask } -> std::convertible_to<typename Id::value_type>;
  { Id::traits::null_index } -> std::convertible_to<typename Id::value_type>;
  { Id::from_value(value) } -> std::same_as<Id>;
  { Id::null() } -> std::same_as<Id>;
  { id.value() } -> std::same_as<typename Id::value_type>;
  { id.index() } -> std::same_as<typename Id::value_type>;
  { id.version() } -> std::same_as<typename Id::value_type>;
  { id.is_null() } -> std::same_as<bool>;
  { id.has_tombstone_version() } -> std::same_as<bool>;
  { id == id } -> std::convertible_to<bool>;
};

}  // namespace strata

template <typename Traits>
struct std::hash<strata::basic_versioned_id<Traits>> {
  std::size_t operator()(strata::basic_versioned_id<Traits> id) const noexcept {
    return std::hash<typename Traits::value_type>{}(id.value());
  }
};

#endif  // STRATA_BASE_VERSIONED_ID_H_
