#include "entity/entity_storage.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "entity/entity_handle.h"
#include "entity/entity_metadata.h"
#include "gtest/gtest.h"

namespace strata {
namespace {

// 15 indices, 12 version bits: exhaustion is quick to reach.
using tiny_traits = entity_traits<std::uint16_t, 4>;
// 31 indices, 3 version bits (0..6, 7 is the tombstone): wrap is quick.
using wrap_traits = entity_traits<std::uint8_t, 5>;

static_assert(tiny_traits::max_entities == 15);
static_assert(wrap_traits::tombstone_version == 7);
static_assert(fixed_entity_storage<8>::max_size() == 8);
static_assert(dynamic_entity_storage<tiny_traits>::max_size() == 15);
static_assert(sizeof(fixed_entity_storage<8>) < 8 * 4 + 64,
              "fixed storage keeps its slots inline, nothing else per entity");

// ---------------------------------------------------------------------------
// Model test: random create / reclaim sequences against a reference model.

template <typename Storage>
class reference_model {
 public:
  using id_type = typename Storage::id_type;
  using value_type = typename Storage::value_type;

  explicit reference_model(std::size_t limit) : limit_(limit) {}

  std::size_t size() const { return live_.size(); }
  bool full() const { return live_.size() == limit_; }

  // The id the storage must hand out next (FIFO reuse, else a fresh index).
  id_type expected_next() const {
    if (!free_.empty()) {
      const value_type index = free_.front();
      return id_type::combine(index, next_version_.at(index));
    }
    return id_type::combine(static_cast<value_type>(used_), 0);
  }

  void on_create(id_type id) {
    const value_type index = id.index();
    if (!free_.empty()) {
      free_.pop_front();
    } else {
      ++used_;
    }
    live_[index] = id;
    live_list_.push_back(id);
  }

  // Removes and returns a random live id.
  id_type take_random_live(std::mt19937& rng) {
    const std::size_t pos = rng() % live_list_.size();
    const id_type id = live_list_[pos];
    live_list_[pos] = live_list_.back();
    live_list_.pop_back();
    return id;
  }

  // For an id reclaimed without take_random_live (a wrapped stale id).
  void forget_live(id_type id) {
    for (auto& live : live_list_) {
      if (live == id) {
        live = live_list_.back();
        live_list_.pop_back();
        return;
      }
    }
  }

  void on_reclaim(id_type id) {
    const value_type index = id.index();
    live_.erase(index);
    next_version_[index] = id.next_version().version();
    free_.push_back(index);
  }

  bool alive(id_type id) const {
    const auto it = live_.find(id.index());
    return it != live_.end() && it->second == id;
  }

  const std::map<value_type, id_type>& live() const { return live_; }
  bool has_live() const { return !live_list_.empty(); }

