// The physics systems of //demos:particles: integration, walls, the grid
// and collisions (the chain acceleration -> velocity -> keep_in_bounds ->
// spatial_partition -> collision_detection -> solve_contacts).
//
// See particle_systems.h for the whole set, the determinism argument and
// thread-safety; particle_signatures.h for what each reads and writes.
#ifndef STRATA_DEMOS_PHYSICS_SYSTEMS_H_
#define STRATA_DEMOS_PHYSICS_SYSTEMS_H_

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "demos/particle_components.h"
#include "demos/particle_outputs.h"
#include "demos/spatial_grid.h"
#include "entity/entity_id.h"
#include "meta/tag.h"

namespace strata::demos::particles {

// The physics of two overlapping particles (solve_contacts): pushes them
// apart along their normal in inverse proportion to their masses (~ area),
// keeps both inside the world, and exchanges momentum along the normal.
// Nothing happens when they no longer overlap.
void resolve_contact(components::position& pa, components::velocity& va,
                     float ra, components::position& pb,
                     components::velocity& vb, float rb, const world& w);

namespace systems {

// v += (own push + vortex field) dt, with drag and a speed limit.
struct acceleration {
  static constexpr std::string_view name = "acceleration";
  static constexpr bool integrates = true;
  explicit acceleration(world w) : world_(w) {}

  template <typename Data>
  void process(float dt, Data& data) const {
    const float cx = world_.width / 2;
    const float cy = world_.height / 2;
    const float scale = std::min(world_.width, world_.height);
    data.for_each([&](const components::position& p,
                      const components::acceleration& a,
                      components::velocity& v) {
      const float dx = p.x - cx;
      const float dy = p.y - cy;
      const float d = std::sqrt(dx * dx + dy * dy) + 1.f;
      // A galaxy: a spring toward the center (a pull growing with distance
      // allows a circular orbit at every radius) and a tangential push that
      // balances the drag at about the orbital speed, so the particles
      // settle into a rotating disc that collisions keep spreading.
      const float inward = 0.5f * d;
      const float tangential = 0.42f * std::min(d, 0.4f * scale);
      const float ax = a.x + (-dy * tangential - dx * inward) / d;
      const float ay = a.y + (dx * tangential - dy * inward) / d;
      const float drag = 1.f - 0.5f * dt;
      v.x = (v.x + ax * dt) * drag;
      v.y = (v.y + ay * dt) * drag;
      const float speed2 = v.x * v.x + v.y * v.y;
      if (speed2 > kMaxSpeed * kMaxSpeed) {
        const float k = kMaxSpeed / std::sqrt(speed2);
        v.x *= k;
        v.y *= k;
      }
    });
  }

 private:
  world world_;
};

// p += v dt.
struct velocity {
  static constexpr std::string_view name = "velocity";
  static constexpr bool integrates = true;

  template <typename Data>
  void process(float dt, Data& data) const {
    data.for_each([dt](components::position& p, const components::velocity& v) {
      p.x += v.x * dt;
      p.y += v.y * dt;
    });
  }
};

// Bounces particles off the walls.
struct keep_in_bounds {
  static constexpr std::string_view name = "keep_in_bounds";
  explicit keep_in_bounds(world w) : world_(w) {}

  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](const components::circle& c, components::position& p,
                      components::velocity& v) {
      const float r = c.radius;
      bounce(p.x, v.x, r, world_.width - r);
      bounce(p.y, v.y, r, world_.height - r);
    });
  }

 private:
  static void bounce(float& p, float& v, float lo, float hi) {
    if (p < lo) {
      p = lo;
      v = std::fabs(v) * kWallRestitution;
    } else if (p > hi) {
      p = hi;
      v = -std::fabs(v) * kWallRestitution;
    }
  }
  world world_;
};

// Each subtask lists (cell, entity) for its slice; the detailed_instance
// adapter in particle_simulation.cc calls merge_outputs after all subtasks
// ran, which rebuilds the grid from the lists in subtask order.
struct spatial_partition {
  static constexpr std::string_view name = "spatial_partition";
  explicit spatial_partition(world w) : grid_(w.width, w.height, kCellSize) {}

  template <typename Data>
  void process(Data& data) const {
    auto& out = data.output().items;
    data.for_each([&](entity_id e, const components::position& p) {
      out.push_back({grid_.cell_of(p.x, p.y), e});
    });
  }

  template <typename Instance>
  void merge_outputs(Instance& instance) {
    grid_.rebuild_from_lists([&](auto&& list) {
      instance.for_outputs([&](auto&, const cell_entries& out) {
        list(std::span<const cell_entry>(out.items));
      });
    });
  }
  const spatial_grid& grid() const { return grid_; }

 private:
  spatial_grid grid_;
};

// Finds overlapping pairs. Each pair is reported once, by the particle with
// the lower entity index, so the set of contacts does not depend on slices.
struct collision_detection {
  static constexpr std::string_view name = "collision_detection";

  template <typename Data>
  void process(Data& data) const {
    // The grid lives in the spatial_partition system; for_previous_outputs
    // is how a system reaches a dependency (and proves it is one).
    const spatial_grid* grid = nullptr;
    data.for_previous_outputs(strata::tag<systems::spatial_partition>,
                              [&](const spatial_partition& sp,
                                  const cell_entries&) { grid = &sp.grid(); });
    auto& out = data.output().items;
    data.for_entities([&](entity_id e) {
      const auto& p = data.read(ct::position, e);
      const float r = data.read(ct::circle, e).radius;
      grid->for_each_near(p.x, p.y, [&](entity_id other) {
        if (other.index() <= e.index()) return;
        const auto& q = data.read(ct::position, other);
        const float reach = r + data.read(ct::circle, other).radius;
        const float dx = q.x - p.x;
        const float dy = q.y - p.y;
        if (dx * dx + dy * dy < reach * reach) out.push_back({e, other});
      });
    });
  }
};

// Pushes overlapping pairs apart and exchanges momentum along the normal.
// One subtask (inner_parallelism::none) applying contacts sorted by entity
// indices: the result is the same for any split of collision_detection.
struct solve_contacts {
  static constexpr std::string_view name = "solve_contacts";
  explicit solve_contacts(world w) : world_(w) {}

  template <typename Data>
  void process(Data& data) {
    contacts_.clear();
    data.for_previous_outputs(
        strata::tag<systems::collision_detection>,
        [&](auto&, const contact_list& out) {
          contacts_.insert(contacts_.end(), out.items.begin(), out.items.end());
        });
    std::sort(contacts_.begin(), contacts_.end(),
              [](const contact& l, const contact& r) {
                return std::pair(l.a.index(), l.b.index()) <
                       std::pair(r.a.index(), r.b.index());
              });
    for (const contact& c : contacts_) {
      resolve_contact(data.get(ct::position, c.a), data.get(ct::velocity, c.a),
                      data.read(ct::circle, c.a).radius,
                      data.get(ct::position, c.b), data.get(ct::velocity, c.b),
                      data.read(ct::circle, c.b).radius, world_);
    }
  }

 private:
  world world_;
  std::vector<contact> contacts_;  // reused: no allocation in steady state
};

}  // namespace systems

}  // namespace strata::demos::particles

#endif  // STRATA_DEMOS_PHYSICS_SYSTEMS_H_
