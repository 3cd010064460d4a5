// The particles' world and components (//demos:particles).
//
// One world unit is one pixel of the image. A particle is an entity with
// position, velocity, acceleration (its own constant push), color and
// circle; ~30% also have a lifetime (a sparse component) and ~2% a glow (a
// hash-map component). `ct::x` are the component tags; each component's
// `name` labels it in the system graph (scheduler/dot.h).
//
// The constants bound the physics so that the collision broad phase stays
// exact: a grid cell is as wide as the largest contact distance, and the
// speed limit keeps a step's travel about one cell.
//
// Plain data: no invariants, nothing to synchronize.
#ifndef STRATA_DEMOS_PARTICLE_COMPONENTS_H_
#define STRATA_DEMOS_PARTICLE_COMPONENTS_H_

#include <cstdint>
#include <string_view>

#include "demos/canvas.h"
#include "meta/tag.h"

namespace strata::demos::particles {

inline constexpr float kDt = 1.f / 60.f;
inline constexpr float kMinRadius = 1.25f;
inline constexpr float kMaxRadius = 3.f;
// A grid cell at least as wide as the largest contact distance, so every
// contact of a particle lies in its own or a neighboring cell.
inline constexpr float kCellSize = 2 * kMaxRadius;
// Bounds a step's travel (6.7 px, about one grid cell), so the one-cell
// neighborhood search keeps up with the fastest particles.
inline constexpr float kMaxSpeed = 400.f;
inline constexpr float kWallRestitution = 0.6f;
inline constexpr float kContactRestitution = 0.8f;

struct world {
  float width = 0;
  float height = 0;
  std::uint64_t seed = 0;
};

namespace components {

struct position {
  static constexpr std::string_view name = "position";
  float x, y;
};
struct velocity {
  static constexpr std::string_view name = "velocity";
  float x, y;
};
// The particle's own constant push (buoyancy); the vortex field is added by
// the acceleration system.
struct acceleration {
  static constexpr std::string_view name = "acceleration";
  float x, y;
};
struct color {
  static constexpr std::string_view name = "color";
  float hue;  // degrees
  rgb8 rgb;
};
struct circle {
  static constexpr std::string_view name = "circle";
  float radius;
};
// Only mortal particles have one (a sparse component).
struct lifetime {
  static constexpr std::string_view name = "lifetime";
  float remaining;  // seconds
};
// Rare sparks (a hash-map component).
struct glow {
  static constexpr std::string_view name = "glow";
  float radius;
  float intensity;
  rgb8 rgb;
};

}  // namespace components

namespace ct {
inline constexpr auto position = strata::tag<components::position>;
inline constexpr auto velocity = strata::tag<components::velocity>;
inline constexpr auto acceleration = strata::tag<components::acceleration>;
inline constexpr auto color = strata::tag<components::color>;
inline constexpr auto circle = strata::tag<components::circle>;
inline constexpr auto lifetime = strata::tag<components::lifetime>;
inline constexpr auto glow = strata::tag<components::glow>;
}  // namespace ct

}  // namespace strata::demos::particles

#endif  // STRATA_DEMOS_PARTICLE_COMPONENTS_H_
