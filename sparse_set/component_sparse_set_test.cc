#include "sparse_set/component_sparse_set.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/versioned_id.h"
#include "gtest/gtest.h"
#include "sparse_set/for_each_in_all.h"
#include "sparse_set/versioned_sparse_set.h"
#include "testing/ids.h"

namespace strata {
namespace {

// Sparse sets take any versioned id; these are //entity's widths.
using testing::entity_id;

using traits = entity_id::traits;

// Data derived from the id, so that any id/data mismatch is detectable.
std::int64_t payload(entity_id id) {
  return static_cast<std::int64_t>(id.index()) * 1000 + id.version();
}

void expect_matches(
    component_sparse_set<entity_id, std::int64_t>& set,
    const std::map<std::uint32_t, std::pair<entity_id, std::int64_t>>& model) {
  ASSERT_EQ(set.size(), model.size());
  std::size_t seen = 0;
  set.each([&](entity_id id, std::int64_t& value) {
    const auto it = model.find(id.index());
    ASSERT_NE(it, model.end()) << id;
    ASSERT_EQ(it->second.first, id);
    ASSERT_EQ(it->second.second, value) << id;
    ASSERT_EQ(set.ids()[seen], id);
    ++seen;
  });
  ASSERT_EQ(seen, model.size());
}

TEST(ComponentSparseSetTest, MatchesModel) {
  component_sparse_set<entity_id, std::int64_t> set;
  // index -> (id, value)
  std::map<std::uint32_t, std::pair<entity_id, std::int64_t>> model;
  std::mt19937 rng(3);
  for (int step = 0; step < 120'000; ++step) {
    const std::uint32_t index =
        rng() % 4 == 0 ? rng() % traits::max_entities : rng() % 2000;
    const entity_id id = entity_id::combine(index, rng() % 3);
    const auto it = model.find(index);
    const bool present = it != model.end() && it->second.first == id;
    const int op = static_cast<int>(rng() % 1000);
    if (op < 400) {
      if (it == model.end()) {
        const std::int64_t value = static_cast<std::int64_t>(rng());
        ASSERT_EQ(set.emplace(id, value), value);
        model.emplace(index, std::pair(id, value));
      } else {
        ASSERT_TRUE(set.id_set().contains_index(index));
      }
    } else if (op < 700) {
      ASSERT_EQ(set.erase(id), present) << step;
      if (present) model.erase(it);
    } else if (op < 996) {
      ASSERT_EQ(set.contains(id), present);
      if (present) {
        ASSERT_EQ(set.get(id), it->second.second);
        set.get(id) += 1;  // writes must land on this id's element only
        it->second.second += 1;
      } else {
        ASSERT_EQ(set.try_get(id), nullptr);
      }
    } else if (op < 997) {
      set.clear();
      model.clear();
    } else if (op < 998) {
      set.sort_by_data(std::greater<>());
      for (std::size_t pos = 1; pos < set.size(); ++pos) {
        ASSERT_GE(set.data()[pos - 1], set.data()[pos]);
      }
    } else if (op < 999) {
      set.sort();
      ASSERT_TRUE(std::is_sorted(set.ids().begin(), set.ids().end()));
    } else {
      versioned_sparse_set<entity_id> other;
      for (const auto& [i, entry] : model) {
        if (rng() % 3)
          other.insert(rng() % 5 ? entry.first : entry.first.next_version());
      }
      set.sort_as(other);
      std::size_t pos = 0;
      for (const entity_id o : other) {
        if (set.contains(o)) {
          ASSERT_EQ(set.ids()[pos++], o);
        }
      }
    }
    ASSERT_EQ(set.size(), model.size()) << step;
    const auto now = model.find(index);
    const bool now_present = now != model.end() && now->second.first == id;
    ASSERT_EQ(set.contains(id), now_present);
    if (now_present) {
      ASSERT_EQ(*set.try_get(id), now->second.second);
    }
    if (step % 1000 == 0 || op >= 996) expect_matches(set, model);
  }
  expect_matches(set, model);
}

TEST(ComponentSparseSetTest, SortKeepsDataAttached) {
  component_sparse_set<entity_id, std::int64_t, std::string> set;
  std::vector<entity_id> ids;
  for (std::uint32_t i = 0; i < 100'000; ++i) {
    ids.push_back(entity_id::combine(i * 7 + 2, i % 11));
  }
  std::mt19937 rng(17);
  std::shuffle(ids.begin(), ids.end(), rng);
  for (const entity_id id : ids) {
    // The second array carries a different order key than the first.
    set.emplace(id, payload(id), std::to_string(id.value()));
  }
  const auto check_all = [&] {
    for (const entity_id id : ids) {
      ASSERT_EQ(set.get<0>(id), payload(id));
      ASSERT_EQ(set.get<std::string>(id), std::to_string(id.value()));
    }
    for (std::size_t pos = 0; pos < set.size(); ++pos) {
      const entity_id id = set.ids()[pos];
      ASSERT_EQ(set.data<0>()[pos], payload(id));
      ASSERT_EQ(set.data<1>()[pos], std::to_string(id.value()));
    }
  };
  set.sort_by_data<1>();  // lexicographic on the strings
  ASSERT_TRUE(std::is_sorted(set.data<1>().begin(), set.data<1>().end()));
  check_all();
  set.sort_by_data<0>(std::greater<>());
  ASSERT_TRUE(std::is_sorted(set.data<0>().begin(), set.data<0>().end(),
                             std::greater<>()));
  check_all();
  set.sort([](entity_id a, entity_id b) { return a.version() < b.version(); });
  for (std::size_t pos = 1; pos < set.size(); ++pos) {
    ASSERT_LE(set.ids()[pos - 1].version(), set.ids()[pos].version());
  }
  check_all();
  std::shuffle(ids.begin(), ids.end(), rng);
  set.sort_as(ids);
  ASSERT_TRUE(std::equal(ids.begin(), ids.end(), set.ids().begin()));
  check_all();
}

TEST(ComponentSparseSetTest, SortEmptyAndSingle) {
  component_sparse_set<entity_id, int> set;
  set.sort();
  set.sort_by_data();
  EXPECT_TRUE(set.empty());
  set.emplace(entity_id::combine(4, 4), 44);
  set.sort_by_data(std::greater<>());
  set.sort_as(std::vector<entity_id>{});
  EXPECT_EQ(set.get(entity_id::combine(4, 4)), 44);
}

TEST(ComponentSparseSetTest, SortAsDisjointAndPartial) {
  component_sparse_set<entity_id, int> a;
  component_sparse_set<entity_id, char> b;
  for (std::uint32_t i = 0; i < 10; ++i)
    a.emplace(entity_id::combine(i, 0), static_cast<int>(i));
  for (std::uint32_t i = 20; i < 30; ++i)
    b.emplace(entity_id::combine(i, 0), 'x');
  const std::vector<entity_id> before(a.ids().begin(), a.ids().end());
  a.sort_as(b);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), a.ids().begin()));
  b.emplace(entity_id::combine(5, 0), 'y');
  b.emplace(entity_id::combine(2, 0), 'z');
  b.sort(std::greater<>());  // 29..20, 5, 2
  a.sort_as(b);
  EXPECT_EQ(a.ids()[0], entity_id::combine(5, 0));
  EXPECT_EQ(a.ids()[1], entity_id::combine(2, 0));
  a.each([](entity_id id, int v) {
    EXPECT_EQ(static_cast<std::uint32_t>(v), id.index());
  });
}