 private:
  std::size_t limit_;
  std::size_t used_ = 0;
  std::map<value_type, id_type> live_;             // index -> live id
  std::vector<id_type> live_list_;                 // for random picks
  std::map<value_type, value_type> next_version_;  // freed index -> version
  std::deque<value_type> free_;                    // FIFO of freed indices
};

// Runs `ops` random operations; counts in `wrapped_aliases` how many times a
// stale id was seen alive again because its index's version wrapped around
// (0 unless the traits have few version bits).
template <typename Storage>
void RunModel(Storage& storage, unsigned seed, int ops, int* wrapped_aliases) {
  using id_type = typename Storage::id_type;
  using value_type = typename Storage::value_type;
  using traits = typename Storage::traits;
  std::mt19937 rng(seed);
  reference_model<Storage> model(Storage::max_size());
  std::vector<id_type> stale;  // ring of recently reclaimed ids
  std::size_t stale_next = 0;
  constexpr std::size_t kStaleKept = 4096;
  *wrapped_aliases = 0;
  bool saw_full = false;

  for (int op = 0; op < ops; ++op) {
    // Alternate growth and shrink phases so fixed storages hit their limit.
    const unsigned create_percent = (op / 1500) % 2 == 0 ? 70 : 30;
    const unsigned roll = rng() % 100;
    if (roll < create_percent) {
      const bool full = model.full();
      const id_type expected = model.expected_next();
      const std::size_t size_before = storage.size();
      auto created = storage.try_create();
      if (full) {
        saw_full = true;
        ASSERT_FALSE(created.has_value()) << "op " << op;
        ASSERT_EQ(storage.size(), size_before);
        continue;
      }
      ASSERT_TRUE(created.has_value()) << "op " << op;
      const id_type id = *created;
      ASSERT_FALSE(id.is_null());
      ASSERT_FALSE(id.has_tombstone_version());
      // Never handed out twice while alive.
      ASSERT_FALSE(model.live().contains(id.index()))
          << "index " << id.index() << " handed out while alive, op " << op;
      // FIFO recycling, and a recycled index carries the bumped version.
      ASSERT_EQ(id, expected) << "op " << op;
      model.on_create(id);
      ASSERT_TRUE(storage.alive(id));
    } else if (roll < 97 && model.has_live()) {
      const id_type id = model.take_random_live(rng);
      ASSERT_TRUE(storage.reclaim(id)) << id;
      model.on_reclaim(id);
      ASSERT_FALSE(storage.alive(id));
      ASSERT_FALSE(storage.reclaim(id)) << "double reclaim must be a no-op";
      if (stale.size() < kStaleKept) {
        stale.push_back(id);
      } else {
        stale[stale_next] = id;
        stale_next = (stale_next + 1) % kStaleKept;
      }
    } else if (!stale.empty()) {
      // Reclaiming a stale id is a no-op even if its index is live again.
      const id_type id = stale[rng() % stale.size()];
      const std::size_t size_before = storage.size();
      const bool expected = model.alive(id);  // only after a version wrap
      ASSERT_EQ(storage.reclaim(id), expected);
      if (expected) {
        ++*wrapped_aliases;
        model.forget_live(id);
        model.on_reclaim(id);
        ASSERT_EQ(storage.size(), size_before - 1);
      } else {
        ASSERT_EQ(storage.size(), size_before);
      }
    }

    // Stale ids are never alive (unless their index's version wrapped).
    for (int k = 0; k < 4 && !stale.empty(); ++k) {
      const id_type id = stale[rng() % stale.size()];
      const bool expected = model.alive(id);
      if (expected) ++*wrapped_aliases;
      ASSERT_EQ(storage.alive(id), expected) << id << " op " << op;
      ASSERT_EQ(storage.liveness().alive(id), expected) << id << " op " << op;
    }
    // Random ids, including out-of-range, null and tombstone versions.
    {
      const value_type index =
          static_cast<value_type>(rng() % (Storage::max_size() + 2));
      const value_type version =
          static_cast<value_type>(rng() % (traits::tombstone_version + 1));
      const id_type id = id_type::combine(index, version);
      ASSERT_EQ(storage.alive(id), model.alive(id)) << id;
      ASSERT_EQ(storage.liveness().alive(id), model.alive(id)) << id;
    }

    if (op % 4096 == 0 || op + 1 == ops) {
      ASSERT_EQ(storage.size(), model.size());
      std::vector<id_type> seen;
      storage.for_each_alive([&](id_type id) { seen.push_back(id); });
      std::vector<id_type> want;
      for (const auto& [index, id] : model.live()) want.push_back(id);
      ASSERT_EQ(seen, want) << "op " << op;  // both in increasing index order
      for (const id_type id : want) {
        ASSERT_EQ(storage.id_at(id.index()), id);
      }
    }
  }
  if (Storage::max_size() <= 4096) {
    EXPECT_TRUE(saw_full) << "the model never reached the limit";
  }
}

constexpr int kModelOps = 100'000;

TEST(EntityStorageModelTest, FixedLimitMatchesReference) {
  for (const unsigned seed : {1u, 2u}) {
    auto storage = std::make_unique<fixed_entity_storage<512>>();
    int aliases = 0;
    RunModel(*storage, seed, kModelOps, &aliases);
    EXPECT_EQ(aliases, 0) << "seed " << seed;
  }
}

TEST(EntityStorageModelTest, DynamicLimitMatchesReference) {
  for (const unsigned seed : {3u, 4u}) {
    dynamic_entity_storage<> storage;
    int aliases = 0;
    RunModel(storage, seed, kModelOps, &aliases);
    EXPECT_EQ(aliases, 0) << "seed " << seed;
  }
}

TEST(EntityStorageModelTest, DynamicWithTinyIdsMatchesReference) {
  // Only 15 indices: exhaustion every growth phase and heavy index reuse
  // (~3000 cycles per index, below the 4095 versions: no aliasing).
  dynamic_entity_storage<tiny_traits> storage;
  int aliases = 0;
  RunModel(storage, 5, kModelOps, &aliases);
  EXPECT_EQ(aliases, 0);
  EXPECT_EQ(storage.slot_count(), 15u);
}

TEST(EntityStorageModelTest, FixedWithWrappingVersionsMatchesReference) {
  // 3 version bits: versions wrap constantly; the model accounts for the
  // documented aliasing and everything else must still agree.
  fixed_entity_storage<4, wrap_traits> storage;
  int aliases = 0;
  RunModel(storage, 6, kModelOps, &aliases);
  EXPECT_GT(aliases, 0) << "expected wrapped versions to alias";
}

// ---------------------------------------------------------------------------
// Basic behaviour.

TEST(EntityStorageTest, CreateReclaimAlive) {
  dynamic_entity_storage<> storage;
  EXPECT_TRUE(storage.empty());
  const entity_id a = storage.create();
  const entity_id b = storage.create();
  EXPECT_EQ(a, entity_id::combine(0, 0));
  EXPECT_EQ(b, entity_id::combine(1, 0));
  EXPECT_TRUE(storage.alive(a));
  EXPECT_EQ(storage.size(), 2u);
  EXPECT_TRUE(storage.reclaim(a));
  EXPECT_FALSE(storage.alive(a));
  EXPECT_TRUE(storage.alive(b));
  EXPECT_FALSE(storage.reclaim(a));
  EXPECT_EQ(storage.size(), 1u);
  const entity_id c = storage.create();
  EXPECT_EQ(c, entity_id::combine(0, 1));  // recycled with a new version
  EXPECT_FALSE(storage.alive(a));
  EXPECT_TRUE(storage.alive(c));
}

// reclaim_alive (the kill queue's unchecked reclaim) does what reclaim does
// to a live id: same version bump, same FIFO reuse.
TEST(EntityStorageTest, ReclaimAliveMatchesReclaim) {
  dynamic_entity_storage<entity_traits32, entity_metadata<2>> checked;
  dynamic_entity_storage<entity_traits32, entity_metadata<2>> unchecked;
  std::vector<entity_id> ids;
  for (int i = 0; i < 6; ++i) {
    ids.push_back(checked.create());
    ASSERT_EQ(unchecked.create(), ids.back());
    unchecked.bits(ids.back()).set(1);
  }
  for (const int i : {3, 0, 5}) {
    ASSERT_TRUE(checked.reclaim(ids[i]));
    unchecked.reclaim_alive(ids[i]);
    EXPECT_FALSE(unchecked.alive(ids[i]));
  }
  EXPECT_EQ(unchecked.size(), checked.size());
  for (int i = 0; i < 4; ++i) {
    const entity_id id = checked.create();
    EXPECT_EQ(unchecked.create(), id);
    EXPECT_TRUE(unchecked.bits(id).none());  // metadata reset on reclaim
  }
}

#ifndef NDEBUG
TEST(EntityStorageDeathTest, ReclaimAliveOfADeadIdDiesInDebugBuilds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  dynamic_entity_storage<> storage;
  const entity_id e = storage.create();
  storage.reclaim(e);
  EXPECT_DEATH(storage.reclaim_alive(e), "reclaim_alive of a dead id");
}
#endif

TEST(EntityStorageTest, NullTombstoneOutOfRangeAndForgedIdsAreNotAlive) {
  dynamic_entity_storage<> storage;
  const entity_id a = storage.create();
  EXPECT_FALSE(storage.alive(entity_id::null()));
  EXPECT_FALSE(storage.alive(null_entity));
  EXPECT_FALSE(storage.alive(entity_id::tombstone(a.index())));
  EXPECT_FALSE(storage.alive(entity_id::combine(1, 0)));  // never handed out
  EXPECT_FALSE(storage.alive(entity_id::combine(4'000'000, 0)));
  // The version a freed slot will hand out next is not alive before that.
  EXPECT_FALSE(storage.alive(a.next_version()));
  ASSERT_TRUE(storage.reclaim(a));
  EXPECT_FALSE(storage.alive(a.next_version()));
  EXPECT_FALSE(storage.reclaim(a.next_version()));
  EXPECT_FALSE(storage.reclaim(entity_id::null()));
  EXPECT_FALSE(storage.reclaim(entity_id::tombstone(0)));
  EXPECT_EQ(storage.create(), a.next_version());
}

// The liveness view answers as alive() does; a default one finds nothing.
TEST(EntityStorageTest, LivenessViewAnswersAsAlive) {
  dynamic_entity_storage<> storage;
  const entity_id a = storage.create();
  const entity_id b = storage.create();
  ASSERT_TRUE(storage.reclaim(a));
  const auto view = storage.liveness();
  EXPECT_FALSE(view.alive(a));
  EXPECT_TRUE(view.alive(b));
  EXPECT_FALSE(view.alive(entity_id::null()));
  EXPECT_FALSE(view.alive(entity_id::tombstone(b.index())));
  EXPECT_FALSE(view.alive(entity_id::combine(4'000'000, 0)));
  EXPECT_FALSE(liveness_view<entity_id::traits>{}.alive(b));
}

TEST(EntityStorageTest, FixedStorageNeverAliveForUntouchedSlots) {
  fixed_entity_storage<16> storage;
  for (std::uint32_t i = 0; i < 16; ++i) {
    EXPECT_FALSE(storage.alive(entity_id::combine(i, 0)));
    EXPECT_FALSE(storage.alive(entity_id::tombstone(i)));
  }
  EXPECT_EQ(storage.capacity(), 16u);
  EXPECT_EQ(storage.size(), 0u);
}

TEST(EntityStorageTest, RecyclesFifo) {
  dynamic_entity_storage<> storage;
  std::vector<entity_id> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(storage.create());
  storage.reclaim(ids[3]);
  storage.reclaim(ids[1]);
  storage.reclaim(ids[4]);
  EXPECT_EQ(storage.create().index(), 3u);
  EXPECT_EQ(storage.create().index(), 1u);
  storage.reclaim(ids[0]);
  EXPECT_EQ(storage.create().index(), 4u);
  EXPECT_EQ(storage.create().index(), 0u);
  EXPECT_EQ(storage.create().index(), 5u);  // free list empty: fresh index
}

TEST(EntityStorageTest, DynamicReserveAvoidsGrowth) {
  dynamic_entity_storage<> storage(1000);
  EXPECT_GE(storage.capacity(), 1000u);
  const std::size_t capacity = storage.capacity();
  for (int i = 0; i < 1000; ++i) storage.create();
  EXPECT_EQ(storage.capacity(), capacity);
  EXPECT_EQ(storage.slot_count(), 1000u);
}

TEST(EntityStorageTest, ForEachAliveAllowsReclaimingDuringTheWalk) {
  dynamic_entity_storage<> storage;
  std::vector<entity_id> ids;
  for (int i = 0; i < 10; ++i) ids.push_back(storage.create());
  storage.reclaim(ids[2]);
  std::vector<entity_id> seen;
  storage.for_each_alive([&](entity_id id) {
    seen.push_back(id);
    if (id.index() == 4) storage.reclaim(ids[5]);  // not yet visited: skipped
  });
  EXPECT_EQ(seen, (std::vector<entity_id>{ids[0], ids[1], ids[3], ids[4],
                                          ids[6], ids[7], ids[8], ids[9]}));
  EXPECT_EQ(storage.size(), 8u);
}

TEST(EntityStorageTest, ClearReclaimsEverything) {
  fixed_entity_storage<8> storage;
  std::vector<entity_id> ids;
  for (int i = 0; i < 8; ++i) ids.push_back(storage.create());
  storage.clear();
  EXPECT_EQ(storage.size(), 0u);
  for (const entity_id id : ids) EXPECT_FALSE(storage.alive(id));
  for (int i = 0; i < 8; ++i) {
    const entity_id id = storage.create();
    EXPECT_EQ(id.index(), static_cast<std::uint32_t>(i));  // in index order
    EXPECT_EQ(id.version(), 1u);
  }
  EXPECT_FALSE(storage.try_create().has_value());
}

TEST(EntityStorageTest, IdAt) {
  dynamic_entity_storage<> storage;
  const entity_id a = storage.create();
  const entity_id b = storage.create();
  storage.reclaim(a);
  EXPECT_TRUE(storage.id_at(0).is_null());
  EXPECT_EQ(storage.id_at(1), b);
  EXPECT_TRUE(storage.id_at(2).is_null());
}

// ---------------------------------------------------------------------------
// Versions and exhaustion.

TEST(EntityStorageTest, VersionWrapsAtMaximumSkippingTombstone) {
  fixed_entity_storage<1, wrap_traits> storage;
  std::vector<unsigned> versions;
  for (int i = 0; i < 16; ++i) {
    const auto id = storage.create();
    EXPECT_FALSE(id.has_tombstone_version());
    versions.push_back(id.version());
    ASSERT_TRUE(storage.reclaim(id));
  }
  EXPECT_EQ(versions, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4,
                                             5, 6, 0, 1}));
}

