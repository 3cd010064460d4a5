// Entity storage: hands out versioned entity ids, recycles them, and answers
// whether an id still names a live entity.
//
//   strata::basic_entity_storage<strata::fixed_limit<1000>> s;  // std::array
//   strata::basic_entity_storage<strata::dynamic_limit> d(4096);  // grows
//   strata::entity_id e = s.create();
//   s.alive(e);    // true
//   s.reclaim(e);  // true: e's slot gets a new version
//   s.alive(e);    // false, and stays false after the index is reused
//
// The limit policy is a compile-time choice (static dispatch): `fixed_limit<N>`
// keeps every per-entity array in a std::array of N slots inside the object
// and never allocates; `dynamic_limit` keeps them in std::vectors that grow on
// demand (optionally reserved up front).
//
// Ids live in one id-sized slot per index ever handed out, an array of
// their own: `alive(id)` is one bounds check and one compare, and null,
// tombstone and stale ids all fail it. Recycling order: FIFO. A reclaimed
// index gets the next version and is reused only after every index freed
// before it, so a stale id or handle can only alias a new entity after its
// index went through every version (entity/internal/id_slots.h and
// free_list.h have the layout and the reasons). Fresh indices are taken, in
// increasing order, only when no index is free.
//
// Exhaustion. A fixed storage holds at most N live entities; a dynamic one at
// most Traits::max_entities distinct indices (e.g. 15 for
// entity_traits<std::uint16_t, 4>). When full, `try_create()` returns
// std::nullopt and `create()` STRATA_CHECK-fails with a message naming the
// limit; neither modifies the storage, so every existing entity stays alive
// and unchanged. (std::optional, not absl::StatusOr: the one failure needs
// no payload, and absl/status/statusor.h brings absl::Cord, its mutex and
// time headers into every file including the context;
// //benchmarks/compile:include_only measures that cost.) A create that
// throws (an allocation failure, or Metadata's constructor) leaves the
// storage as it was too.
//
// Metadata. With a non-void `Metadata` (normally entity_metadata<N, Extra>) the
// storage keeps one default-constructed Metadata per index, in a second
// array indexed like the id slots (structure of arrays: a by-id liveness
// check reads only the dense id array, whatever the metadata's size), and
// resets it to Metadata{} on reclaim, so a reused index never inherits the
// previous entity's components. `metadata(id)` and `bits(id)` check that
// `id` is alive.
//
// Complexity: create, reclaim, alive, valid, access, metadata: O(1) (dynamic
// create is amortized O(1): a vector push_back when a fresh index is taken).
// for_each_alive and clear: O(slot_count()).
// Memory: sizeof(id) + sizeof(Metadata) per index ever used (dynamic) or per
// N (fixed, inline in the object: put a large fixed storage on the heap),
// in two arrays; no padding between an id and its metadata.
// Invalidation: reclaim() and clear() make the affected ids and handles stale
// for good (until the version wraps, see above). References returned by
// metadata()/bits() are invalidated by any create() on a dynamic storage (the
// vectors may grow) and point at reset data after that entity's reclaim();
// a liveness() view is invalidated by any create, reclaim, clear or
// assign_slots.
// Thread-safety: not thread-safe for writes (create, reclaim, clear, reserve,
// mutable metadata). All const members (alive, valid, access, id_of, size,
// for_each_alive, const metadata/bits) are safe to call concurrently with each
// other, never concurrently with a write.
#ifndef STRATA_ENTITY_ENTITY_STORAGE_H_
#define STRATA_ENTITY_ENTITY_STORAGE_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "base/check.h"
#include "base/limit.h"
#include "entity/entity_handle.h"
#include "entity/entity_id.h"
#include "entity/entity_metadata.h"
#include "entity/internal/id_slots.h"
#include "entity/internal/storage_messages.h"
#include "entity/internal/storage_records.h"
#include "entity/liveness_view.h"

namespace strata {

template <limit_policy LimitPolicy, typename Traits = entity_traits32,
          typename Metadata = void>
class basic_entity_storage {
  using id_slots_type = entity_internal::id_slots<LimitPolicy, Traits>;

