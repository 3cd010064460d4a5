#include "demos/particle_spawning.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "demos/canvas.h"
#include "demos/particle_components.h"

namespace strata::demos::particles {

std::uint64_t respawn_seed(std::uint64_t seed, std::uint32_t index,
                           std::uint64_t frame) {
  std::uint64_t state = seed ^ (std::uint64_t{index} << 32) ^ frame;
  splitmix64(state);
  return splitmix64(state);
}

namespace {

void add_glow(random_stream& rng, particle_params& p) {
  p.glowing = true;
  p.glow = {rng.uniform(10.f, 22.f), rng.uniform(0.25f, 0.6f),
            hsv_to_rgb(rng.uniform(20.f, 60.f), 0.55f, 1.f)};
}

}  // namespace

particle_params initial_params(random_stream& rng, const world& w) {
  particle_params p;
  p.radius = rng.uniform(kMinRadius, kMaxRadius);
  p.position = {rng.uniform(p.radius, w.width - p.radius),
                rng.uniform(p.radius, w.height - p.radius)};
  const float angle = rng.uniform(0.f, 6.2831853f);
  const float speed = rng.uniform(10.f, 60.f);
  p.velocity = {speed * std::cos(angle), speed * std::sin(angle)};
  p.acceleration = {0.f, rng.uniform(-4.f, 12.f)};
  p.hue = rng.uniform(0.f, 360.f);
  if (rng.uniform() < 0.3f) p.lifetime = rng.uniform(0.2f, 8.f);
  if (rng.uniform() < 0.02f) add_glow(rng, p);
  return p;
}

particle_params respawn_params(std::uint64_t seed, const world& w) {
  random_stream rng(seed);
  particle_params p;
  p.radius = rng.uniform(kMinRadius, kMaxRadius);
  p.position = {w.width / 2 + rng.uniform(-0.02f, 0.02f) * w.width,
                w.height - p.radius - rng.uniform(0.f, 4.f)};
  p.velocity = {rng.uniform(-70.f, 70.f),
                -rng.uniform(0.45f, 0.75f) * w.height};
  p.acceleration = {0.f, rng.uniform(-4.f, 12.f)};
  p.hue = rng.uniform(0.f, 60.f);  // warm sparks out of the fountain
  p.lifetime = rng.uniform(2.f, 8.f);
  if (rng.uniform() < 0.08f) add_glow(rng, p);
  return p;
}

}  // namespace strata::demos::particles