TEST(EntityStorageTest, StaleIdAliasesOnlyAfterAFullVersionCycle) {
  // Documents the finite-version limit: a stale id is never alive until its
  // index went through tombstone_version (here 7) reuse cycles.
  fixed_entity_storage<1, wrap_traits> storage;
  const auto first = storage.create();
  auto current = first;
  for (int cycle = 1; cycle < 7; ++cycle) {
    ASSERT_TRUE(storage.reclaim(current));
    current = storage.create();
    EXPECT_FALSE(storage.alive(first)) << "cycle " << cycle;
  }
  ASSERT_TRUE(storage.reclaim(current));
  current = storage.create();
  EXPECT_EQ(current, first);  // version wrapped to 0
}

TEST(EntityStorageTest, DynamicIndexExhaustionFailsCleanly) {
  dynamic_entity_storage<tiny_traits> storage;
  std::vector<basic_entity_id<tiny_traits>> ids;
  for (int i = 0; i < 15; ++i) ids.push_back(storage.create());
  const auto refused = storage.try_create();
  ASSERT_FALSE(refused.has_value()) << to_string(*refused);
  EXPECT_EQ(storage.size(), 15u);
  for (const auto id : ids) EXPECT_TRUE(storage.alive(id));
  // Freeing an index makes room again, with a new version.
  ASSERT_TRUE(storage.reclaim(ids[7]));
  const auto again = storage.try_create();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->index(), 7u);
  EXPECT_EQ(again->version(), 1u);
}