 public:
  using limit_policy = LimitPolicy;
  using traits = Traits;
  using id_type = basic_entity_id<Traits>;
  using handle_type = basic_entity_handle<Traits>;
  using value_type = typename Traits::value_type;
  using metadata_type = Metadata;
  // Metadata& / const Metadata& (void when there is no metadata).
  using metadata_reference = std::add_lvalue_reference_t<Metadata>;
  using const_metadata_reference = std::add_lvalue_reference_t<const Metadata>;
  using size_type = std::size_t;

  static constexpr bool is_fixed = LimitPolicy::is_fixed;
  static constexpr bool has_metadata = !std::is_void_v<Metadata>;
  // Reclaiming resets the metadata with Metadata{}; only that could throw.
  static constexpr bool nothrow_reclaim =
      !has_metadata || std::is_nothrow_assignable_v<
                           std::add_lvalue_reference_t<Metadata>,
                           std::conditional_t<has_metadata, Metadata, int>>;

  // Most entities that can be alive at once.
  static constexpr size_type max_size() noexcept {
    return id_slots_type::max_size();
  }

  static_assert(max_size() <= Traits::max_entities,
                "fixed_limit<N>: N exceeds the number of indices the entity id "
                "type can represent (Traits::max_entities)");

  // Fixed: every slot starts as the null id, which no live id ever equals.
  // User-provided, so that `storage_type{}` does not zero a large fixed
  // storage before the slots are filled.
  basic_entity_storage() noexcept {}
  // Dynamic only: reserves room for `initial_reserve` indices up front.
  explicit basic_entity_storage(size_type initial_reserve) requires(!is_fixed) {
    reserve(initial_reserve);
  }

  void reserve(size_type n) requires(!is_fixed) {
    STRATA_CHECK(n <= max_size(),
                 "entity storage: reserve() beyond the id type's max_entities");
    slots_.reserve(n);
    if constexpr (has_metadata) metas_.reserve(n);
  }

  // A new live entity, or std::nullopt when the limit is reached (the
  // storage is then unchanged).
  std::optional<id_type> try_create() {
    const id_type id = create_or_null();
    if (id.is_null()) return std::nullopt;
    return id;
  }

  // A new live entity; STRATA_CHECK-fails with a message naming the limit
  // when it is reached.
  id_type create() {
    const id_type id = create_or_null();
    STRATA_CHECK(!id.is_null(),
                 (entity_internal::full_message<LimitPolicy, Traits>()));
    return id;
  }

  // Kills `id`: its slot's version is bumped so every copy of `id` (and every
  // handle to it) is stale from now on, and its metadata is reset. Returns
  // false and does nothing when `id` is not alive (already reclaimed, stale,
  // null, tombstone or out of range).
  bool reclaim(id_type id) noexcept(nothrow_reclaim) {
    if (!alive(id)) return false;
    reclaim_alive(id);
    return true;
  }
  // reclaim() of an id the caller knows is alive (checked only in debug
  // builds): for loops over ids already checked, such as the context's
  // kill queue, which would otherwise test each id twice
  // (BM_DestroyEntities, benchmarks/entity_benchmark.cc).
  void reclaim_alive(id_type id) noexcept(nothrow_reclaim) {
    STRATA_DCHECK(alive(id), "entity storage: reclaim_alive of a dead id");
    slots_.release(id);
    if constexpr (has_metadata) {
      entity_internal::reset_metadata(metas_[id.index()]);
    }
  }

  // Whether `id` names a live entity: O(1), one load (from the id array
  // only) and one compare. The same test as liveness_view::alive, written
  // out rather than called through liveness(): through the view, GCC
  // inlined the effect channel's receiving loop differently and it ran
  // more instructions per message (BM_Damage strata_1t_apply).
  bool alive(id_type id) const noexcept { return slots_.alive(id); }

  // What alive() reads, as a view for many checks (entity/liveness_view.h).
  liveness_view<Traits> liveness() const noexcept {
    return {slots_.data(), slot_count()};
  }

  // Live entities.
  size_type size() const noexcept { return slots_.size(); }
  bool empty() const noexcept { return size() == 0; }
  // Every live index is below it: N (fixed), or the number of indices ever
  // handed out (dynamic). Per-index arrays kept elsewhere (component storage)
  // need this many entries.
  size_type slot_count() const noexcept { return slots_.slot_count(); }
  // Indices the storage holds without allocating: N (fixed), or the vector's
  // capacity (dynamic).
  size_type capacity() const noexcept { return slots_.capacity(); }