struct no_default {
  explicit no_default(int v) : value(v) {}
  no_default(no_default&&) noexcept = default;
  no_default& operator=(no_default&&) noexcept = default;
  int value;
};
static_assert(!std::is_default_constructible_v<no_default>);

// Trivially copyable components are stored as bytes of their shape
// (base/internal/object_bytes.h): two types of one shape, one with padding,
// next to a std::string, through emplace, erase, sorting and spans.
struct padded {
  char tag;
  std::int32_t value;
};
struct same_shape {
  std::int32_t a, b;
};
static_assert(sizeof(padded) == sizeof(same_shape));
TEST(ComponentSparseSetTest, ComponentsStoredAsBytesKeepTheirValues) {
  component_sparse_set<entity_id, padded, std::string, same_shape> set;
  for (std::uint32_t i = 0; i < 300; ++i) {  // several reallocations
    const std::int32_t v = static_cast<std::int32_t>((i * 7919) % 300);
    set.emplace(entity_id::combine(i, 1), padded{'p', v}, std::to_string(v),
                same_shape{v, -v});
  }
  for (std::uint32_t i = 0; i < 300; i += 3) {
    ASSERT_TRUE(set.erase(entity_id::combine(i, 1)));
  }
  set.sort_by_data<0>(
      [](const padded& x, const padded& y) { return x.value < y.value; });
  ASSERT_EQ(set.size(), 200u);
  const std::span<const padded> sorted = std::as_const(set).data<0>();
  for (std::size_t p = 0; p < set.size(); ++p) {
    if (p > 0) {
      EXPECT_LT(sorted[p - 1].value, sorted[p].value);
    }
    const entity_id id = set.ids()[p];
    EXPECT_EQ(sorted[p].tag, 'p');
    EXPECT_EQ(set.get<1>(id), std::to_string(sorted[p].value));
    EXPECT_EQ(set.get<same_shape>(id).a, sorted[p].value);
    EXPECT_EQ(set.try_get<2>(id)->b, -sorted[p].value);
    EXPECT_EQ(std::get<0>(set.get_all(id)).value, sorted[p].value);
  }
}

