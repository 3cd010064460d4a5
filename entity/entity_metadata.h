// Per-entity metadata: the component bitset and a hook for storage-specific
// data.
//
// `component_bitset<N>` records which of the N component types (N fixed at
// compile time by the component signatures) an entity currently has. A system
// subscribes an entity when `matches(system_bits, entity_bits)`, i.e. when the
// entity has every component the system needs.
//
// `entity_metadata<N, Extra>` is the record the entity storage keeps per index:
// the bitset plus `Extra`, a compile-time hook where a component storage can
// keep per-entity data of its own (stored inline; an empty `Extra` costs no
// space thanks to [[no_unique_address]]).
//
// Where the validity counter lives: the seeds (ECST) keep it in this record.
// Strata keeps it in the entity storage's id slots instead, packed with the
// index exactly as in the entity id (see entity_storage.h): `alive()` and
// handle validation then read one id-sized word per check and never touch the
// (larger) metadata, and the counter shares that word with the free-list link.
// The storage resets the metadata of an index when it reclaims it, so a
// recycled index always starts with an empty bitset and default `Extra`.
//
// Complexity: every bitset operation is O(N / 64) word operations, constexpr
// and allocation-free; for N <= 64 that is a single word.
// Memory: the smallest unsigned word that holds N bits (1, 2 or 4 bytes for
// N <= 8, 16, 32), else 8 * ceil(N / 64) bytes. The storage keeps the
// records in an array of their own beside the id slots, so a small world's
// record is a few bytes: fewer bytes on every path that reads an entity's
// components (random access, kills, matching), and none on a liveness check.
// Thread-safety: plain values; concurrent reads are safe, writes need external
// synchronization (the context only writes bitsets during refresh).
#ifndef STRATA_ENTITY_ENTITY_METADATA_H_
#define STRATA_ENTITY_ENTITY_METADATA_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "base/check.h"

namespace strata {

// A fixed-size set of component indices.
//
// Why not std::bitset<N>: in C++20 its set/test/reset/operator&/operator== are
// not constexpr, so system and signature bitsets could not be computed at
// compile time; and its word type (unsigned long) and layout are unspecified.
// An array of uint64_t words keeps everything constexpr, makes the subset test
// one AND/compare per word with an early exit, and for the common N <= 64 is a
// single register. Bits past N in the last word are kept zero (every mutator
// masks), so `==`, `count()` and `none()` can compare whole words.
namespace entity_internal {
// The smallest unsigned word that holds N bits, or 64-bit words.
template <std::size_t N>
using bitset_word_t = std::conditional_t<
    N <= 8, std::uint8_t,
    std::conditional_t<
        N <= 16, std::uint16_t,
        std::conditional_t<N <= 32, std::uint32_t, std::uint64_t>>>;
}  // namespace entity_internal

template <std::size_t N>
class component_bitset {
  static_assert(N > 0, "component_bitset: at least one component type");

 public:
  using word_type = entity_internal::bitset_word_t<N>;
  static constexpr std::size_t word_bits = 8 * sizeof(word_type);
  static constexpr std::size_t word_count = (N + word_bits - 1) / word_bits;

  constexpr component_bitset() noexcept = default;

  // The bitset with exactly `indices` set, e.g. a system's required set.
  static constexpr component_bitset of(
      std::initializer_list<std::size_t> indices) noexcept {
    component_bitset bits;
    for (const std::size_t i : indices) bits.set(i);
    return bits;
  }

  static constexpr std::size_t size() noexcept { return N; }

  constexpr bool test(std::size_t i) const noexcept {
    STRATA_DCHECK(i < N, "component_bitset: component index out of range");
    return (words_[i / word_bits] >> (i % word_bits)) & word_type{1};
  }
  constexpr bool operator[](std::size_t i) const noexcept { return test(i); }

  constexpr component_bitset& set(std::size_t i, bool value = true) noexcept {
    STRATA_DCHECK(i < N, "component_bitset: component index out of range");
    const auto bit = static_cast<word_type>(word_type{1} << (i % word_bits));
    if (value) {
      words_[i / word_bits] |= bit;
    } else {
      words_[i / word_bits] &= static_cast<word_type>(~bit);
    }
    return *this;
  }
  constexpr component_bitset& set() noexcept {
    for (word_type& w : words_) w = kAllOnes;
    words_[word_count - 1] &= last_word_mask();
    return *this;
  }
  constexpr component_bitset& reset(std::size_t i) noexcept {
    return set(i, false);
  }
  constexpr component_bitset& reset() noexcept {
    for (word_type& w : words_) w = 0;
    return *this;
  }

