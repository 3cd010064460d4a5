// Internal to //component_storage: destroying the components an entity's
// bits name (component_storage::remove_all and destroy_all_of, which the
// refresh uses for killed entities). component_storage.h is the only user.
//
// Up to kUnrolledDestroyTypes component types, one inlined test per type (a
// few instructions each, cheaper than a call per component). Past that, with a
// strata::component_bitset (which exposes its words), only the set bits are
// visited, each through a table of one small function per type: a kill then
// costs the components the entity has rather than a test per type, and the
// code is one function per type instead of every type's removal unrolled
// into each caller (compile time: //benchmarks/compile:large_64x32).
#ifndef STRATA_COMPONENT_STORAGE_INTERNAL_DESTROY_BY_BITS_H_
#define STRATA_COMPONENT_STORAGE_INTERNAL_DESTROY_BY_BITS_H_

#include <array>
#include <bit>
#include <cstddef>
#include <type_traits>

#include "entity/entity_id.h"
#include "meta/type_list.h"

namespace strata::component_storage_internal {

inline constexpr std::size_t kUnrolledDestroyTypes = 16;

// Destroys `id`'s T in `storage` (its bit says it has one).
template <typename T, typename Storage>
void destroy_one(Storage& storage, entity_id id) {
  storage.template chunk_for<T>().template remove<T>(id);
}

// For each component type T of `storage` whose bit `bits` has: destroys
// id's T, then on_destroyed(bit), in bit order. remove_all and
// destroy_all_of differ only in on_destroyed.
template <typename Storage, typename Bitset, typename OnDestroyed>
void destroy_by_bits(Storage& storage, entity_id id, const Bitset& bits,
                     OnDestroyed on_destroyed) {
  using component_types = typename Storage::component_types;
  if constexpr (Storage::component_count > kUnrolledDestroyTypes &&
                requires { bits.word(0); }) {
    static constexpr auto destroy = []<typename... T>(type_list<T...>) {
      return std::array<void (*)(Storage&, entity_id), sizeof...(T)>{
          &destroy_one<T, Storage>...};
    }(component_types{});
    using word_type = std::remove_cvref_t<decltype(bits.word(0))>;
    for (std::size_t w = 0; w < Bitset::word_count; ++w) {
      for (word_type word = bits.word(w); word != 0;
           word = static_cast<word_type>(word & (word - 1))) {
        const std::size_t bit =
            w * Bitset::word_bits +
            static_cast<std::size_t>(std::countr_zero(word));
        destroy[bit](storage, id);
        on_destroyed(bit);
      }
    }
  } else {
    for_each_type(component_types{}, [&](auto component) {
      using T = typename decltype(component)::type;
      constexpr std::size_t bit = Storage::template id_of<T>();
      if (bits.test(bit)) {
        destroy_one<T>(storage, id);
        on_destroyed(bit);
      }
    });
  }
}

}  // namespace strata::component_storage_internal

#endif  // STRATA_COMPONENT_STORAGE_INTERNAL_DESTROY_BY_BITS_H_
