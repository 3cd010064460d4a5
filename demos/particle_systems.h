// The ten systems of //demos:particles and their tags (`st::x`): the
// physics chain is in physics_systems.h, colors, lifetimes and rendering
// here; their outputs are in particle_outputs.h.
//
// Each system is a type with a `name` (the trace, the timing table and the
// system graph show it) and a `process` member the execution adapters of
// particle_simulation.cc call: `process(dt, data)` for the systems marked
// `integrates` (they take the time step), `process(data)` for the others.
// What each reads, writes, depends on and outputs is declared in
// particle_signatures.h; the compile-time race check holds them to it.
//
//   acceleration -> velocity -> keep_in_bounds -> spatial_partition
//     -> collision_detection -> solve_contacts -> render, halo
//   cycle_color -> render        life (independent)
//
// Determinism (the contract of particle_simulation.h): every per-entity
// update depends only on that entity; spatial_partition's per-subtask cell
// entries are merged in subtask order into a grid whose cells keep
// subscription order (demos/spatial_grid.h); collision_detection reports
// each pair once, from the particle with the lower entity index; the one
// solve_contacts subtask applies the contacts sorted by entity indices; and
// life's respawns are seeded by (seed, entity index, frame).
//
// Thread-safety: subtasks of one system run concurrently and touch only
// their entities and their own output (they receive the system as const:
// context/data_proxy.h); the systems' own members are written only outside
// subtasks (spatial_partition's grid by merge_outputs, life's
// frame by begin_frame and its respawn count by deferred functions, which
// the refresh runs sequentially).
#ifndef STRATA_DEMOS_PARTICLE_SYSTEMS_H_
#define STRATA_DEMOS_PARTICLE_SYSTEMS_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "demos/canvas.h"
#include "demos/particle_components.h"
#include "demos/particle_outputs.h"
#include "demos/particle_spawning.h"
#include "demos/physics_systems.h"
#include "entity/entity_id.h"
#include "meta/tag.h"

namespace strata::demos::particles {

namespace systems {

// Slowly rotates each particle's hue; small particles faster.
struct cycle_color {
  static constexpr std::string_view name = "cycle_color";
  static constexpr bool integrates = true;

  template <typename Data>
  void process(float dt, Data& data) const {
    data.for_each([dt](components::color& c, const components::circle& body) {
      const float r = body.radius;
      c.hue = std::fmod(c.hue + (70.f - 12.f * r) * dt, 360.f);
      c.rgb = hsv_to_rgb(c.hue, 0.65f, 1.f);
    });
  }
};

// Ages mortal particles; kills the expired ones and defers a respawn from
// the fountain. Deaths go to the output (summed by the step); respawns are
// counted by the deferred functions, which run sequentially in the refresh.
struct life {
  static constexpr std::string_view name = "life";
  static constexpr bool integrates = true;
  explicit life(world w) : world_(w) {}

  // Called by the step before the systems run (sequential).
  void begin_frame(std::uint64_t frame) { frame_ = frame; }
  std::size_t respawns() const { return respawns_; }

  template <typename Data>
  void process(float dt, Data& data) const {
    data.for_each([&](entity_id e, components::lifetime& l) {
      l.remaining -= dt;
      if (l.remaining > 0) return;
      data.kill_entity(e);
      ++data.output().deaths;
      const particle_params params =
          respawn_params(respawn_seed(world_.seed, e.index(), frame_), world_);
      data.defer([this, params](auto& proxy) {
        spawn(proxy, params);
        ++respawns_;
      });
    });
  }

 private:
  world world_;
  std::uint64_t frame_ = 0;
  // Written only by the deferred functions, which the refresh runs
  // sequentially (process() runs on a const life: its subtasks share it).
  mutable std::size_t respawns_ = 0;
};

// One sprite per particle; the step composes the sprites into an image.
struct render {
  static constexpr std::string_view name = "render";

  template <typename Data>
  void process(Data& data) const {
    auto& out = data.output().items;
    data.for_entities([&](entity_id e) {
      const auto& p = data.read(ct::position, e);
      out.push_back({p.x, p.y, data.read(ct::circle, e).radius,
                     data.read(ct::color, e).rgb});
    });
  }
};

// A halo around each glowing particle.
struct halo {
  static constexpr std::string_view name = "halo";

  template <typename Data>
  void process(Data& data) const {
    auto& out = data.output().items;
    data.for_entities([&](entity_id e) {
      const auto& p = data.read(ct::position, e);
      const auto& g = data.read(ct::glow, e);
      out.push_back({p.x, p.y, g.radius, g.intensity, g.rgb});
    });
  }
};

}  // namespace systems

namespace st {
inline constexpr auto acceleration = strata::tag<systems::acceleration>;
inline constexpr auto velocity = strata::tag<systems::velocity>;
inline constexpr auto keep_in_bounds = strata::tag<systems::keep_in_bounds>;
inline constexpr auto spatial_partition =
    strata::tag<systems::spatial_partition>;
inline constexpr auto collision_detection =
    strata::tag<systems::collision_detection>;
inline constexpr auto solve_contacts = strata::tag<systems::solve_contacts>;
inline constexpr auto cycle_color = strata::tag<systems::cycle_color>;
inline constexpr auto life = strata::tag<systems::life>;
inline constexpr auto render = strata::tag<systems::render>;
inline constexpr auto halo = strata::tag<systems::halo>;
}  // namespace st

}  // namespace strata::demos::particles

#endif  // STRATA_DEMOS_PARTICLE_SYSTEMS_H_