  // The live entity at `index`, or the null id.
  id_type id_at(size_type index) const noexcept {
    if (index >= slot_count()) return id_type::null();
    const id_type id = slot(index);
    return id.index() == index ? id : id_type::null();
  }

  // Whether a live entity holds `index`. Indices below end_index() are the
  // only ones that ever held one.
  bool alive_at(size_type index) const noexcept {
    return index < slot_count() && slot(index).index() == index;
  }
  size_type end_index() const noexcept { return slots_.used(); }

  // The id of the live entity at `index`, for loops over indices known to
  // hold live entities (a system's subscription): no checks but in debug
  // builds.
  id_type live_id_at(size_type index) const noexcept {
    STRATA_DCHECK(index < slot_count() && slot(index).index() == index,
                  "entity storage: live_id_at of an index with no live entity");
    return slot(index);
  }

  // Calls f(id) for every live entity in increasing index order. `f` may
  // reclaim any entity (a reclaimed one not yet visited is skipped); entities
  // created during the walk may or may not be visited.
  template <typename F>
  void for_each_alive(F&& f) const {
    const size_type end = end_index();
    for (size_type i = 0; i < end; ++i) {
      const id_type id = slot(i);
      if (id.index() == i) f(id);
    }
  }

  // Reclaims every live entity (all their ids and handles become stale).
  // Indices stay allocated and are reused, in increasing order, before fresh
  // ones.
  void clear() noexcept(nothrow_reclaim) {
    for (size_type i = 0; i < end_index(); ++i) {
      const id_type id = slot(i);
      if (id.index() == i) reclaim(id);
    }
  }

  // The raw state, for code that copies or fingerprints a whole storage
  // (context/snapshot.h, context/state_hash.h): the value of the slot at
  // `index` < end_index() (a live slot's id; a free slot's link to the
  // next free index and the version it hands out next), and the ends of
  // the free list (null_index when empty). The storage itself is copyable:
  // a copy is an equal storage that hands out the same ids.
  value_type slot_value(size_type index) const noexcept {
    STRATA_DCHECK(index < slot_count(), "entity storage: index out of range");
    return slots_.data()[index];
  }
  value_type free_list_head() const noexcept { return slots_.free().head(); }
  value_type free_list_tail() const noexcept { return slots_.free().tail(); }

  // The inverse, for a saved storage read back: makes this storage the one
  // whose slot values are slots[0, n) and whose free list runs from `head`
  // to `tail`, every metadata reset to Metadata{}. Checks that the values
  // make a storage (n within the limit; every index either live, holding
  // its own index, or free and on the free list exactly once, the list
  // ending at `tail`); if not, returns false and changes nothing.
  // O(n); a dynamic storage allocates room for n slots.
  bool assign_slots(const value_type* slots, size_type n, value_type head,
                    value_type tail) {
    using free_list_type = typename id_slots_type::free_list_type;
    if (n > max_size() ||
        !free_list_type::forms_storage(slots, n, head, tail)) {
      return false;
    }
    slots_.assign(slots, n, head, tail);
    if constexpr (has_metadata && is_fixed) metas_.fill(Metadata{});
    if constexpr (has_metadata && !is_fixed) metas_.assign(n, Metadata{});
    return true;
  }

  // Handles.

  // A handle to live entity `id`; check-fails if `id` is not alive, since a
  // handle made from a dead id could never be valid.
  handle_type make_handle(id_type id) const {
    STRATA_CHECK(alive(id), entity_internal::handle_of_dead_id_message(id));
    return handle_type(id);
  }
  // False once the handle's entity was reclaimed, even if its index now holds
  // another entity (that entity's version differs from the handle's counter).
  bool valid(handle_type handle) const noexcept {
    return alive(handle.unchecked_id());
  }
  // The handle's entity, or std::nullopt for a stale or null handle: never
  // another entity's id.
  std::optional<id_type> access(handle_type handle) const {
    if (valid(handle)) return handle.unchecked_id();
    return std::nullopt;
  }
  // The handle's entity; STRATA_CHECK-fails on a stale or null handle.
  id_type id_of(handle_type handle) const {
    STRATA_CHECK(valid(handle), stale_message(handle));
    return handle.unchecked_id();
  }

