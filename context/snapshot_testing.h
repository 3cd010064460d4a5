// Shared by the snapshot tests: a small simulation that uses every storage
// kind (contiguous SoA, AoS with a padded component, sparse, hash_map with
// a non-trivially-copyable component, an empty tag), resources, kills from
// systems, creations in deferred functions, and per-frame input (creates,
// kills with index reuse, adds, removes) derived from the frame number.
#ifndef STRATA_CONTEXT_SNAPSHOT_TESTING_H_
#define STRATA_CONTEXT_SNAPSHOT_TESTING_H_

#include <cereal/types/string.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "component_storage/hash_map_chunk.h"
#include "context/cereal_io.h"
#include "context/context.h"
#include "context/save_load.h"
#include "context/state_hash.h"
#include "testing/components.h"

namespace strata::snapshot_testing {

using testing::position;
using testing::velocity;

// AoS. Its would-be padding is an explicit member, so that every compiler
// hashes it the same (the padding rule of state_hash.h).
struct spin {
  float angle = 0;
  std::uint8_t turns = 0;
  std::uint8_t spare[3] = {};
};
struct heat {
  double degrees = 0;
};
struct health {
  int hp = 0;
};
// Not trivially copyable: copied by its copy constructor, hashed by its
// hash_state, saved through cereal. Short names: no allocation (small
// string buffer).
struct label {
  std::string name;
  template <typename Archive>
  void serialize(Archive& archive) {
    archive(name);
  }
};
inline void hash_state(state_hasher& hasher, const label& value) {
  hasher.add(value.name.size());
  hasher.add_bytes(value.name.data(), value.name.size());
}
struct marked {};

struct world_rng {
  std::uint64_t state = 0x9e3779b97f4a7c15u;
  std::uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
};
struct tally {
  std::uint64_t kills = 0;
  std::uint64_t spawns = 0;
};

namespace ct {
using testing::ct::position;
using testing::ct::velocity;
inline constexpr auto spin = tag<snapshot_testing::spin>;
inline constexpr auto heat = tag<snapshot_testing::heat>;
inline constexpr auto health = tag<snapshot_testing::health>;
inline constexpr auto label = tag<snapshot_testing::label>;
inline constexpr auto marked = tag<snapshot_testing::marked>;
}  // namespace ct

struct move {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x * 0.25f;
      p.y += v.y * 0.25f;
    });
  }
};
struct turn {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](spin& s, const velocity& v) {
      s.angle += v.x;
      if (s.angle > 6.f) {
        s.angle -= 6.f;
        ++s.turns;
      }
    });
  }
};
// Burns health; entities at zero die, counted in a deferred function.
struct burn {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, health& h, const heat& t) {
      h.hp -= t.degrees > 0.5 ? 2 : 1;
      if (h.hp <= 0) {
        data.kill_entity(e);
        data.defer(
            [](auto& proxy) { ++proxy.template resource<tally>().kills; });
      }
    });
  }
};
// Each marked entity spawns a child (deferred: the refresh runs it in a
// fixed order), whose components the world's random generator picks.
struct spawn {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      const position p = data.read(ct::position, e);
      data.defer([p, e](auto& proxy) {
        auto& rng = proxy.template resource<world_rng>();
        const std::uint64_t r = rng.next();
        const entity_id child = proxy.create_entity();
        proxy.add_component(ct::position, child, p.x, p.y);
        proxy.add_component(ct::velocity, child, float(r % 7) - 3.f, 1.f);
        if (r & 8) proxy.add_component(ct::spin, child, 0.f, std::uint8_t{0});
        if (r & 16) proxy.add_component(ct::heat, child, double(r % 100) / 100);
        if (r & 32) proxy.add_component(ct::health, child, int(r % 9) + 1);
        if (r & 64)
          proxy.add_component(ct::label, child, "c" + std::to_string(r % 97));
        ++proxy.template resource<tally>().spawns;
        if (proxy.alive(e)) proxy.remove_component(ct::marked, e);
      });
    });
  }
};

namespace st {
inline constexpr auto move = tag<snapshot_testing::move>;
inline constexpr auto turn = tag<snapshot_testing::turn>;
inline constexpr auto burn = tag<snapshot_testing::burn>;
inline constexpr auto spawn = tag<snapshot_testing::spawn>;
}  // namespace st

inline constexpr auto components = component_signatures(
    component_signature::make(ct::position, ct::velocity),
    component_signature::make(ct::spin, ct::heat).aos(),
    component_signature::make(ct::health).sparse(),
    component_signature::make(ct::label).hash_map().serialize_with(cereal_io{}),
    component_signature::make(ct::marked));
inline constexpr auto systems = system_signatures(
    system_signature::make(st::move)
        .read(ct::velocity)
        .write(ct::position)
        .parallelism(inner_parallelism::split_evenly(3)),
    system_signature::make(st::turn)
        .read(ct::velocity)
        .write(ct::spin)
        .parallelism(inner_parallelism::split_evenly_per_core()),
    system_signature::make(st::burn)
        .read(ct::heat)
        .write(ct::health)
        .parallelism(inner_parallelism::split_evenly(2)),
    system_signature::make(st::spawn)
        .read(ct::position, ct::marked)
        .dependencies(st::move));
inline constexpr auto base_settings =
    settings()
        .dynamic_entity_limit(64)
        .resources(resources(resource<world_rng>, resource<tally>))
        .allow_inner_parallelism()
        .component_signatures(components)
        .system_signatures(systems);

// A small deterministic generator for the input (not the world's).
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

// Frame `frame`'s input and systems: a few creates, kills (their indices
// are reused by later creates), adds and removes, then every system.
template <typename Context>
void run_frame(Context& ctx, std::uint64_t frame) {
  ctx.step([frame](auto& proxy) {
    std::vector<entity_id> ids;
    proxy.for_each([&](entity_id e, const position&) { ids.push_back(e); });
    const std::uint64_t r = mix(frame);
    for (std::uint64_t i = 0; i < 1 + r % 4; ++i) {
      const entity_id e = proxy.create_entity();
      const float f = static_cast<float>((r >> (8 * i)) % 50);
      proxy.add_component(ct::position, e, f, -f);
      proxy.add_component(ct::velocity, e, f / 10, 0.5f);
      if ((r >> i) & 1) proxy.add_component(ct::spin, e, f, std::uint8_t{1});
      if ((r >> i) & 2) proxy.add_component(ct::heat, e, f / 40.0);
      if ((r >> i) & 4) proxy.add_component(ct::health, e, int(f) % 6 + 2);
      if ((r >> i) & 8)
        proxy.add_component(ct::label, e, "e" + std::to_string(f));
    }
    if (!ids.empty()) {
      const entity_id a = ids[(r >> 20) % ids.size()];
      const entity_id b = ids[(r >> 30) % ids.size()];
      const entity_id c = ids[(r >> 40) % ids.size()];
      if (frame % 3 == 0) proxy.kill_entity(a);
      if (frame % 5 == 0) proxy.remove_component(ct::velocity, b);
      if (frame % 4 == 1) proxy.add_component(ct::marked, c);
      if (frame % 6 == 2) proxy.remove_component(ct::label, c);
      if (frame % 7 == 3) proxy.add_component(ct::health, b, 3);
    }
    proxy.execute_systems()(execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

}  // namespace strata::snapshot_testing

#endif  // STRATA_CONTEXT_SNAPSHOT_TESTING_H_
