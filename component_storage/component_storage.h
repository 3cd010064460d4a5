// The aggregate component storage: one chunk per component signature.
//
//   constexpr auto components = strata::component_signatures(
//       strata::component_signature::make(ct::position,  // contiguous, SoA
//                                         ct::velocity),
//       strata::component_signature::make(ct::health).sparse());
//   strata::component_storage<decltype(components),
//                             strata::fixed_limit<100'000>> storage;
//   storage.add(ct::position, e, bits, 1.f, 2.f);  // sets bits[id(position)]
//   storage.get(ct::position, e).x += 1;
//   storage.remove_all(e, bits);                    // e was killed
//
// Each signature's storage selector picks its chunk at compile time:
//   storage::contiguous_buffer -> contiguous_buffer_chunk (SoA) or
//                                 aos_contiguous_buffer_chunk (.aos()); or
//                                 empty_chunk when every component is empty
//                                 and trivially destructible;
//   storage::sparse            -> sparse_chunk;
//   storage::hash_map          -> hash_map_chunk (include
//                                 "component_storage/hash_map_chunk.h":
//                                 neither this header nor strata.h does, so
//                                 that only programs using it pay to
//                                 compile absl::flat_hash_map; forgetting
//                                 it is a compile error that says so);
//   a user selector S          -> S::chunk<Limit, Components...>, checked
//                                 against the component_chunk concept
//                                 (chunk.h) with a readable error.
// Every access (`get`, `add`, `remove`) is dispatched to its chunk at compile
// time: no run-time branching, no virtual calls. Using a component type that
// no signature stores is a compile error naming the type.
//
// Which entity has which component is recorded in the caller's per-entity
// component bitset (`Bitset`: any type with test(i), set(i), reset(i), such
// as std::bitset or strata::component_bitset); bit i is component id i of the
// signature list (`id_of<T>()`). `add` and `remove` keep the bit and the
// chunk in step; `remove_all` empties an entity before its index is recycled.
//
// Run-time results:
//   * add<T> builds the T from args first, then stores it (a move), so args
//     may refer to any component of the storage, the entity's own T
//     included, even when storing makes the storage grow. When the bit is
//     already set it REPLACES the component: the old one is destroyed, then
//     the new one moved in. If the constructor throws, nothing changed (a
//     replaced T is kept); if the move into the storage (or its growth)
//     throws after the old T was destroyed, the entity is left without T
//     (bit reset). Nothing leaks either way.
//   * remove<T> when the bit is not set is a no-op.
//   * get<T> requires the bit to be set (checked by STRATA_DCHECK in chunks
//     that can tell).
//
// Complexity and memory are those of the chunks; remove_all is O(number of
// component types) up to 16 types, and past that, with a
// strata::component_bitset, O(bitset words + components the entity has);
// count<T>() (entities with T) is O(1). Reference invalidation: as
// documented by each chunk (e.g. a dynamic contiguous buffer invalidates all
// its references when it grows, a fixed one never).
//
// Thread-safety: as the chunks. In short: get() on distinct entities (or
// distinct components) may run concurrently with writes through the returned
// references, for every built-in chunk; add/remove/remove_all are critical
// operations to run sequentially (a fixed contiguous buffer additionally
// tolerates concurrent add/remove on distinct entities, but the caller's
// bitsets must then be distinct objects too).
#ifndef STRATA_COMPONENT_STORAGE_COMPONENT_STORAGE_H_
#define STRATA_COMPONENT_STORAGE_COMPONENT_STORAGE_H_

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "base/internal/flat_tuple.h"
#include "base/internal/make_object.h"
#include "base/limit.h"
#include "component_storage/chunk.h"
#include "component_storage/component_signature.h"
#include "component_storage/contiguous_buffer_chunk.h"
#include "component_storage/empty_chunk.h"
#include "component_storage/internal/chunk_selection.h"
#include "component_storage/internal/destroy_by_bits.h"
#include "component_storage/internal/storage_traits.h"
#include "component_storage/sparse_chunk.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/tag.h"
#include "meta/type_list.h"

namespace strata {

template <typename ComponentList, typename Limit>
class component_storage {
 public:
  using component_list = std::remove_cvref_t<ComponentList>;
  using limit_type = Limit;
  using component_types = typename component_list::component_types;
  using size_type = std::size_t;

 private:
  static_assert(
      component_storage_internal::is_signature_list<component_list>,
      "component_storage<ComponentList, Limit>: ComponentList must be the "
      "type of strata::component_signatures(...), e.g. "
      "decltype(components)");
  static_assert(limit_policy<Limit>,
                "component_storage: Limit must be fixed_limit<N> or "
                "dynamic_limit");
  using chunk_list_impl = component_storage_internal::chunk_list<
      Limit, typename component_list::signature_types>;
  using checked_ = decltype(chunk_list_impl::check());

