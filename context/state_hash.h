// The state hash: a 64-bit fingerprint of a context's world.
//
//   #include "context/state_hash.h"   // (strata.h does not: xxHash stays
//                                     // out of programs that do not hash)
//   std::uint64_t h = ctx.state_hash();  // between steps
//
// Two worlds with the same state have the same hash, whatever thread count,
// scheduler or hand-off mode produced them; a different state almost
// certainly (xxHash's XXH3, 64 bits) has a different one. Use it to check
// determinism (the same inputs give the same hash on every run and every
// machine with the same build), to compare a re-simulation after a rollback
// with the first run (context/snapshot.h), or to detect a desync between
// peers of a lockstep game.
//
// What is hashed, in this order (the canonical order):
//   1. the entity storage: the number of indices ever used, the live count,
//      the free list's ends, and every index's slot (a live entity's id
//      with its version; a free index's next version and free-list link),
//      then each live entity's component bits;
//   2. every component of every live entity: type by type in the component
//      list's order, each type's components in entity-index order;
//   3. every resource, in the order the settings declare them.
// Not hashed: what snapshots leave out too (systems' own members, the
// step count, measured costs, the trace).
//
// How a value is hashed (the padding rule). A value's bytes may include
// padding, whose contents the language leaves indeterminate: two equal
// objects may differ there, which would make "equal for equal states"
// false. So a value of type T is hashed:
//   * through the user's `void hash_state(strata::state_hasher&, const T&)`
//     when one is found by argument-dependent lookup (it feeds the fields
//     that make up T's state with hasher.add(field));
//   * else, for an empty T, as nothing (its component bit says it all);
//   * else, for T with std::has_unique_object_representations_v (integers,
//     enums, and classes of them without padding), as its bytes;
//   * else, for a trivially copyable T (floating-point members, or
//     padding), as the bytes of a copy whose padding bits are cleared
//     (__builtin_clear_padding, GCC). A compiler without that builtin
//     (Clang 14) cannot tell padding from members, and hashes the padding
//     bytes as they are: they come from whatever the memory held before,
//     so equal worlds hash differently. The rule for portable hashes: a
//     component or resource type has no padding (order members by size,
//     or turn padding into members: `std::uint8_t spare[3] = {};`), or a
//     hash_state;
//   * else (not trivially copyable, e.g. it holds a std::string): compiling
//     ctx.state_hash() is an error naming T; write its hash_state.
// Floating-point values are hashed as their bits: +0 and -0, or two NaNs
// with different payloads, are different states (a re-simulation is
// bit-identical or it is not).
//
// Cost: one pass over the entity slots and, per component type, over the
// live entities that have it, feeding XXH3 through a 4 KB buffer; no
// allocation. O(entity slots × (1 + component types)) tests plus the bytes
// hashed. `//benchmarks:snapshot_benchmark` (StateHash) reports ns per entity.
//
// Thread-safety: reads the world; between steps, from the thread that owns
// the context.
#ifndef STRATA_CONTEXT_STATE_HASH_H_
#define STRATA_CONTEXT_STATE_HASH_H_

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t on the stack: no allocation
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "context/snapshot.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

class state_hasher;

namespace diagnostic {

template <typename T>
inline constexpr bool state_hash_of_unhashable_type = [] {
  static_assert(always_false<T>,
                "ctx.state_hash(): this component or resource type (named "
                "above) is not trivially copyable, so its bytes are not its "
                "state; define `void hash_state(strata::state_hasher& h, "
                "const T& value)` next to it, calling h.add(member) for what "
                "makes up its state (context/state_hash.h)");
  return false;
}();

}  // namespace diagnostic

namespace context_internal {

template <typename T>
concept has_hash_state = requires(state_hasher& hasher, const T& value) {
  hash_state(hasher, value);
};

}  // namespace context_internal

// Feeds values to XXH3 (64 bits) in the canonical form the padding rule
// above gives. Users meet it in their hash_state functions.
class state_hasher {
 public:
  state_hasher() noexcept { XXH3_64bits_reset(&state_); }
  state_hasher(const state_hasher&) = delete;
  state_hasher& operator=(const state_hasher&) = delete;

