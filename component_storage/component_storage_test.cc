#include "component_storage/component_storage.h"

#include <bitset>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "component_storage/hash_map_chunk.h"
#include "component_storage/model_testing.h"
#include "entity/entity_id.h"
#include "entity/entity_metadata.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace strata {
namespace {

using model_testing::big_value;
using model_testing::kModelEntities;
using model_testing::make_components;
using model_testing::small_value;
using model_testing::third_value;

template <typename Selector, bool Aos, typename Limit>
struct config {
  using storage_type =
      component_storage<decltype(make_components<Selector, Aos>()), Limit>;
};

using fixed = fixed_limit<kModelEntities>;

using configs =
    ::testing::Types<config<storage::contiguous_buffer, false, fixed>,
                     config<storage::contiguous_buffer, false, dynamic_limit>,
                     config<storage::contiguous_buffer, true, fixed>,
                     config<storage::contiguous_buffer, true, dynamic_limit>,
                     config<storage::sparse, false, fixed>,
                     config<storage::sparse, false, dynamic_limit>,
                     config<storage::hash_map, false, fixed>,
                     config<storage::hash_map, false, dynamic_limit>>;

template <typename Config>
class model_test : public ::testing::Test {};
TYPED_TEST_SUITE(model_test, configs);

TYPED_TEST(model_test, random_operations_match_a_std_map) {
  typename TypeParam::storage_type storage;
  model_testing::run_model(storage, 20240601, 25'000);
}

TYPED_TEST(model_test, random_operations_with_another_seed_after_reserve) {
  typename TypeParam::storage_type storage(64);
  model_testing::run_model(storage, 7, 20'000);
}

TEST(component_storage, selects_the_chunk_each_signature_asks_for) {
  using soa =
      typename config<storage::contiguous_buffer, false, fixed>::storage_type;
  using aos =
      typename config<storage::contiguous_buffer, true, fixed>::storage_type;
  using sparse = typename config<storage::sparse, false, fixed>::storage_type;
  using hash =
      typename config<storage::hash_map, false, dynamic_limit>::storage_type;
  static_assert(
      std::is_same_v<soa::chunk_type<big_value>,
                     contiguous_buffer_chunk<fixed, small_value, big_value>>);
  static_assert(std::is_same_v<
                aos::chunk_type<small_value>,
                aos_contiguous_buffer_chunk<fixed, small_value, big_value>>);
  static_assert(std::is_same_v<aos::chunk_type<third_value>,
                               contiguous_buffer_chunk<fixed, third_value>>);
  static_assert(std::is_same_v<sparse::chunk_type<third_value>,
                               sparse_chunk<fixed, third_value>>);
  static_assert(
      std::is_same_v<hash::chunk_type<small_value>,
                     hash_map_chunk<dynamic_limit, small_value, big_value>>);
  static_assert(soa::component_count == 3);
  static_assert(soa::id_of<small_value>() == 0 &&
                soa::id_of<big_value>() == 1 && soa::id_of<third_value>() == 2);
  static_assert(std::is_same_v<soa::entity_metadata_types, type_list<>>);
}

struct player {};
struct enemy {};
using testing::position;

TEST(component_storage, empty_components_take_no_storage) {
  constexpr auto components =
      component_signatures(component_signature::make(tag<player>, tag<enemy>),
                           component_signature::make(tag<position>));
  using storage_type =
      component_storage<decltype(components), fixed_limit<1000>>;
  static_assert(std::is_same_v<storage_type::chunk_type<player>,
                               empty_chunk<player, enemy>>);
  storage_type storage;
  std::bitset<3> bits;
  const entity_id e = entity_id::combine(5, 0);
  storage.add(tag<player>, e, bits);
  storage.add(tag<position>, e, bits, 1.f, 2.f);
  EXPECT_TRUE(storage.has(tag<player>, bits));
  EXPECT_FALSE(storage.has(tag<enemy>, bits));
  EXPECT_EQ(storage.get(tag<position>, e).y, 2.f);
  [[maybe_unused]] player& p = storage.get(tag<player>, e);
  storage.remove_all(e, bits);
  EXPECT_TRUE(bits.none());
}

// Counts every construction and destruction; move-only and not default
// constructible.
struct counted {
  static inline int constructed = 0;
  static inline int destroyed = 0;
  static int alive() { return constructed - destroyed; }
  static void reset() { constructed = destroyed = 0; }

  explicit counted(int v) : value(std::make_unique<int>(v)) { ++constructed; }
  counted(counted&& other) noexcept : value(std::move(other.value)) {
    ++constructed;
  }
  counted& operator=(counted&& other) noexcept {
    value = std::move(other.value);
    return *this;
  }
  counted(const counted&) = delete;
  counted& operator=(const counted&) = delete;
  ~counted() { ++destroyed; }

  std::unique_ptr<int> value;
};
static_assert(!std::is_default_constructible_v<counted>);
static_assert(!std::is_copy_constructible_v<counted>);

struct other_counted : counted {
  using counted::counted;
};

template <typename Selector, bool Aos, typename Limit>
struct lifetime_config {
  static constexpr auto components() {
    constexpr auto group =
        component_signature::make(tag<counted>, tag<other_counted>)
            .storage(Selector{});
    if constexpr (Aos) {
      return component_signatures(group.aos());
    } else {
      return component_signatures(group);
    }
  }
  using storage_type = component_storage<decltype(components()), Limit>;
};

using lifetime_configs = ::testing::Types<
    lifetime_config<storage::contiguous_buffer, false, fixed_limit<2000>>,
    lifetime_config<storage::contiguous_buffer, false, dynamic_limit>,
    lifetime_config<storage::contiguous_buffer, true, fixed_limit<2000>>,
    lifetime_config<storage::contiguous_buffer, true, dynamic_limit>,
    lifetime_config<storage::sparse, false, fixed_limit<2000>>,
    lifetime_config<storage::sparse, false, dynamic_limit>,
    lifetime_config<storage::hash_map, false, fixed_limit<2000>>,
    lifetime_config<storage::hash_map, false, dynamic_limit>>;

template <typename Config>
class lifetime_test : public ::testing::Test {
 protected:
  void SetUp() override { counted::reset(); }
};
TYPED_TEST_SUITE(lifetime_test, lifetime_configs);

TYPED_TEST(lifetime_test, every_constructed_component_is_destroyed_once) {
  constexpr int n = 2000;
  {
    typename TypeParam::storage_type storage;
    std::vector<std::bitset<2>> bits(n);
    auto id = [](int i) { return entity_id::combine(i, 0); };
    // Ascending indices make a dynamic contiguous buffer grow repeatedly.
    for (int i = 0; i < n; ++i) {
      storage.template add<counted>(id(i), bits[i], i);
      if (i % 2 == 0) storage.template add<other_counted>(id(i), bits[i], -i);
    }
    EXPECT_EQ(counted::alive(), n + n / 2);
    for (int i = 0; i < n; i += 3) {  // replace
      storage.template add<counted>(id(i), bits[i], i + 1);
    }
    EXPECT_EQ(counted::alive(), n + n / 2);
    for (int i = 1; i < n; i += 4)
      storage.template remove<counted>(id(i), bits[i]);
    for (int i = 1; i < n; i += 4) {  // removing again is a no-op
      storage.template remove<counted>(id(i), bits[i]);
    }
    EXPECT_EQ(counted::alive(), n + n / 2 - n / 4);
    for (int i = 0; i < n; i += 5) storage.remove_all(id(i), bits[i]);
    int expected = 0;
    for (int i = 0; i < n; ++i) {
      expected += static_cast<int>(bits[i].count());
      if (bits[i].test(0)) {
        EXPECT_EQ(*storage.template get<counted>(id(i)).value,
                  i % 3 == 0 ? i + 1 : i);
      }
      if (bits[i].test(1)) {
        EXPECT_EQ(*storage.template get<other_counted>(id(i)).value, -i);
      }
    }
    EXPECT_EQ(counted::alive(), expected);
    // The storage's destructor destroys the rest.
  }
  EXPECT_GT(counted::constructed, 0);
  EXPECT_EQ(counted::constructed, counted::destroyed);
}

// destroy_all_of (the refresh's batch kill): destroys exactly the
// components the bits say, updates count<T>() like remove_all, calls
// `after` once per entity, after its components, and leaves the bits to
// the caller.
TYPED_TEST(lifetime_test, destroy_all_of_destroys_what_the_bits_say) {
  constexpr int n = 600;
  {
    typename TypeParam::storage_type storage;
    std::vector<std::bitset<2>> bits(n);
    auto id = [](int i) { return entity_id::combine(i, 0); };
    for (int i = 0; i < n; ++i) {
      if (i % 3 != 0) storage.template add<counted>(id(i), bits[i], i);
      if (i % 2 == 0) storage.template add<other_counted>(id(i), bits[i], -i);
    }
    std::vector<entity_id> killed;
    int destroyed_components = 0;
    for (int i = 0; i < n; i += 7) {
      killed.push_back(id(i));
      destroyed_components += static_cast<int>(bits[i].count());
    }
    const int alive_before = counted::alive();
    const auto counts_before =
        std::pair(storage.template count<counted>(),
                  storage.template count<other_counted>());
    std::vector<entity_id> after;
    int destroyed_so_far = 0;
    storage.destroy_all_of(
        killed.begin(),
        killed.end(), [&](entity_id e) -> auto& { return bits[e.index()]; },
        [&](entity_id e) {
          after.push_back(e);
          destroyed_so_far += static_cast<int>(bits[e.index()].count());
          EXPECT_EQ(counted::alive(), alive_before - destroyed_so_far)
              << "after(e) comes once e's components are gone";
        });
    EXPECT_EQ(after, killed);
    EXPECT_EQ(counted::alive(), alive_before - destroyed_components);
    std::size_t lost_counted = 0;
    std::size_t lost_other = 0;
    for (entity_id e : killed) {
      EXPECT_TRUE(bits[e.index()].any() || e.index() % 6 == 3)
          << "bits are the caller's: left as they were";
      lost_counted += bits[e.index()].test(0);
      lost_other += bits[e.index()].test(1);
      bits[e.index()].reset();  // what the caller does (reclaim)
    }
    EXPECT_EQ(storage.template count<counted>(),
              counts_before.first - lost_counted);
    EXPECT_EQ(storage.template count<other_counted>(),
              counts_before.second - lost_other);
    // The survivors are intact; the slots of the destroyed take new ones.
    for (int i = 1; i < n; i += 7) {
      if (bits[i].test(0)) {
        EXPECT_EQ(*storage.template get<counted>(id(i)).value, i);
      }
    }
    for (entity_id e : killed) {
      storage.template add<counted>(e, bits[e.index()], 1000);
      EXPECT_EQ(*storage.template get<counted>(e).value, 1000);
    }
  }
  EXPECT_EQ(counted::constructed, counted::destroyed);
}

TYPED_TEST(lifetime_test, clear_destroys_everything_and_storage_is_reusable) {
  {
    typename TypeParam::storage_type storage;
    std::vector<std::bitset<2>> bits(100);
    for (int i = 0; i < 100; ++i) {
      storage.template add<other_counted>(entity_id::combine(i, 0), bits[i], i);
    }
    storage.clear();
    EXPECT_EQ(counted::alive(), 0);
    for (auto& b : bits) b.reset();
    for (int i = 0; i < 100; ++i) {
      storage.template add<other_counted>(entity_id::combine(i, 1), bits[i],
                                          2 * i);
    }
    EXPECT_EQ(
        *storage.template get<other_counted>(entity_id::combine(7, 1)).value,
        14);
  }
  EXPECT_EQ(counted::constructed, counted::destroyed);
}

// A constructor that throws leaves the entity as it was: the component it
// had is kept.
struct throws_on_negative {
  explicit throws_on_negative(int v) : value(v) {
    if (v < 0) throw std::runtime_error("negative");
  }
  int value;
};

TEST(component_storage, replace_with_a_throwing_constructor_keeps_the_old) {
  constexpr auto components =
      component_signatures(component_signature::make(tag<throws_on_negative>));
  component_storage<decltype(components), fixed_limit<8>> storage;
  std::bitset<1> bits;
  const entity_id e = entity_id::combine(3, 0);
  storage.add<throws_on_negative>(e, bits, 1);
  EXPECT_THROW(storage.add<throws_on_negative>(e, bits, -1),
               std::runtime_error);
  EXPECT_TRUE(bits.test(0));
  EXPECT_EQ(storage.get<throws_on_negative>(e).value, 1);
  EXPECT_EQ(storage.count<throws_on_negative>(), 1u);
  storage.add<throws_on_negative>(e, bits, 2);
  EXPECT_EQ(storage.get<throws_on_negative>(e).value, 2);
}

// add may copy from a component of the same storage while adding makes the
// storage grow (as std::vector::push_back(v[0]) may).
struct named {
  std::string text;
};
struct named_sparse {
  std::string text;
};
struct named_hashed {
  std::string text;
};

template <typename T, typename Storage>
void copy_from_growing_storage(Storage& storage) {
  const std::string text = "a string long enough to live on the heap";
  std::vector<std::bitset<3>> bits(300);
  storage.template add<T>(entity_id::combine(0, 0), bits[0], T{text});
  for (std::uint32_t i = 1; i < 300; ++i) {
    storage.template add<T>(entity_id::combine(i, 0), bits[i],
                            storage.template get<T>(entity_id::combine(0, 0)));
  }
  for (std::uint32_t i = 0; i < 300; ++i) {
    EXPECT_EQ(storage.template get<T>(entity_id::combine(i, 0)).text, text)
        << i;
  }
}

TEST(component_storage, add_copies_from_the_storage_it_grows) {
  constexpr auto components = component_signatures(
      component_signature::make(tag<named>),
      component_signature::make(tag<named_sparse>).sparse(),
      component_signature::make(tag<named_hashed>).hash_map());
  component_storage<decltype(components), dynamic_limit> storage;
  copy_from_growing_storage<named>(storage);
  copy_from_growing_storage<named_sparse>(storage);
  copy_from_growing_storage<named_hashed>(storage);
}

// add_new (batches of new entities): constructs and sets the bit like
// add, but leaves the count to count_new, called once for the batch.
TEST(component_storage, add_new_leaves_the_count_to_count_new) {
  constexpr auto components =
      component_signatures(component_signature::make(tag<position>).sparse(),
                           component_signature::make(tag<small_value>));
  component_storage<decltype(components), dynamic_limit> storage;
  std::vector<component_bitset<2>> bits(5);
  for (std::uint32_t i = 0; i < 5; ++i) {
    const entity_id e = entity_id::combine(i, 0);
    storage.add_new<position>(e, bits[i], static_cast<float>(i), 1.f);
    storage.add_new<small_value>(e, bits[i]);
    EXPECT_TRUE(bits[i].test(0) && bits[i].test(1));
    EXPECT_EQ(storage.get<position>(e).x, static_cast<float>(i));
  }
  EXPECT_EQ(storage.count<position>(), 0u);
  storage.count_new<position>(5);
  storage.count_new<small_value>(5);
  EXPECT_EQ(storage.count<position>(), 5u);
  EXPECT_EQ(storage.count<small_value>(), 5u);
  storage.remove<position>(entity_id::combine(2, 0), bits[2]);
  EXPECT_EQ(storage.count<position>(), 4u);
}

TEST(component_storage, works_with_strata_component_bitset) {
  constexpr auto components =
      component_signatures(component_signature::make(tag<position>).sparse(),
                           component_signature::make(tag<small_value>));
  component_storage<decltype(components), dynamic_limit> storage;
  component_bitset<2> bits;
  const entity_id e = entity_id::combine(9, 4);
  storage.add(tag<position>, e, bits, 3.f, 4.f);
  EXPECT_TRUE(bits.test(0));
  EXPECT_EQ(storage.get(tag<position>, e).x, 3.f);
  storage.remove(tag<position>, e, bits);
  EXPECT_TRUE(bits.none());
}

// The same operations on SoA and AoS layouts give the same components.
TEST(component_storage, soa_and_aos_give_the_same_results) {
  using soa =
      config<storage::contiguous_buffer, false, dynamic_limit>::storage_type;
  using aos =
      config<storage::contiguous_buffer, true, dynamic_limit>::storage_type;
  soa a;
  aos b;
  const auto model_a = model_testing::run_model(a, 99, 10'000);
  const auto model_b = model_testing::run_model(b, 99, 10'000);
  ASSERT_EQ(model_a.bits, model_b.bits);
  for (std::uint32_t i = 0; i < kModelEntities; ++i) {
    const entity_id id = entity_id::combine(i, model_a.versions[i]);
    if (model_a.bits[i].test(0)) {
      EXPECT_EQ(a.get<small_value>(id), b.get<small_value>(id));
    }
    if (model_a.bits[i].test(1)) {
      EXPECT_EQ(a.get<big_value>(id), b.get<big_value>(id));
    }
  }
}

TEST(component_storage, is_movable) {
  using storage_type =
      config<storage::contiguous_buffer, false, fixed>::storage_type;
  storage_type a;
  std::bitset<3> bits;
  a.add<big_value>(entity_id::combine(1, 0), bits, 5u, std::string("five"));
  storage_type b = std::move(a);
  EXPECT_EQ(b.get<big_value>(entity_id::combine(1, 0)).s, "five");
}

}  // namespace
}  // namespace strata