TEST(ComponentSparseSetTest, MoveOnlyAndNonDefaultConstructible) {
  component_sparse_set<entity_id, std::unique_ptr<int>, no_default> set;
  for (std::uint32_t i = 0; i < 100; ++i) {
    auto [ptr, nd] =
        set.emplace(entity_id::combine(i, 0), std::make_unique<int>(i),
                    static_cast<int>(i) * 2);
    EXPECT_EQ(*ptr, static_cast<int>(i));
    EXPECT_EQ(nd.value, static_cast<int>(i) * 2);
  }
  for (std::uint32_t i = 0; i < 100; i += 3)
    set.erase(entity_id::combine(i, 0));
  set.sort_by_data<1>([](const no_default& a, const no_default& b) {
    return a.value > b.value;
  });
  set.each([](entity_id id, std::unique_ptr<int>& ptr, no_default& nd) {
    EXPECT_EQ(*ptr, static_cast<int>(id.index()));
    EXPECT_EQ(nd.value, static_cast<int>(id.index()) * 2);
  });
  EXPECT_EQ(set.size(), 66u);
  EXPECT_EQ(*set.get<std::unique_ptr<int>>(entity_id::combine(1, 0)), 1);

  component_sparse_set<entity_id, no_default> single;
  single.emplace(entity_id::combine(1, 1), 5);  // constructs in place from int
  single.emplace(entity_id::combine(2, 1), std::piecewise_construct,
                 std::forward_as_tuple(6));
  EXPECT_EQ(single.get(entity_id::combine(2, 1)).value, 6);
  const auto& const_single = single;
  EXPECT_EQ(const_single.get(entity_id::combine(1, 1)).value, 5);
}

// Registers every live object by address: construction twice at an address
// or destruction of an unknown address fails the test.
struct tracked {
  static std::set<const tracked*>& live() {
    static std::set<const tracked*> objects;
    return objects;
  }
  static inline int constructed = 0;
  static inline int destroyed = 0;
  // When >= 0: how many more tracked(int) constructions succeed.
  static inline int throw_countdown = -1;

  explicit tracked(int v) : value(v) {
    if (throw_countdown >= 0 && throw_countdown-- == 0) {
      throw std::runtime_error("tracked ctor");
    }
    enter();
  }
  tracked(tracked&& other) noexcept : value(other.value) { enter(); }
  tracked& operator=(tracked&& other) noexcept {
    value = other.value;
    return *this;
  }
  ~tracked() {
    ++destroyed;
    if (live().erase(this) != 1)
      ADD_FAILURE() << "destroyed twice or never built";
  }
  void enter() {
    ++constructed;
    if (!live().insert(this).second) ADD_FAILURE() << "constructed twice";
  }
  int value;
};

TEST(ComponentSparseSetTest, EveryObjectIsDestroyedExactlyOnce) {
  tracked::constructed = tracked::destroyed = 0;
  {
    component_sparse_set<entity_id, tracked, tracked> set;
    std::mt19937 rng(9);
    for (std::uint32_t i = 0; i < 3000; ++i) {
      set.emplace(entity_id::combine(i, 1), static_cast<int>(i),
                  static_cast<int>(rng() % 100));
    }
    for (std::uint32_t i = 0; i < 3000; i += 4)
      set.erase(entity_id::combine(i, 1));
    EXPECT_EQ(tracked::live().size(), 2u * set.size());
    set.sort_by_data<1>(
        [](const tracked& a, const tracked& b) { return a.value < b.value; });
    set.sort(std::greater<>());
    std::vector<entity_id> order(set.ids().begin(), set.ids().end());
    std::shuffle(order.begin(), order.end(), rng);
    set.sort_as(order);
    EXPECT_EQ(tracked::live().size(), 2u * set.size());
    set.each([](entity_id id, tracked& a, tracked&) {
      EXPECT_EQ(static_cast<std::uint32_t>(a.value), id.index());
    });
    set.clear();
    EXPECT_TRUE(tracked::live().empty());
    for (std::uint32_t i = 0; i < 100; ++i)
      set.emplace(entity_id::combine(i, 1), 1, 2);
    EXPECT_EQ(tracked::live().size(), 200u);
  }  // destruction
  EXPECT_TRUE(tracked::live().empty());
  EXPECT_GT(tracked::constructed, 0);
  EXPECT_EQ(tracked::constructed, tracked::destroyed);
}