TEST(EntityStorageDeathTest, DynamicIndexExhaustionCreateDies) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  dynamic_entity_storage<tiny_traits> storage;
  for (int i = 0; i < 15; ++i) storage.create();
  EXPECT_DEATH(storage.create(),
               "entity storage is full: the entity id type can index at most "
               "15 entities");
}

using meta = entity_metadata<3>;

TEST(EntityStorageTest, FixedLimitRefusesOneMoreAndKeepsEveryEntity) {
  constexpr std::size_t kCapacity = 64;
  auto storage = std::make_unique<
      fixed_entity_storage<kCapacity, entity_traits32, meta>>();
  std::vector<entity_id> ids;
  for (std::size_t i = 0; i < kCapacity; ++i) {
    auto id = storage->try_create();
    ASSERT_TRUE(id.has_value()) << i;
    ids.push_back(*id);
    storage->bits(*id).set(i % 3);
  }
  const auto refused = storage->try_create();
  ASSERT_FALSE(refused.has_value()) << to_string(*refused);
  EXPECT_EQ(storage->size(), kCapacity);
  std::set<entity_id> distinct(ids.begin(), ids.end());
  EXPECT_EQ(distinct.size(), kCapacity);
  for (std::size_t i = 0; i < kCapacity; ++i) {
    EXPECT_TRUE(storage->alive(ids[i]));
    EXPECT_EQ(ids[i], entity_id::combine(static_cast<std::uint32_t>(i), 0));
    EXPECT_EQ(storage->bits(ids[i]), meta::bitset_type::of({i % 3}));
  }
}

