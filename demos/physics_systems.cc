#include "demos/physics_systems.h"

#include <algorithm>
#include <cmath>

#include "demos/particle_components.h"

namespace strata::demos::particles {
namespace {

// Pushing apart must not leave the world keep_in_bounds already enforced.
void clamp_to_world(components::position& p, float r, const world& w) {
  p.x = std::clamp(p.x, r, w.width - r);
  p.y = std::clamp(p.y, r, w.height - r);
}

}  // namespace

void resolve_contact(components::position& pa, components::velocity& va,
                     float ra, components::position& pb,
                     components::velocity& vb, float rb, const world& w) {
  float dx = pb.x - pa.x;
  float dy = pb.y - pa.y;
  float d = std::sqrt(dx * dx + dy * dy);
  const float overlap = ra + rb - d;
  if (overlap <= 0) return;  // an earlier contact already separated them
  if (d < 1e-6f) {
    dx = 1.f;  // coincident: any fixed normal will do
    dy = 0.f;
    d = 1.f;
  }
  const float nx = dx / d;
  const float ny = dy / d;
  const float ma = ra * ra;  // mass ~ area
  const float mb = rb * rb;
  const float share_a = mb / (ma + mb);
  const float share_b = ma / (ma + mb);
  pa.x -= nx * overlap * share_a;
  pa.y -= ny * overlap * share_a;
  pb.x += nx * overlap * share_b;
  pb.y += ny * overlap * share_b;
  clamp_to_world(pa, ra, w);
  clamp_to_world(pb, rb, w);
  const float approach = (vb.x - va.x) * nx + (vb.y - va.y) * ny;
  if (approach < 0) {
    const float j = -(1 + kContactRestitution) * approach / (1 / ma + 1 / mb);
    va.x -= j / ma * nx;
    va.y -= j / ma * ny;
    vb.x += j / mb * nx;
    vb.y += j / mb * ny;
  }
}

}  // namespace strata::demos::particles
