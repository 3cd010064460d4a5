// Test support: drives a component_storage with random operations and checks
// it against a std::map model after every step. Test-only.
#ifndef STRATA_COMPONENT_STORAGE_MODEL_TESTING_H_
#define STRATA_COMPONENT_STORAGE_MODEL_TESTING_H_

#include <bitset>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "component_storage/component_storage.h"
#include "entity/entity_id.h"
#include "gtest/gtest.h"

namespace strata::model_testing {

// Three components: a trivially copyable one, one with a heap-owning member
// (non-trivial copy, move and destructor), and a third in another signature.
struct small_value {
  std::int32_t v;
  friend bool operator==(const small_value&, const small_value&) = default;
};
struct big_value {
  std::uint64_t a;
  std::string s;
  friend bool operator==(const big_value&, const big_value&) = default;
};
struct third_value {
  double d;
  friend bool operator==(const third_value&, const third_value&) = default;
};

// The three components: small and big grouped in one signature (with `Aos`
// layout or SoA), third alone; both signatures use `Selector`.
template <typename Selector, bool Aos>
constexpr auto make_components() {
  constexpr auto group =
      component_signature::make(tag<small_value>, tag<big_value>)
          .storage(Selector{});
  constexpr auto single =
      component_signature::make(tag<third_value>).storage(Selector{});
  if constexpr (Aos) {
    return component_signatures(group.aos(), single);
  } else {
    return component_signatures(group, single);
  }
}

inline constexpr std::size_t kModelEntities = 512;

struct model_state {
  std::map<std::uint32_t, small_value> small;
  std::map<std::uint32_t, big_value> big;
  std::map<std::uint32_t, third_value> third;
  std::vector<std::bitset<3>> bits =
      std::vector<std::bitset<3>>(kModelEntities);
  std::vector<std::uint32_t> versions =
      std::vector<std::uint32_t>(kModelEntities, 0);
};

template <typename Storage>
void check_entity(const Storage& storage, const model_state& model,
                  std::uint32_t index) {
  const entity_id id = entity_id::combine(index, model.versions[index]);
  const auto& bits = model.bits[index];
  ASSERT_EQ(bits[Storage::template id_of<small_value>()],
            model.small.contains(index))
      << "index " << index;
  ASSERT_EQ(bits[Storage::template id_of<big_value>()],
            model.big.contains(index))
      << "index " << index;
  ASSERT_EQ(bits[Storage::template id_of<third_value>()],
            model.third.contains(index))
      << "index " << index;
  if (auto it = model.small.find(index); it != model.small.end()) {
    ASSERT_EQ(storage.template get<small_value>(id), it->second);
  }
  if (auto it = model.big.find(index); it != model.big.end()) {
    ASSERT_EQ(storage.template get<big_value>(id), it->second);
  }
  if (auto it = model.third.find(index); it != model.third.end()) {
    ASSERT_EQ(storage.template get<third_value>(id), it->second);
  }
  if constexpr (chunk_has_contains<
                    typename Storage::template chunk_type<small_value>,
                    small_value>) {
    ASSERT_EQ(storage.template chunk_for<small_value>()
                  .template contains<small_value>(id),
              model.small.contains(index));
  }
}

// Runs `ops` random operations with `seed`, checking the touched entity after
// every step and every entity every 997 steps. Returns the final model.
template <typename Storage>
model_state run_model(Storage& storage, std::uint32_t seed, int ops) {
  model_state model;
  std::mt19937 rng(seed);
  auto uniform = [&rng](std::uint32_t n) {
    return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
  };
  for (int step = 0; step < ops; ++step) {
    const std::uint32_t index = uniform(kModelEntities);
    const entity_id id = entity_id::combine(index, model.versions[index]);
    auto& bits = model.bits[index];
    const std::uint32_t value = uniform(1'000'000);
    switch (uniform(10)) {
      case 0:
      case 1: {
        const small_value v{static_cast<std::int32_t>(value)};
        EXPECT_EQ(storage.template add<small_value>(id, bits, v), v);
        model.small[index] = v;
        break;
      }
      case 2:
      case 3: {
        big_value v{value, std::string(value % 40, 'x')};
        EXPECT_EQ(storage.add(tag<big_value>, id, bits, v.a, v.s), v);
        model.big[index] = v;
        break;
      }
      case 4: {
        const third_value v{value * 0.5};
        storage.template add<third_value>(id, bits, v);
        model.third[index] = v;
        break;
      }
      case 5:
        storage.template remove<small_value>(id, bits);
        model.small.erase(index);
        break;
      case 6:
        storage.remove(tag<big_value>, id, bits);
        model.big.erase(index);
        break;
      case 7:
        storage.template remove<third_value>(id, bits);
        model.third.erase(index);
        break;
      case 8:
        // Write through get(): the change must stick.
        if (auto* p = storage.template try_get<small_value>(id, bits)) {
          p->v += 7;
          model.small[index].v += 7;
        }
        if (Storage::has(tag<big_value>, bits)) {
          storage.get(tag<big_value>, id).s += "y";
          model.big[index].s += "y";
        }
        break;
      case 9:
        // Kill: empty the entity, then recycle its index with a new version.
        if (uniform(4) == 0) {
          storage.remove_all(id, bits);
          EXPECT_TRUE(bits.none());
          model.small.erase(index);
          model.big.erase(index);
          model.third.erase(index);
          model.versions[index] = id.next_version().version();
        }
        break;
    }
    check_entity(storage, model, index);
    if (::testing::Test::HasFatalFailure()) return model;
    if (step % 997 == 0) {
      for (std::uint32_t i = 0; i < kModelEntities; ++i) {
        check_entity(storage, model, i);
        if (::testing::Test::HasFatalFailure()) return model;
      }
    }
  }
  return model;
}

}  // namespace strata::model_testing

#endif  // STRATA_COMPONENT_STORAGE_MODEL_TESTING_H_