TEST(EntityStorageDeathTest, FixedLimitCreateDiesWithMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  fixed_entity_storage<4> storage;
  for (int i = 0; i < 4; ++i) storage.create();
  EXPECT_DEATH(storage.create(),
               "strata: check failed: .*entity storage is full: fixed entity "
               "limit of 4 reached; existing entities are unchanged");
}

// ---------------------------------------------------------------------------
// Metadata folded into the storage.

TEST(EntityStorageMetadataTest, BitsSetResetAndResetOnReclaim) {
  dynamic_entity_storage<entity_traits32, meta> storage;
  const entity_id a = storage.create();
  EXPECT_TRUE(storage.bits(a).none());
  storage.bits(a).set(0).set(2);
  EXPECT_TRUE(matches(meta::bitset_type::of({0, 2}), storage.bits(a)));
  storage.bits(a).reset(0);
  EXPECT_FALSE(storage.bits(a).test(0));
  EXPECT_TRUE(storage.bits(a).test(2));
  ASSERT_TRUE(storage.reclaim(a));
  const entity_id b = storage.create();
  ASSERT_EQ(b.index(), a.index());
  EXPECT_TRUE(storage.bits(b).none()) << "reused index inherited components";
  EXPECT_TRUE(storage.metadata_at(b.index()).components.none());
  const auto& const_storage = storage;
  EXPECT_TRUE(const_storage.bits(b).none());
}