  // Hashes `value` by the rule at the top of this file.
  template <typename T>
  void add(const T& value) {
    if constexpr (context_internal::has_hash_state<T>) {
      hash_state(*this, value);
    } else if constexpr (std::is_empty_v<T>) {
    } else if constexpr (std::has_unique_object_representations_v<T>) {
      add_bytes(&value, sizeof(T));
    } else if constexpr (std::is_trivially_copyable_v<T>) {
      alignas(T) unsigned char copy[sizeof(T)];
      std::memcpy(copy, &value, sizeof(T));
#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
      __builtin_clear_padding(reinterpret_cast<T*>(copy));
#endif
#endif
      add_bytes(copy, sizeof(T));
    } else {
      diagnostic::report(diagnostic::state_hash_of_unhashable_type<T>);
    }
  }

  // Hashes `size` bytes as they are.
  void add_bytes(const void* data, std::size_t size) {
    if (used_ + size > sizeof(buffer_)) {
      flush();
      if (size > sizeof(buffer_)) {
        XXH3_64bits_update(&state_, data, size);
        return;
      }
    }
    std::memcpy(buffer_ + used_, data, size);
    used_ += size;
  }

  // The hash of everything added so far.
  std::uint64_t finish() {
    flush();
    return XXH3_64bits_digest(&state_);
  }

 private:
  void flush() {
    XXH3_64bits_update(&state_, buffer_, used_);
    used_ = 0;
  }

  XXH3_state_t state_;
  std::size_t used_ = 0;
  alignas(64) unsigned char buffer_[4096];
};

namespace context_internal {

template <typename Types>
struct world_hash {
  using component_types = typename Types::component_list::component_types;
  using resource_types =
      typename resource_types_of<typename Types::resource_storage_type>::type;

  template <typename Core>
  static std::uint64_t of(const Core& core) {
    state_hasher hasher;
    add_entities(hasher, core.entities());
    add_components(hasher, core,
                   std::make_index_sequence<size_v<component_types>>{});
    add_resources(hasher, core.resources(), resource_types{});
    return hasher.finish();
  }

  template <typename Entities>
  static void add_entities(state_hasher& hasher, const Entities& entities) {
    const std::uint64_t header[4] = {entities.end_index(), entities.size(),
                                     entities.free_list_head(),
                                     entities.free_list_tail()};
    hasher.add(header);
    const std::size_t end = entities.end_index();
    for (std::size_t i = 0; i < end; ++i) {
      hasher.add(entities.slot_value(i));
      if (!entities.alive_at(i)) continue;
      const auto& bits = entities.metadata_at(i).components;
      for (std::size_t w = 0; w < bits.word_count; ++w)
        hasher.add(bits.word(w));
    }
  }

  template <typename Core, std::size_t... K>
  static void add_components(state_hasher& hasher, const Core& core,
                             std::index_sequence<K...>) {
    (add_component<K>(hasher, core), ...);
  }
  template <std::size_t K, typename Core>
  static void add_component(state_hasher& hasher, const Core& core) {
    using T = type_at_t<K, component_types>;
    if constexpr (!std::is_empty_v<T> || context_internal::has_hash_state<T>) {
      const auto& entities = core.entities();
      const std::size_t end = entities.end_index();
      for (std::size_t i = 0; i < end; ++i) {
        if (entities.alive_at(i) &&
            entities.metadata_at(i).components.test(K)) {
          hasher.add(core.components().template get<T>(entities.live_id_at(i)));
        }
      }
    }
  }

  template <typename Resources, typename... Ts>
  static void add_resources(state_hasher& hasher, const Resources& resources,
                            type_list<Ts...>) {
    (hasher.add(resources.template get<Ts>()), ...);
  }
};

}  // namespace context_internal

}  // namespace strata

#endif  // STRATA_CONTEXT_STATE_HASH_H_
