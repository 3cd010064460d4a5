// The outputs of the //demos:particles systems (per subtask; see
// particle_systems.h for who writes and who reads them).
//
// Each type has a `name` for the system graph (scheduler/dot.h). The list
// types have clear(), so the context keeps their capacity from run to run:
// a steady state allocates nothing.
//
// Plain data: each subtask owns its own output while it runs.
#ifndef STRATA_DEMOS_PARTICLE_OUTPUTS_H_
#define STRATA_DEMOS_PARTICLE_OUTPUTS_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "demos/canvas.h"
#include "demos/spatial_grid.h"
#include "entity/entity_id.h"

namespace strata::demos::particles {

// spatial_partition: (cell, entity) for each entity of its slice.
struct cell_entries {
  static constexpr std::string_view name = "cell entries";
  std::vector<cell_entry> items;
  void clear() { items.clear(); }
};

// collision_detection: the overlapping pairs it found.
struct contact {
  entity_id a, b;  // a.index() < b.index()
};
struct contact_list {
  static constexpr std::string_view name = "contacts";
  std::vector<contact> items;
  void clear() { items.clear(); }
};

// life: particles it killed.
struct death_count {
  static constexpr std::string_view name = "death count";
  std::size_t deaths = 0;
};

// render: one sprite per particle.
struct sprite {
  float x, y, radius;
  rgb8 rgb;
};
struct sprite_list {
  static constexpr std::string_view name = "sprites";
  std::vector<sprite> items;
  void clear() { items.clear(); }
};

// halo: one per glowing particle.
struct halo_sprite {
  float x, y, radius, intensity;
  rgb8 rgb;
};
struct halo_list {
  static constexpr std::string_view name = "halos";
  std::vector<halo_sprite> items;
  void clear() { items.clear(); }
};

}  // namespace strata::demos::particles

#endif  // STRATA_DEMOS_PARTICLE_OUTPUTS_H_
