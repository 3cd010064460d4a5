// remove_all and destroy_all_of with more component types than the
// unrolled kill handles (component_storage/internal/destroy_by_bits.h).
// Its own test binary: 66 component types cost a minute of compile time
// under the sanitizers, too much to add to component_storage_test's unit.
#include <algorithm>
#include <cstddef>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "component_storage/component_storage.h"
#include "entity/entity_id.h"
#include "entity/entity_metadata.h"
#include "gtest/gtest.h"

namespace strata {
namespace {

// Past 16 component types, remove_all and destroy_all_of visit only the set
// bits of a component_bitset. 66 types (two bitset words), in SoA, AoS and
// sparse chunks, each counting its live objects: random adds, removes and
// kills must destroy exactly what a reference model says, and keep
// count<T>() exact.
template <int I>
struct many {
  static inline int alive = 0;
  explicit many(int v) : value(v) { ++alive; }
  many(many&& other) noexcept : value(other.value) { ++alive; }
  many& operator=(many&&) noexcept = default;
  ~many() { --alive; }
  int value;
};
constexpr int kManyTypes = 66;

template <int... I>
constexpr auto many_components(std::integer_sequence<int, I...>) {
  constexpr auto signature_of = []<int J>(std::integral_constant<int, J>) {
    if constexpr (J % 3 == 0) {
      return component_signature::make(tag<many<J>>).sparse();
    } else if constexpr (J % 3 == 1) {
      return component_signature::make(tag<many<J>>).aos();
    } else {
      return component_signature::make(tag<many<J>>);
    }
  };
  return component_signatures(
      signature_of(std::integral_constant<int, I>{})...);
}
using many_storage =
    component_storage<decltype(many_components(
                          std::make_integer_sequence<int, kManyTypes>{})),
                      dynamic_limit>;
using many_bits = component_bitset<kManyTypes>;

template <typename F>
void for_each_many(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (f(std::integral_constant<int, I>{}), ...);
  }
  (std::make_integer_sequence<int, kManyTypes>{});
}

TEST(component_storage, many_types_destroy_exactly_the_components_set) {
  constexpr int n = 300;
  std::mt19937 rng(20261126);
  {
    many_storage storage;
    std::vector<many_bits> bits(n);
    std::vector<std::vector<int>> model(n, std::vector<int>(kManyTypes, -1));
    auto id = [](int i) { return entity_id::combine(i, 0); };
    auto check = [&] {
      for_each_many([&](auto k) {
        constexpr int K = decltype(k)::value;
        int expected = 0;
        for (int i = 0; i < n; ++i) {
          ASSERT_EQ(bits[i].test(K), model[i][K] >= 0) << "type " << K;
          if (model[i][K] < 0) continue;
          ++expected;
          ASSERT_EQ(storage.template get<many<K>>(id(i)).value, model[i][K]);
        }
        ASSERT_EQ(many<K>::alive, expected) << "type " << K;
        ASSERT_EQ(storage.template count<many<K>>(),
                  static_cast<std::size_t>(expected));
      });
    };
    for (int round = 0; round < 6; ++round) {
      for (int op = 0; op < 4000; ++op) {
        const int i = static_cast<int>(rng() % n);
        const int k = static_cast<int>(rng() % kManyTypes);
        const bool add = rng() % 3 != 0;
        for_each_many([&](auto c) {
          constexpr int K = decltype(c)::value;
          if (K != k) return;
          if (add) {
            storage.template add<many<K>>(id(i), bits[i], op);
            model[i][K] = op;
          } else {
            storage.template remove<many<K>>(id(i), bits[i]);
            model[i][K] = -1;
          }
        });
      }
      check();
      // Kill a few one at a time, then a batch as the refresh does.
      for (int k = 0; k < 20; ++k) {
        const int i = static_cast<int>(rng() % n);
        storage.remove_all(id(i), bits[i]);
        EXPECT_TRUE(bits[i].none());
        std::fill(model[i].begin(), model[i].end(), -1);
      }
      check();
      std::vector<entity_id> killed;
      for (int i = round; i < n; i += 9) killed.push_back(id(i));
      int after_calls = 0;
      storage.destroy_all_of(
          killed.begin(),
          killed.end(), [&](entity_id e) -> auto& { return bits[e.index()]; },
          [&](entity_id) { ++after_calls; });
      EXPECT_EQ(after_calls, static_cast<int>(killed.size()));
      for (entity_id e : killed) {
        bits[e.index()].reset();  // the caller's part
        std::fill(model[e.index()].begin(), model[e.index()].end(), -1);
      }
      check();
    }
  }
  for_each_many([](auto k) {
    EXPECT_EQ(many<decltype(k)::value>::alive, 0) << "destructor leaked";
  });
}

}  // namespace
}  // namespace strata