  constexpr bool any() const noexcept { return !none(); }
  constexpr bool none() const noexcept {
    for (const word_type w : words_) {
      if (w != 0) return false;
    }
    return true;
  }
  constexpr bool all() const noexcept {
    for (std::size_t i = 0; i + 1 < word_count; ++i) {
      if (words_[i] != kAllOnes) return false;
    }
    return words_[word_count - 1] == last_word_mask();
  }
  constexpr std::size_t count() const noexcept {
    std::size_t n = 0;
    for (const word_type w : words_)
      n += static_cast<std::size_t>(std::popcount(w));
    return n;
  }

  // True when every bit of `required` is also set here.
  constexpr bool contains_all(const component_bitset& required) const noexcept {
    for (std::size_t i = 0; i < word_count; ++i) {
      if ((required.words_[i] & words_[i]) != required.words_[i]) return false;
    }
    return true;
  }

  constexpr component_bitset& operator&=(const component_bitset& o) noexcept {
    for (std::size_t i = 0; i < word_count; ++i) words_[i] &= o.words_[i];
    return *this;
  }
  constexpr component_bitset& operator|=(const component_bitset& o) noexcept {
    for (std::size_t i = 0; i < word_count; ++i) words_[i] |= o.words_[i];
    return *this;
  }
  constexpr component_bitset& operator^=(const component_bitset& o) noexcept {
    for (std::size_t i = 0; i < word_count; ++i) words_[i] ^= o.words_[i];
    return *this;
  }
  friend constexpr component_bitset operator&(
      component_bitset a, const component_bitset& b) noexcept {
    return a &= b;
  }
  friend constexpr component_bitset operator|(
      component_bitset a, const component_bitset& b) noexcept {
    return a |= b;
  }
  friend constexpr component_bitset operator^(
      component_bitset a, const component_bitset& b) noexcept {
    return a ^= b;
  }
  constexpr component_bitset operator~() const noexcept {
    component_bitset r;
    for (std::size_t i = 0; i < word_count; ++i) {
      r.words_[i] = static_cast<word_type>(~words_[i]);
    }
    r.words_[word_count - 1] &= last_word_mask();
    return r;
  }
  // Word by word: a defaulted == compares the std::array with a call to
  // memcmp, a visible share of a remove + add (entity_benchmark,
  // RemoveAddComponent).
  friend constexpr bool operator==(const component_bitset& a,
                                   const component_bitset& b) noexcept {
    for (std::size_t i = 0; i < word_count; ++i) {
      if (a.words_[i] != b.words_[i]) return false;
    }
    return true;
  }

  // Raw word access, e.g. for hashing or SIMD-minded callers.
  constexpr word_type word(std::size_t w) const noexcept { return words_[w]; }

 private:
  // ~ and << promote small words to int: cast back.
  static constexpr word_type kAllOnes = static_cast<word_type>(~word_type{0});
  static constexpr word_type last_word_mask() noexcept {
    constexpr std::size_t used = N % word_bits;
    return used == 0 ? kAllOnes
                     : static_cast<word_type>((word_type{1} << used) - 1);
  }

  std::array<word_type, word_count> words_{};
};

// Whether an entity with components `entity` satisfies `required`:
// (required & entity) == required, computed word by word without a temporary.
template <std::size_t N>
constexpr bool matches(const component_bitset<N>& required,
                       const component_bitset<N>& entity) noexcept {
  return entity.contains_all(required);
}

// The default `Extra`: no storage-specific metadata.
struct no_extra_metadata {
  friend constexpr bool operator==(no_extra_metadata,
                                   no_extra_metadata) = default;
};

// What the entity storage keeps per index besides the id slot. Default
// construction is the "fresh entity" state the storage restores on reclaim.
template <std::size_t ComponentCount, typename Extra = no_extra_metadata>
struct entity_metadata {
  using bitset_type = component_bitset<ComponentCount>;
  using extra_type = Extra;
  static constexpr std::size_t component_count = ComponentCount;

  bitset_type components;
  [[no_unique_address]] Extra extra;

  friend constexpr bool operator==(const entity_metadata&,
                                   const entity_metadata&) = default;
};

}  // namespace strata

#endif  // STRATA_ENTITY_ENTITY_METADATA_H_