TEST(EntityStorageMetadataDeathTest, MetadataOfStaleIdDies) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  fixed_entity_storage<4, entity_traits32, meta> storage;
  const entity_id a = storage.create();
  storage.reclaim(a);
  storage.create();  // reuses a's index
  EXPECT_DEATH(storage.bits(a).set(1), "metadata of 0@0, which is not alive");
}

// Ids and metadata live in two arrays indexed alike; growth, FIFO reuse,
// clear and assign_slots must keep them in step. A model run: every live
// entity's bits name its id, whatever happened to the arrays since.
template <typename Storage>
void RunMetadataModel(Storage& storage, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<entity_id> live;
  const auto expected_bits = [](entity_id id) {
    meta::bitset_type bits;
    if (id.index() % 2 == 0) bits.set(0);
    if (id.version() % 2 == 1) bits.set(1);
    bits.set(2);
    return bits;
  };
  for (int op = 0; op < 20'000; ++op) {
    if (op == 10'000) {
      storage.clear();
      for (const entity_id id : live) ASSERT_FALSE(storage.alive(id));
      live.clear();
    }
    const bool create = live.empty() || (rng() % 100 < 55 &&
                                         storage.size() < storage.max_size());
    if (create) {
      const entity_id id = storage.create();
      ASSERT_TRUE(storage.bits(id).none())
          << id << " inherited components, op " << op;
      storage.bits(id) = expected_bits(id);
      live.push_back(id);
    } else {
      const std::size_t pos = rng() % live.size();
      ASSERT_TRUE(storage.reclaim(live[pos]));
      ASSERT_FALSE(storage.alive(live[pos]));
      live[pos] = live.back();
      live.pop_back();
    }
    if (op % 997 == 0) {
      for (const entity_id id : live) {
        ASSERT_TRUE(storage.alive(id));
        ASSERT_EQ(storage.bits(id), expected_bits(id)) << id << " op " << op;
        ASSERT_EQ(storage.metadata_at(id.index()).components,
                  expected_bits(id));
      }
    }
  }
}

TEST(EntityStorageMetadataTest, DynamicIdsAndMetadataStayInStep) {
  dynamic_entity_storage<entity_traits32, meta> storage;  // grows from empty
  RunMetadataModel(storage, 37);
  EXPECT_GE(storage.capacity(), storage.end_index());
}

TEST(EntityStorageMetadataTest, FixedIdsAndMetadataStayInStep) {
  auto storage =
      std::make_unique<fixed_entity_storage<300, entity_traits32, meta>>();
  RunMetadataModel(*storage, 38);
}