 public:
  // One chunk type per signature, in signature order.
  using chunk_types = typename chunk_list_impl::type;
  // The non-void `entity_metadata` hooks of the chunks (chunk.h).
  using entity_metadata_types =
      typename component_storage_internal::metadata_list<chunk_types>::type;

  static constexpr size_type component_count = component_list::count;

  template <typename T>
  static constexpr bool stores = component_list::template stores<T>;

  // T's bit in the entity's component bitset.
  template <typename T>
  static constexpr size_type id_of() {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
      return 0;
    } else {
      return index_of_v<T, component_types>;
    }
  }

  // The chunk type that stores T.
  template <typename T>
  using chunk_type =
      type_at_t<component_list::template signature_index_of<T>(), chunk_types>;

  component_storage() = default;
  // Reserves room for `initial_capacity` entities in chunks that can reserve
  // (dynamic capacity; ignored by fixed contiguous buffers).
  explicit component_storage(size_type initial_capacity) {
    reserve(initial_capacity);
  }

  component_storage(component_storage&&) = default;
  component_storage& operator=(component_storage&&) = default;
  component_storage(const component_storage&) = delete;
  component_storage& operator=(const component_storage&) = delete;

  // Precondition: the entity has T (its bit is set).
  template <typename T>
  T& get(entity_id id) {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
      return diagnostic::after_report<T>();
    } else {
      return chunk_for<T>().template get<T>(id);
    }
  }
  template <typename T>
  const T& get(entity_id id) const {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
      return diagnostic::after_report<T>();
    } else {
      return chunk_for<T>().template get<T>(id);
    }
  }
  template <tag_value Tag>
  tag_type<Tag>& get(Tag, entity_id id) {
    return get<tag_type<Tag>>(id);
  }
  template <tag_value Tag>
  const tag_type<Tag>& get(Tag, entity_id id) const {
    return get<tag_type<Tag>>(id);
  }

  // Pointer to id's T, or nullptr if its bit is not set.
  template <typename T, typename Bitset>
  T* try_get(entity_id id, const Bitset& bits) {
    return bits.test(id_of<T>()) ? &get<T>(id) : nullptr;
  }
  template <typename T, typename Bitset>
  const T* try_get(entity_id id, const Bitset& bits) const {
    return bits.test(id_of<T>()) ? &get<T>(id) : nullptr;
  }

  // Constructs id's T from args and sets its bit; replaces a T the entity
  // already has. The T is built from args before the storage changes (then
  // moved in), so args may refer into this storage, e.g. add(e, bits,
  // get<T>(other)), as std::vector::push_back(v[0]) may: creating the T can
  // reallocate what they refer to. And a constructor that throws leaves
  // everything as it was: the entity keeps the T it had. (Only the move into
  // the storage, or the storage's growth, can then throw after a replaced T was
  // destroyed; the entity is then without a T, its bit clear.)
  template <typename T, typename Bitset, typename... Args>
  T& add(entity_id id, Bitset& bits, Args&&... args) {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
      return diagnostic::after_report<T>();
    } else if constexpr (builds_first<T, Args...>) {
      return put<T>(id, bits,
                    base_internal::make_object<T>(std::forward<Args>(args)...));
    } else {
      return put<T>(id, bits, std::forward<Args>(args)...);
    }
  }
  template <tag_value Tag, typename Bitset, typename... Args>
  tag_type<Tag>& add(Tag, entity_id id, Bitset& bits, Args&&... args) {
    return add<tag_type<Tag>>(id, bits, std::forward<Args>(args)...);
  }

 private:
  // Whether add builds the T before the storage changes: when there are
  // arguments to build it from, and it can be moved in.
  template <typename T, typename... Args>
  static constexpr bool builds_first =
      sizeof...(Args) > 0 && std::is_move_constructible_v<T>;

  // add's work on the storage, from the T's arguments.
  template <typename T, typename Bitset, typename... Args>
  T& put(entity_id id, Bitset& bits, Args&&... args) {
    {
      constexpr size_type bit = id_of<T>();
      auto& chunk = chunk_for<T>();
      if (bits.test(bit)) {
        chunk.template remove<T>(id);
        bits.reset(bit);
        --counts_[bit];
      }
      T& component = chunk.template create<T>(id, std::forward<Args>(args)...);
      bits.set(bit);
      ++counts_[bit];
      return component;
    }
  }

 public:
  // For batches of new entities (the context's create_entities): add<T>
  // for an entity known to have no T (its bit clear: checked in debug
  // builds), and without counting it; the caller adds the batch's count
  // once with count_new<T>(n). Saves the replace test and a count update in
  // memory per entity.
  template <typename T, typename Bitset, typename... Args>
  T& add_new(entity_id id, Bitset& bits, Args&&... args) {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
      return diagnostic::after_report<T>();
    } else {
      constexpr size_type bit = id_of<T>();
      STRATA_DCHECK(!bits.test(bit),
                    "component_storage::add_new of a component the entity "
                    "already has");
      T& component =
          chunk_for<T>().template create<T>(id, std::forward<Args>(args)...);
      bits.set(bit);
      return component;
    }
  }
  template <typename T>
  void count_new(size_type n) noexcept {
    if constexpr (stores<T>) counts_[id_of<T>()] += n;
  }

  // Destroys id's T and resets its bit; a no-op if the bit is not set.
  template <typename T, typename Bitset>
  void remove(entity_id id, Bitset& bits) {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
    } else {
      constexpr size_type bit = id_of<T>();
      if (!bits.test(bit)) return;
      chunk_for<T>().template remove<T>(id);
      bits.reset(bit);
      --counts_[bit];
    }
  }
  template <tag_value Tag, typename Bitset>
  void remove(Tag, entity_id id, Bitset& bits) {
    remove<tag_type<Tag>>(id, bits);
  }

  template <typename T, typename Bitset>
  static bool has(const Bitset& bits) {
    return bits.test(id_of<T>());
  }
  template <tag_value Tag, typename Bitset>
  static bool has(Tag, const Bitset& bits) {
    return has<tag_type<Tag>>(bits);
  }

  // Destroys every component whose bit is set and clears those bits: call it
  // for a killed entity before its index is reused.
  template <typename Bitset>
  void remove_all(entity_id id, Bitset& bits) {
    component_storage_internal::destroy_by_bits(*this, id, bits,
                                                [&](size_type bit) {
                                                  bits.reset(bit);
                                                  --counts_[bit];
                                                });
  }

  // For entities about to be reclaimed: destroys the components that
  // bits_of(id) says each id of [first, last) has, then calls after(id)
  // (the caller reclaims it there, in the same pass), and leaves the bits
  // as they are (the caller resets them with the rest of the entity's
  // metadata). Cheaper than remove_all on each: the bits are read once per
  // entity, not written back bit by bit (a chain of byte stores and
  // reloads; BM_DestroyEntities, benchmarks/entity_benchmark.cc), and the
  // per-type counts stay in registers. Forced inline: each instantiation
  // has one caller (the refresh's kill phase), and GCC leaves COMDAT
  // copies out of line when the settings have external linkage.
  template <typename It, typename BitsOf, typename After>
  [[gnu::always_inline]] inline void destroy_all_of(It first, It last,
                                                    BitsOf bits_of,
                                                    After after) {
    std::array<size_type, component_count> removed{};
    for (; first != last; ++first) {
      const auto bits = bits_of(*first);  // a copy: one load
      component_storage_internal::destroy_by_bits(
          *this, *first, bits, [&](size_type bit) { ++removed[bit]; });
      after(*first);
    }
    for (size_type bit = 0; bit < component_count; ++bit) {
      counts_[bit] -= removed[bit];
    }
  }

  // How many entities have T: O(1).
  template <typename T>
  size_type count() const noexcept {
    return counts_[id_of<T>()];
  }

  // Destroys every component of every entity. The caller must reset every
  // entity's bits (the context resets all entity metadata).
  void clear() noexcept {
    chunks_.apply([](auto&... chunks) { (chunks.clear(), ...); });
    counts_.fill(0);
  }

  // Forwards to every chunk that can reserve (chunk_has_reserve).
  void reserve(size_type n) {
    chunks_.apply([n](auto&... chunks) {
      (
          [&](auto& chunk) {
            if constexpr (chunk_has_reserve<
                              std::remove_cvref_t<decltype(chunk)>>) {
              chunk.reserve(n);
            }
          }(chunks),
          ...);
    });
  }

  // The chunk storing T, for iteration-heavy code (e.g. a contiguous
  // buffer's data<T>() span, a sparse chunk's set_for<T>()).
  template <typename T>
  auto& chunk_for() noexcept {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
      return base_internal::get<0>(chunks_);
    } else {
      return base_internal::get<
          component_list::template signature_index_of<T>()>(chunks_);
    }
  }
  template <typename T>
  const auto& chunk_for() const noexcept {
    if constexpr (!stores<T>) {
      diagnostic::report(diagnostic::component_not_stored<T>);
      return base_internal::get<0>(chunks_);
    } else {
      return base_internal::get<
          component_list::template signature_index_of<T>()>(chunks_);
    }
  }
  template <tag_value Tag>
  auto& chunk_for(Tag) noexcept {
    return chunk_for<tag_type<Tag>>();
  }
  template <tag_value Tag>
  const auto& chunk_for(Tag) const noexcept {
    return chunk_for<tag_type<Tag>>();
  }

 private:
  apply_t<base_internal::flat_tuple, chunk_types> chunks_;
  std::array<size_type, (component_count > 0 ? component_count : 1)> counts_{};
};

}  // namespace strata

#endif  // STRATA_COMPONENT_STORAGE_COMPONENT_STORAGE_H_
