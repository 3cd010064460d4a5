// A user-defined storage, plugged in through a selector without touching the
// library: a std::map per component type.
#include <bitset>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "component_storage/chunk.h"
#include "component_storage/component_storage.h"
#include "component_storage/model_testing.h"
#include "entity/entity_id.h"
#include "gtest/gtest.h"

namespace my_game {

struct ordered_map_storage {
  template <typename Limit, typename... Components>
  class chunk {
   public:
    template <typename T, typename... Args>
    T& create(strata::entity_id id, Args&&... args) {
      auto [it, inserted] =
          map<T>().emplace(id.index(), T{std::forward<Args>(args)...});
      return it->second;
    }
    template <typename T>
    T& get(strata::entity_id id) {
      return map<T>().at(id.index());
    }
    template <typename T>
    const T& get(strata::entity_id id) const {
      return std::get<std::map<std::uint32_t, T>>(maps_).at(id.index());
    }
    template <typename T>
    void remove(strata::entity_id id) {
      map<T>().erase(id.index());
    }
    void clear() {
      std::apply([](auto&... maps) { (maps.clear(), ...); }, maps_);
    }
    template <typename T>
    bool contains(strata::entity_id id) const {
      return std::get<std::map<std::uint32_t, T>>(maps_).contains(id.index());
    }
    // Iteration in index order: what a user might want this storage for.
    template <typename T>
    const std::map<std::uint32_t, T>& ordered() const {
      return std::get<std::map<std::uint32_t, T>>(maps_);
    }

   private:
    template <typename T>
    std::map<std::uint32_t, T>& map() {
      return std::get<std::map<std::uint32_t, T>>(maps_);
    }
    std::tuple<std::map<std::uint32_t, Components>...> maps_;
  };
};

struct score {
  int points;
};

}  // namespace my_game

namespace strata {
namespace {

static_assert(
    component_chunk<
        my_game::ordered_map_storage::chunk<dynamic_limit, my_game::score>,
        my_game::score>);

TEST(user_chunk, is_used_through_the_aggregate) {
  constexpr auto components = component_signatures(
      component_signature::make(tag<my_game::score>)
          .storage(my_game::ordered_map_storage{}),
      component_signature::make(tag<model_testing::small_value>));
  using storage_type = component_storage<decltype(components), fixed_limit<64>>;
  static_assert(
      std::is_same_v<storage_type::chunk_type<my_game::score>,
                     my_game::ordered_map_storage::chunk<fixed_limit<64>,
                                                         my_game::score>>);
  storage_type storage;
  std::bitset<2> bits[64];
  for (std::uint32_t i : {30u, 10u, 20u}) {
    storage.add(tag<my_game::score>, entity_id::combine(i, 0), bits[i],
                static_cast<int>(i));
  }
  storage.get(tag<my_game::score>, entity_id::combine(20, 0)).points += 1;
  std::vector<int> seen;
  for (const auto& [index, s] :
       storage.chunk_for(tag<my_game::score>).ordered<my_game::score>()) {
    seen.push_back(s.points);
  }
  EXPECT_EQ(seen, (std::vector<int>{10, 21, 30}));
  storage.remove_all(entity_id::combine(10, 0), bits[10]);
  EXPECT_FALSE(storage.chunk_for(tag<my_game::score>)
                   .contains<my_game::score>(entity_id::combine(10, 0)));
}

TEST(user_chunk, passes_the_model_test) {
  component_storage<decltype(model_testing::make_components<
                             my_game::ordered_map_storage, false>()),
                    dynamic_limit>
      storage;
  model_testing::run_model(storage, 12345, 20'000);
}

}  // namespace
}  // namespace strata