// A storage with metadata keeps one id and one Metadata per index and
// nothing else: no padding between them, as in an array of records.
static_assert(sizeof(fixed_entity_storage<64, entity_traits32, meta>) <
              64 * (4 + sizeof(meta)) + 64);

TEST(EntityStorageMetadataTest, AssignSlotsResetsMetadata) {
  dynamic_entity_storage<entity_traits32, meta> storage;
  const entity_id a = storage.create();
  const entity_id b = storage.create();
  storage.bits(a).set(1);
  storage.bits(b).set(2);
  std::vector<std::uint32_t> slots{storage.slot_value(0),
                                   storage.slot_value(1)};
  const std::uint32_t null = entity_traits32::null_index;
  ASSERT_TRUE(storage.assign_slots(slots.data(), slots.size(), null, null));
  EXPECT_TRUE(storage.alive(a));
  EXPECT_TRUE(storage.alive(b));
  EXPECT_TRUE(storage.bits(a).none());
  EXPECT_TRUE(storage.bits(b).none());
  const entity_id c = storage.create();  // a fresh index: both arrays grew
  EXPECT_EQ(c.index(), 2u);
  EXPECT_TRUE(storage.bits(c).none());
  storage.bits(c).set(0);
  EXPECT_TRUE(storage.bits(a).none());
}

// The documented thread-safety: const calls may run concurrently (run under
// --config=tsan).
TEST(EntityStorageTest, ConcurrentConstReadsAreSafe) {
  dynamic_entity_storage<entity_traits32, meta> storage;
  std::vector<entity_id> ids;
  for (int i = 0; i < 1000; ++i) ids.push_back(storage.create());
  for (int i = 0; i < 1000; i += 3) storage.reclaim(ids[i]);
  const auto& reader = storage;
  std::vector<std::size_t> counts(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (const entity_id id : ids) {
        if (reader.alive(id) && reader.valid(entity_handle(id)) &&
            reader.bits(id).none()) {
          ++counts[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const std::size_t count : counts) EXPECT_EQ(count, 666u);
}

// assign_slots rebuilds a storage from another's slot values and free list
// (a saved world read back): the same ids alive, the same ids handed out
// next; values that make no storage are refused and change nothing.
TEST(EntityStorageTest, AssignSlotsRebuildsAnEqualStorage) {
  dynamic_entity_storage<> original;
  std::vector<entity_id> ids;
  for (int i = 0; i < 20; ++i) ids.push_back(original.create());
  for (int i = 0; i < 20; i += 3) original.reclaim(ids[i]);
  std::vector<std::uint32_t> slots;
  for (std::size_t i = 0; i < original.end_index(); ++i) {
    slots.push_back(original.slot_value(i));
  }
  dynamic_entity_storage<> copy;
  ASSERT_TRUE(copy.assign_slots(slots.data(), slots.size(),
                                original.free_list_head(),
                                original.free_list_tail()));
  EXPECT_EQ(copy.size(), original.size());
  for (const entity_id id : ids) EXPECT_EQ(copy.alive(id), original.alive(id));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(copy.create(), original.create());

  fixed_entity_storage<8> small;
  const entity_id kept = small.create();
  const auto refused = [&](std::vector<std::uint32_t> values,
                           std::uint32_t head, std::uint32_t tail) {
    EXPECT_FALSE(small.assign_slots(values.data(), values.size(), head, tail));
    EXPECT_TRUE(small.alive(kept));
    EXPECT_EQ(small.size(), 1u);
  };
  const std::uint32_t null = entity_traits32::null_index;
  refused(std::vector<std::uint32_t>(9, 0), null, null);  // past the limit
  refused({0, 0}, null, null);  // index 1 free but not on the list
  refused({0, null}, 0, 0);     // a live index on the list
  refused({1, 0}, 0, 1);        // a cycle: 0 -> 1 -> 0
  refused({0, null}, 1, 0);     // the list ends elsewhere than the tail
  EXPECT_TRUE(
      small.assign_slots(std::vector<std::uint32_t>{0, null}.data(), 2, 1, 1));
  EXPECT_EQ(small.size(), 1u);
}

}  // namespace
}  // namespace strata
