// Choosing storage: one world using every built-in storage.
//
//   * position, velocity: the default contiguous buffer, SoA (one array per
//     component, a slot per entity index): the fastest to iterate, memory
//     for every entity whether it has the component or not;
//   * color, size: a contiguous buffer laid out AoS (.aos(): both in one
//     row), for components always used together;
//   * health: a packed sparse set (.sparse()): memory per entity that has
//     one, iteration touches only the packed array;
//   * nickname: a hash map (.hash_map()): for rare components;
//   * player: an empty type, stored nowhere (only the entity's component bit).
// Systems do not care where a component lives: `data.for_each` reaches
// contiguous components by index and the others by id. The program prints
// how many entities have each component and what two systems computed.
//
//   bazel run //examples:storage
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "component_storage/hash_map_chunk.h"  // for .hash_map() storage
#include "strata.h"

struct position {
  float x, y;
};
struct velocity {
  float x, y;
};
struct color {
  unsigned char r, g, b;
};
struct size {
  float radius;
};
struct health {
  int hp;
};
struct nickname {
  std::string text;
};
struct player {};  // a tag component: no data

namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto color = strata::tag<::color>;
inline constexpr auto size = strata::tag<::size>;
inline constexpr auto health = strata::tag<::health>;
inline constexpr auto nickname = strata::tag<::nickname>;
inline constexpr auto player = strata::tag<::player>;
}  // namespace ct

// Moves everything that moves (contiguous SoA: a plain indexed loop).
struct movement {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x;
      p.y += v.y;
    });
  }
};

// Sums the health of the named players (sparse + hash map + empty tag).
struct roll_call {
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](strata::entity_id e, const health& h, const nickname& n) {
      std::printf("  %s (entity %s, player: %s): %d hp\n", n.text.c_str(),
                  to_string(e).c_str(), data.has(ct::player, e) ? "yes" : "no",
                  h.hp);
    });
  }
};

namespace st {
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto roll_call = strata::tag<::roll_call>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position,
                                      ct::velocity),  // contiguous, SoA
    strata::component_signature::make(ct::color, ct::size)
        .aos(),  // contiguous, AoS
    strata::component_signature::make(ct::health)
        .sparse(),  // packed sparse set
    strata::component_signature::make(ct::nickname)
        .hash_map(),                                 // rare: hash map
    strata::component_signature::make(ct::player));  // empty: no storage

constexpr auto systems =
    strata::system_signatures(strata::system_signature::make(st::movement)
                                  .read(ct::velocity)
                                  .write(ct::position),
                              strata::system_signature::make(st::roll_call)
                                  .read(ct::health, ct::nickname));

constexpr auto settings = strata::settings()
                              .fixed_entity_limit<1000>()
                              .component_signatures(components)
                              .system_signatures(systems)
                              .threads(1);

int main() {
  auto ctx = strata::make_context<settings>();
  std::vector<strata::entity_id> ids;
  ctx.step([&](auto& proxy) {
    // 1000 moving dots, every one colored.
    proxy.create_entities(1000, [&](strata::entity_id e, position& p,
                                    velocity& v, color& c, size& s) {
      p = {static_cast<float>(ids.size()), 0};
      v = {1, 2};
      c = {255, 128, 0};
      s = {0.5f};
      ids.push_back(e);
    });
    // One in ten has health; three have names; the first is the player.
    for (std::size_t i = 0; i < ids.size(); i += 10) {
      proxy.add_component(ct::health, ids[i], 100 - static_cast<int>(i / 10));
    }
    proxy.add_component(ct::nickname, ids[0], "ada");
    proxy.add_component(ct::nickname, ids[10], "brian");
    proxy.add_component(ct::nickname, ids[20], "carol");
    proxy.add_component(ct::player, ids[0]);
  });

  std::printf("entities: %zu\n", ctx.entity_count());
  std::printf("with position (contiguous, SoA): %zu\n",
              ctx.count(ct::position));
  std::printf("with color (contiguous, AoS): %zu\n", ctx.count(ct::color));
  std::printf("with health (sparse set): %zu\n", ctx.count(ct::health));
  std::printf("with nickname (hash map): %zu\n", ctx.count(ct::nickname));
  std::printf("with player (empty, no storage): %zu\n", ctx.count(ct::player));

  std::printf("roll call:\n");
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  const strata::entity_id last = ids.back();
  std::printf("entity %s moved to (%.0f, %.0f)\n", to_string(last).c_str(),
              ctx.get(ct::position, last).x, ctx.get(ct::position, last).y);
}
