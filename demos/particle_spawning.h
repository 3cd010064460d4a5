// Spawning particles (//demos:particles): deterministic randomness, the
// parameters of a new particle, and the entity that carries them.
//
//   random_stream rng(seed);
//   spawn(proxy, initial_params(rng, w));                       // step 0
//   spawn(proxy, respawn_params(respawn_seed(seed, index, frame), w));
//
// Randomness is splitmix64, the same on every platform (the standard
// distributions are not). A respawn's seed is a function of the run's seed,
// the dead particle's entity index and the frame only, so a respawn does not
// depend on which thread saw the particle die: that is how respawns keep the
// determinism contract of particle_simulation.h.
//
// spawn() takes any critical proxy: the step proxy for the initial
// population, the defer proxy for respawns (context/step_proxy.h).
// Everything here is a pure function of its arguments except random_stream,
// which is a value each user owns.
#ifndef STRATA_DEMOS_PARTICLE_SPAWNING_H_
#define STRATA_DEMOS_PARTICLE_SPAWNING_H_

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "demos/canvas.h"
#include "demos/particle_components.h"
#include "entity/entity_id.h"

namespace strata::demos::particles {

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class random_stream {
 public:
  explicit random_stream(std::uint64_t seed) : state_(seed) {}
  // Uniform in [0, 1).
  float uniform() {
    return static_cast<float>(splitmix64(state_) >> 40) * 0x1p-24f;
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }

 private:
  std::uint64_t state_;
};

// A seed for one respawn: a function of the run's seed, the dead particle's
// entity index and the frame, so it does not matter which thread saw it die.
std::uint64_t respawn_seed(std::uint64_t seed, std::uint32_t index,
                           std::uint64_t frame);

// Inline: cycle_color calls it for every particle in every frame.
inline rgb8 hsv_to_rgb(float hue_degrees, float saturation, float value) {
  const float h = std::fmod(hue_degrees, 360.f) / 60.f;
  const float c = value * saturation;
  const float x = c * (1 - std::fabs(std::fmod(h, 2.f) - 1));
  float r = 0, g = 0, b = 0;
  switch (static_cast<int>(h)) {
    case 0:
      r = c, g = x;
      break;
    case 1:
      r = x, g = c;
      break;
    case 2:
      g = c, b = x;
      break;
    case 3:
      g = x, b = c;
      break;
    case 4:
      r = x, b = c;
      break;
    default:
      r = c, b = x;
      break;
  }
  const float m = value - c;
  auto byte = [](float v) {
    return static_cast<std::uint8_t>(
        std::lround(std::clamp(v, 0.f, 1.f) * 255));
  };
  return {byte(r + m), byte(g + m), byte(b + m)};
}

struct particle_params {
  components::position position;
  components::velocity velocity;
  components::acceleration acceleration;
  float radius = 0;
  float hue = 0;
  float lifetime = 0;  // <= 0: immortal
  bool glowing = false;
  components::glow glow{};
};

// The initial population: spread over the world, drifting.
particle_params initial_params(random_stream& rng, const world& w);

// A respawn: shot up from a fountain at the bottom center.
particle_params respawn_params(std::uint64_t seed, const world& w);

// Creates the particle's entity through a step or defer proxy.
template <typename CriticalProxy>
entity_id spawn(CriticalProxy& proxy, const particle_params& p) {
  const entity_id e = proxy.create_entity();
  proxy.add_component(ct::position, e, p.position);
  proxy.add_component(ct::velocity, e, p.velocity);
  proxy.add_component(ct::acceleration, e, p.acceleration);
  proxy.add_component(ct::circle, e, components::circle{p.radius});
  proxy.add_component(ct::color, e,
                      components::color{p.hue, hsv_to_rgb(p.hue, 0.65f, 1.f)});
  if (p.lifetime > 0) {
    proxy.add_component(ct::lifetime, e, components::lifetime{p.lifetime});
  }
  if (p.glowing) proxy.add_component(ct::glow, e, p.glow);
  return e;
}

}  // namespace strata::demos::particles

#endif  // STRATA_DEMOS_PARTICLE_SPAWNING_H_