TEST(ComponentSparseSetTest, ThrowingConstructorLeavesSetUnchanged) {
  tracked::constructed = tracked::destroyed = 0;
  {
    component_sparse_set<entity_id, tracked, tracked> set;
    set.emplace(entity_id::combine(1, 0), 1, 1);
    // Throw while building the second component: the first is rolled back.
    tracked::throw_countdown = 1;
    EXPECT_THROW(set.emplace(entity_id::combine(2, 0), 2, 3),
                 std::runtime_error);
    EXPECT_EQ(tracked::throw_countdown, -1);
    EXPECT_EQ(set.size(), 1u);
    EXPECT_FALSE(set.contains(entity_id::combine(2, 0)));
    EXPECT_EQ(set.data<0>().size(), 1u);
    EXPECT_EQ(set.data<1>().size(), 1u);
    EXPECT_EQ(tracked::live().size(), 2u);
    set.emplace(entity_id::combine(2, 0), 2, 2);
    EXPECT_EQ(set.get<1>(entity_id::combine(2, 0)).value, 2);
  }
  EXPECT_TRUE(tracked::live().empty());
  EXPECT_EQ(tracked::constructed, tracked::destroyed);
}

TEST(ComponentSparseSetDeathTest, BadIdsFailChecks) {
  component_sparse_set<entity_id, int> set;
  set.emplace(entity_id::combine(3, 1), 7);
  EXPECT_DEATH(set.get(entity_id::combine(3, 0)),
               "strata: check failed.*stale");
  EXPECT_DEATH(set.emplace(entity_id::combine(3, 2), 1),
               "strata: check failed.*already has components");
  EXPECT_DEATH(set.emplace(entity_id::null(), 1), "strata: check failed.*null");
  EXPECT_DEATH(set.emplace(entity_id::tombstone(4), 1),
               "strata: check failed.*tombstone");
  EXPECT_FALSE(set.erase(entity_id::combine(3, 0)));  // stale erase: no-op
  EXPECT_EQ(set.get(entity_id::combine(3, 1)), 7);
}

TEST(ComponentSparseSetTest, ForEachInAllMatchesBruteForce) {
  component_sparse_set<entity_id, int> positions;
  component_sparse_set<entity_id, float, std::string> velocities;
  versioned_sparse_set<entity_id> subscribed;
  std::mt19937 rng(21);
  for (std::uint32_t i = 0; i < 5000; ++i) {
    const auto id = entity_id::combine(i, i % 4);
    if (rng() % 2) positions.emplace(id, static_cast<int>(i));
    if (rng() % 3 == 0)
      velocities.emplace(id, static_cast<float>(i), std::to_string(i));
    // Some entries are stale versions and must not match.
    if (rng() % 4) subscribed.insert(rng() % 8 ? id : id.next_version());
  }
  std::set<entity_id> expected;
  for (const entity_id id : positions.ids()) {
    if (velocities.contains(id) && subscribed.contains(id)) expected.insert(id);
  }
  ASSERT_FALSE(expected.empty());
  std::set<entity_id> seen;
  for_each_in_all(
      [&](entity_id id, int& p, float& v, std::string& s) {
        EXPECT_TRUE(seen.insert(id).second);
        EXPECT_EQ(p, static_cast<int>(id.index()));
        EXPECT_EQ(v, static_cast<float>(id.index()));
        EXPECT_EQ(s, std::to_string(id.index()));
        p = -p;  // writable
      },
      positions, subscribed, velocities);
  EXPECT_EQ(seen, expected);
  for (const entity_id id : expected)
    EXPECT_EQ(positions.get(id), -static_cast<int>(id.index()));

  // Driven by the smallest set: the visit order is its reverse dense order.
  std::vector<entity_id> order;
  const auto& const_positions = positions;
  for_each_in_all([&](entity_id id, const int&) { order.push_back(id); },
                  subscribed, const_positions, velocities.id_set());
  std::vector<entity_id> driver_order;
  for (auto it = velocities.ids().rbegin(); it != velocities.ids().rend();
       ++it) {
    if (positions.contains(*it) && subscribed.contains(*it))
      driver_order.push_back(*it);
  }
  EXPECT_EQ(order, driver_order);
}

TEST(ComponentSparseSetTest, ForEachInAllWithEmptySet) {
  component_sparse_set<entity_id, int> a;
  component_sparse_set<entity_id, int> empty;
  a.emplace(entity_id::combine(1, 0), 1);
  int calls = 0;
  for_each_in_all([&](entity_id, int&, int&) { ++calls; }, a, empty);
  for_each_in_all([&](entity_id, int&) { ++calls; }, a);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace strata