  // Metadata (only with a non-void Metadata).

  metadata_reference metadata(id_type id) requires has_metadata {
    check_alive_for_metadata(id);
    return metas_[id.index()];
  }
  const_metadata_reference metadata(id_type id) const requires has_metadata {
    check_alive_for_metadata(id);
    return metas_[id.index()];
  }
  // By index, without the liveness check: for loops over ids already known to
  // be alive (e.g. a system's subscribed set). Checked only in debug builds.
  metadata_reference metadata_at(size_type index) noexcept requires
      has_metadata {
    STRATA_DCHECK(index < slot_count(), "entity storage: index out of range");
    return metas_[index];
  }
  const_metadata_reference metadata_at(size_type index) const noexcept requires
      has_metadata {
    STRATA_DCHECK(index < slot_count(), "entity storage: index out of range");
    return metas_[index];
  }

  // The component bitset of live entity `id` (check-fails if not alive).
  auto& bits(id_type id) requires
      entity_internal::has_component_bits<Metadata> {
    return metadata(id).components;
  }
  const auto& bits(id_type id) const requires
      entity_internal::has_component_bits<Metadata> {
    return metadata(id).components;
  }

 private:
  // The null id signals "full" (a real id never has the null index). The
  // branches stay here, over id_slots' two small parts, rather than in one
  // id_slots function taking a callback for the metadata: that function,
  // with both paths, the vector's growth and the callback, is too large
  // for GCC to inline, and every creation in a loop would be a call. A
  // fresh index of a dynamic storage gets its metadata entry first, then
  // its id; if the id array's growth throws, the entry is dropped again,
  // so that a failed create leaves the storage as it was.
  id_type create_or_null() {
    if (!slots_.free().empty()) return slots_.create_recycled();
    if (slots_.used() == max_size()) return id_type::null();
    if constexpr (has_metadata && !is_fixed) {
      return create_fresh_with_metadata();
    } else {
      return slots_.create_fresh();
    }
  }
  // Out of line: its exception handling, inlined, made create_or_null too
  // large for GCC to inline into creation loops.
  [[gnu::noinline]] id_type create_fresh_with_metadata() requires(
      has_metadata && !is_fixed) {
    metas_.emplace_back();
    try {
      return slots_.create_fresh();
    } catch (...) {
      metas_.pop_back();
      throw;
    }
  }

  // Error paths stay out of line so the hot paths inline small; the text is
  // built in entity/internal/storage_messages.cc.
  [[gnu::cold, gnu::noinline]] std::string_view stale_message(
      handle_type handle) const {
    if (handle.is_null()) return entity_internal::null_handle_message();
    return entity_internal::stale_handle_message(
        entity_internal::parts_of(handle.unchecked_id()),
        entity_internal::parts_of(id_at(handle.index())));
  }

  // On every metadata()/bits() access, so it must inline to one load and one
  // compare: the message is built out of line, only on failure (with the
  // message built inline GCC kept the whole check out of line, a call per
  // access).
  void check_alive_for_metadata(id_type id) const {
    STRATA_CHECK(alive(id), entity_internal::metadata_of_dead_id_message(id));
  }

  id_type slot(size_type index) const noexcept { return slots_.slot(index); }

  // Two arrays indexed alike (structure of arrays, see the essay): the ids
  // with their free list (entity/internal/id_slots.h), and the metadata.
  id_slots_type slots_;
  [[no_unique_address]]
  typename entity_internal::metadata_column<LimitPolicy, Metadata>::type metas_;
};

template <std::size_t N, typename Traits = entity_traits32,
          typename Metadata = void>
using fixed_entity_storage =
    basic_entity_storage<fixed_limit<N>, Traits, Metadata>;
template <typename Traits = entity_traits32, typename Metadata = void>
using dynamic_entity_storage =
    basic_entity_storage<dynamic_limit, Traits, Metadata>;

}  // namespace strata

#endif  // STRATA_ENTITY_ENTITY_STORAGE_H_
