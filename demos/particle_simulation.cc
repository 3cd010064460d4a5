#include "demos/particle_simulation.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "demos/canvas.h"
#include "strata.h"

namespace strata::demos {
namespace {

// ---------------------------------------------------------------------------
// World constants. One world unit is one pixel of the image.

constexpr float kDt = 1.f / 60.f;
constexpr float kMinRadius = 1.25f;
constexpr float kMaxRadius = 3.f;
// A grid cell at least as wide as the largest contact distance, so every
// contact of a particle lies in its own or a neighboring cell.
constexpr float kCellSize = 2 * kMaxRadius;
// Bounds a step's travel (6.7 px, about one grid cell), so the one-cell
// neighborhood search keeps up with the fastest particles.
constexpr float kMaxSpeed = 400.f;
constexpr float kWallRestitution = 0.6f;
constexpr float kContactRestitution = 0.8f;

struct world {
  float width = 0;
  float height = 0;
  std::uint64_t seed = 0;
};

// ---------------------------------------------------------------------------
// Deterministic randomness: splitmix64, the same on every platform (the
// standard distributions are not).

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
                           std::uint64_t frame) {
  std::uint64_t state = seed ^ (std::uint64_t{index} << 32) ^ frame;
  splitmix64(state);
  return splitmix64(state);
}

rgb8 hsv_to_rgb(float hue_degrees, float saturation, float value) {
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

// ---------------------------------------------------------------------------
// Components. `name` is for the DOT graph.

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

// ---------------------------------------------------------------------------
// Spawning: the same code for the initial population (step proxy) and for
// respawns (defer proxy); both are critical proxies.

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

void add_glow(random_stream& rng, particle_params& p) {
  p.glowing = true;
  p.glow = {rng.uniform(10.f, 22.f), rng.uniform(0.25f, 0.6f),
            hsv_to_rgb(rng.uniform(20.f, 60.f), 0.55f, 1.f)};
}

// The initial population: spread over the world, drifting.
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

// A respawn: shot up from a fountain at the bottom center.
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

// ---------------------------------------------------------------------------
// Outputs.

struct cell_entry {
  std::uint32_t cell;
  entity_id id;
};
struct cell_entries {
  static constexpr std::string_view name = "cell entries";
  std::vector<cell_entry> items;
  void clear() { items.clear(); }
};

struct contact {
  entity_id a, b;  // a.index() < b.index()
};
struct contact_list {
  static constexpr std::string_view name = "contacts";
  std::vector<contact> items;
  void clear() { items.clear(); }
};

struct death_count {
  static constexpr std::string_view name = "death count";
  std::size_t deaths = 0;
};

struct sprite {
  float x, y, radius;
  rgb8 rgb;
};
struct sprite_list {
  static constexpr std::string_view name = "sprites";
  std::vector<sprite> items;
  void clear() { items.clear(); }
};

struct halo_sprite {
  float x, y, radius, intensity;
  rgb8 rgb;
};
struct halo_list {
  static constexpr std::string_view name = "halos";
  std::vector<halo_sprite> items;
  void clear() { items.clear(); }
};

// ---------------------------------------------------------------------------
// The uniform grid spatial_partition builds and collision_detection reads.

class spatial_grid {
 public:
  explicit spatial_grid(const world& w)
      : columns_(std::max(1, static_cast<int>(std::ceil(w.width / kCellSize)))),
        rows_(std::max(1, static_cast<int>(std::ceil(w.height / kCellSize)))),
        start_(std::size_t(columns_) * rows_ + 1, 0) {}

  int column(float x) const {
    return std::clamp(static_cast<int>(x / kCellSize), 0, columns_ - 1);
  }
  int row(float y) const {
    return std::clamp(static_cast<int>(y / kCellSize), 0, rows_ - 1);
  }
  std::uint32_t cell_of(float x, float y) const {
    return static_cast<std::uint32_t>(row(y) * columns_ + column(x));
  }
  int columns() const { return columns_; }
  int rows() const { return rows_; }
  std::span<const entity_id> cell(int column, int row) const {
    const std::size_t c = std::size_t(row) * columns_ + column;
    return {entities_.data() + start_[c], entities_.data() + start_[c + 1]};
  }

  // Rebuilds the grid from every subtask's cell entries (a stable counting
  // sort, visiting outputs in subtask order): each cell lists its entities
  // in subscription order however the subtasks were split.
  template <typename Instance>
  void rebuild(Instance& instance) {
    std::fill(start_.begin(), start_.end(), 0);
    std::size_t total = 0;
    instance.for_outputs([&](auto&, const cell_entries& out) {
      for (const cell_entry& e : out.items) ++start_[e.cell + 1];
      total += out.items.size();
    });
    for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    entities_.resize(total);
    cursor_.assign(start_.begin(), start_.end() - 1);
    instance.for_outputs([&](auto&, const cell_entries& out) {
      for (const cell_entry& e : out.items) entities_[cursor_[e.cell]++] = e.id;
    });
  }

 private:
  int columns_;
  int rows_;
  std::vector<std::uint32_t> start_;  // CSR offsets, one past each cell
  std::vector<std::uint32_t> cursor_;
  std::vector<entity_id> entities_;
};

// ---------------------------------------------------------------------------
// Systems. Those with `integrates` take the time step (see the execution
// adapters in run()); the others only their data.

namespace systems {

// v += (own push + vortex field) dt, with drag and a speed limit.
struct acceleration {
  static constexpr std::string_view name = "acceleration";
  static constexpr bool integrates = true;
  explicit acceleration(world w) : world_(w) {}

  template <typename Data>
  void process(float dt, Data& data) {
    const float cx = world_.width / 2;
    const float cy = world_.height / 2;
    const float scale = std::min(world_.width, world_.height);
    data.for_entities([&](entity_id e) {
      const auto& p = data.get(ct::position, e);
      const auto& a = data.get(ct::acceleration, e);
      auto& v = data.get(ct::velocity, e);
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
  void process(float dt, Data& data) {
    data.for_entities([&](entity_id e) {
      const auto& v = data.get(ct::velocity, e);
      auto& p = data.get(ct::position, e);
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
  void process(Data& data) {
    data.for_entities([&](entity_id e) {
      const float r = data.get(ct::circle, e).radius;
      auto& p = data.get(ct::position, e);
      auto& v = data.get(ct::velocity, e);
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
// adapter in run() merges the lists into the grid after all subtasks ran.
struct spatial_partition {
  static constexpr std::string_view name = "spatial_partition";
  explicit spatial_partition(world w) : grid_(w) {}

  template <typename Data>
  void process(Data& data) {
    auto& out = data.output().items;
    data.for_entities([&](entity_id e) {
      const auto& p = data.get(ct::position, e);
      out.push_back({grid_.cell_of(p.x, p.y), e});
    });
  }

  template <typename Instance>
  void merge_outputs(Instance& instance) {
    grid_.rebuild(instance);
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
  void process(Data& data) {
    // The grid lives in the spatial_partition system; for_previous_outputs
    // is how a system reaches a dependency (and proves it is one).
    const spatial_grid* grid = nullptr;
    data.for_previous_outputs(strata::tag<systems::spatial_partition>,
                              [&](const spatial_partition& sp,
                                  const cell_entries&) { grid = &sp.grid(); });
    auto& out = data.output().items;
    data.for_entities([&](entity_id e) {
      const auto& p = data.get(ct::position, e);
      const float r = data.get(ct::circle, e).radius;
      const int column = grid->column(p.x);
      const int row = grid->row(p.y);
      for (int y = std::max(row - 1, 0);
           y <= std::min(row + 1, grid->rows() - 1); ++y) {
        for (int x = std::max(column - 1, 0);
             x <= std::min(column + 1, grid->columns() - 1); ++x) {
          for (entity_id other : grid->cell(x, y)) {
            if (other.index() <= e.index()) continue;
            const auto& q = data.get(ct::position, other);
            const float reach = r + data.get(ct::circle, other).radius;
            const float dx = q.x - p.x;
            const float dy = q.y - p.y;
            if (dx * dx + dy * dy < reach * reach) out.push_back({e, other});
          }
        }
      }
    });
  }
};

// Pushes overlapping pairs apart and exchanges momentum along the normal.
// One subtask (ips::none) applying contacts sorted by entity indices: the
// result is the same for any split of collision_detection.
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
    for (const contact& c : contacts_) resolve(data, c);
  }

 private:
  template <typename Data>
  void resolve(Data& data, const contact& c) {
    auto& pa = data.get(ct::position, c.a);
    auto& pb = data.get(ct::position, c.b);
    const float ra = data.get(ct::circle, c.a).radius;
    const float rb = data.get(ct::circle, c.b).radius;
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
    clamp(pa, ra);
    clamp(pb, rb);
    auto& va = data.get(ct::velocity, c.a);
    auto& vb = data.get(ct::velocity, c.b);
    const float approach = (vb.x - va.x) * nx + (vb.y - va.y) * ny;
    if (approach < 0) {
      const float j = -(1 + kContactRestitution) * approach / (1 / ma + 1 / mb);
      va.x -= j / ma * nx;
      va.y -= j / ma * ny;
      vb.x += j / mb * nx;
      vb.y += j / mb * ny;
    }
  }
  // Pushing apart must not leave the world keep_in_bounds already enforced.
  void clamp(components::position& p, float r) const {
    p.x = std::clamp(p.x, r, world_.width - r);
    p.y = std::clamp(p.y, r, world_.height - r);
  }

  world world_;
  std::vector<contact> contacts_;  // reused: no allocation in steady state
};

// Slowly rotates each particle's hue; small particles faster.
struct cycle_color {
  static constexpr std::string_view name = "cycle_color";
  static constexpr bool integrates = true;

  template <typename Data>
  void process(float dt, Data& data) {
    data.for_entities([&](entity_id e) {
      auto& c = data.get(ct::color, e);
      const float r = data.get(ct::circle, e).radius;
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
  void process(float dt, Data& data) {
    data.for_entities([&](entity_id e) {
      auto& l = data.get(ct::lifetime, e);
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
  std::size_t respawns_ = 0;
};

// One sprite per particle; the step composes the sprites into an image.
struct render {
  static constexpr std::string_view name = "render";

  template <typename Data>
  void process(Data& data) {
    auto& out = data.output().items;
    data.for_entities([&](entity_id e) {
      const auto& p = data.get(ct::position, e);
      out.push_back({p.x, p.y, data.get(ct::circle, e).radius,
                     data.get(ct::color, e).rgb});
    });
  }
};

// A halo around each glowing particle.
struct halo {
  static constexpr std::string_view name = "halo";

  template <typename Data>
  void process(Data& data) {
    auto& out = data.output().items;
    data.for_entities([&](entity_id e) {
      const auto& p = data.get(ct::position, e);
      const auto& g = data.get(ct::glow, e);
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

// ---------------------------------------------------------------------------
// Signatures.

// SoA for the physics (each system streams the arrays it needs), AoS for
// what is read together (color and circle), a packed sparse set for the
// ~30% mortal particles and a hash map for the ~2% that glow.
constexpr auto kComponents = strata::component_signatures(
    strata::cs::make(ct::position, ct::velocity, ct::acceleration),
    strata::cs::make(ct::color, ct::circle).aos(),
    strata::cs::make(ct::lifetime).sparse(),
    strata::cs::make(ct::glow).hash_map());

// Every writer of a component is ordered against its other users (the
// compile-time race check insists). cycle_color and life touch nothing the
// physics chain writes, so they run alongside it.
constexpr auto kSystems = strata::system_signatures(
    strata::ss::make(st::acceleration)
        .read(ct::acceleration, ct::position)
        .write(ct::velocity)
        .parallelism(strata::ips::split_evenly_per_core()),
    strata::ss::make(st::velocity)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::acceleration)
        .parallelism(strata::ipc::none_below_threshold(
            2048, strata::ips::split_evenly_per_core())),
    strata::ss::make(st::keep_in_bounds)
        .read(ct::circle)
        .write(ct::position, ct::velocity)
        .dependencies(st::velocity)
        .parallelism(strata::ipc::fixed_threshold(
            16384, strata::ips::split_evenly_per_core(),
            strata::ips::split_every_n(4096))),
    strata::ss::make(st::spatial_partition)
        .read(ct::position, ct::circle)
        .dependencies(st::keep_in_bounds)
        .parallelism(strata::ips::split_evenly_per_core())
        .output<cell_entries>(),
    strata::ss::make(st::collision_detection)
        .read(ct::position, ct::circle)
        .dependencies(st::spatial_partition)
        .parallelism(strata::ips::split_every_n(2048))
        .output<contact_list>(),
    strata::ss::make(st::solve_contacts)
        .read(ct::circle)
        .write(ct::position, ct::velocity)
        .dependencies(st::collision_detection)
        .parallelism(strata::ips::none()),
    strata::ss::make(st::cycle_color)
        .read(ct::circle)
        .write(ct::color)
        .parallelism(strata::ips::split_evenly(2)),
    strata::ss::make(st::life)
        .write(ct::lifetime)
        .parallelism(strata::ipc::none_below_threshold(
            1024, strata::ips::split_evenly_per_core()))
        .output<death_count>(),
    strata::ss::make(st::render)
        .read(ct::position, ct::circle, ct::color)
        .dependencies(st::solve_contacts, st::cycle_color)
        .parallelism(strata::ips::split_evenly_per_core())
        .output<sprite_list>(),
    strata::ss::make(st::halo)
        .read(ct::position, ct::glow)
        .dependencies(st::solve_contacts)
        .output<halo_list>());

using system_list = std::remove_cvref_t<decltype(kSystems)>;
constexpr std::size_t kSystemCount = system_list::count;

template <typename Scheduler>
auto make_settings(Scheduler scheduler, const simulation_config& config) {
  return strata::settings()
      .dynamic_entity_limit(config.particles + config.particles / 8 + 64)
      .allow_inner_parallelism()
      .component_signatures(kComponents)
      .system_signatures(kSystems)
      .scheduler(scheduler)
      .threads(config.threads)
      .trace();
}

// ---------------------------------------------------------------------------
// The run.

std::uint64_t fnv1a(std::uint64_t hash, std::uint32_t word) {
  for (int i = 0; i < 4; ++i) {
    hash ^= (word >> (8 * i)) & 0xFF;
    hash *= 0x100000001B3ull;
  }
  return hash;
}

std::uint64_t hash_state(const std::vector<particle_state>& particles) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (const particle_state& p : particles) {
    h = fnv1a(h, p.index);
    for (float f : {p.x, p.y, p.vx, p.vy, p.radius}) {
      h = fnv1a(h, std::bit_cast<std::uint32_t>(f));
    }
    h = fnv1a(h, (p.mortal ? 1u : 0u) | (p.glowing ? 2u : 0u));
  }
  return h;
}

template <typename StepProxy>
void compose_image(StepProxy& proxy, canvas& image) {
  image.clear();
  proxy.for_system_outputs(st::render, [&](auto&, const sprite_list& out) {
    for (const sprite& s : out.items)
      image.fill_circle(s.x, s.y, s.radius, s.rgb);
  });
  proxy.for_system_outputs(st::halo, [&](auto&, const halo_list& out) {
    for (const halo_sprite& h : out.items) {
      image.add_glow(h.x, h.y, h.radius, h.intensity, h.rgb);
    }
  });
}

template <typename StepProxy>
std::vector<particle_state> snapshot(StepProxy& proxy) {
  std::vector<particle_state> particles;
  for (entity_id e : proxy.instance(st::render).subscribed()) {
    const auto& p = proxy.get_component(ct::position, e);
    const auto& v = proxy.get_component(ct::velocity, e);
    particles.push_back({e.index(), p.x, p.y, v.x, v.y,
                         proxy.get_component(ct::circle, e).radius,
                         proxy.has_component(ct::lifetime, e),
                         proxy.has_component(ct::glow, e)});
  }
  std::sort(particles.begin(), particles.end(),
            [](const particle_state& a, const particle_state& b) {
              return a.index < b.index;
            });
  return particles;
}

template <typename StepProxy, std::size_t... I>
void count_subtasks(StepProxy& proxy, std::vector<system_stats>& stats,
                    std::index_sequence<I...>) {
  ((stats[I].subtasks_total += static_cast<double>(
        proxy.instance(strata::tag<typename system_list::template system_at<I>>)
            .subtask_count())),
   ...);
}

double milliseconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

template <typename Settings>
absl::StatusOr<simulation_result> run(const Settings& settings,
                                      const simulation_config& config,
                                      const progress_callback& on_frame) {
  using clock = std::chrono::steady_clock;
  const world w{static_cast<float>(config.width),
                static_cast<float>(config.height), config.seed};
  auto ctx = strata::make_context(
      settings, strata::system_arguments(st::acceleration, w),
      strata::system_arguments(st::keep_in_bounds, w),
      strata::system_arguments(st::spatial_partition, w),
      strata::system_arguments(st::solve_contacts, w),
      strata::system_arguments(st::life, w));

  simulation_result result;
  result.threads = ctx.thread_count();
  for (const std::string& name : system_names()) {
    result.systems.push_back({name, {}, 0});
    result.systems.back().run_ms.reserve(config.frames);
  }
  result.frame_ms.reserve(config.frames);
  result.refresh_ms.reserve(config.frames);

  if (!config.frames_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(config.frames_dir, error);
    if (error) {
      return absl::UnavailableError(absl::StrCat("cannot create --frames_dir ",
                                                 config.frames_dir, ": ",
                                                 error.message()));
    }
  }
  const bool any_image = !config.png_path.empty() || !config.frames_dir.empty();
  canvas image(any_image ? config.width : 1, any_image ? config.height : 1);

  // The initial population: a seeded generator is fine here, the step
  // function runs on this thread only.
  ctx.step([&](auto& proxy) {
    random_stream rng(config.seed);
    for (std::size_t i = 0; i < config.particles; ++i) {
      spawn(proxy, initial_params(rng, w));
    }
  });

  // Only system and refresh events are needed for the timing table; without
  // --trace the log is drained every frame so long runs stay small.
  const bool keep_trace = !config.trace_path.empty();
  std::size_t trace_cursor = 0;
  auto drain_trace = [&] {
    const auto& events = ctx.trace().events();
    for (; trace_cursor < events.size(); ++trace_cursor) {
      const strata::trace_event& e = events[trace_cursor];
      const double ms = static_cast<double>(e.end_ns - e.start_ns) / 1e6;
      if (e.what == strata::trace_event::kind::system) {
        result.systems[e.system_id].run_ms.push_back(ms);
      } else if (e.what == strata::trace_event::kind::refresh &&
                 e.step > 0) {  // step 0 spawned the population
        result.refresh_ms.push_back(ms);
      }
    }
    if (!keep_trace) {
      ctx.trace().clear();
      trace_cursor = 0;
    }
  };
  drain_trace();

  const clock::time_point start = clock::now();
  for (std::size_t frame = 1; frame <= config.frames; ++frame) {
    const bool final_image = frame == config.frames && !config.png_path.empty();
    const bool periodic_image =
        !config.frames_dir.empty() && frame % config.frame_every == 0;
    clock::duration compose_time{};
    const clock::time_point step_start = clock::now();
    ctx.step([&](auto& proxy) {
      proxy.system(st::life).begin_frame(frame);
      proxy.execute_systems()(
          strata::sea::t(st::spatial_partition)
              .detailed_instance([](auto& instance, auto& executor) {
                executor.for_subtasks(
                    [](auto& system, auto& data) { system.process(data); });
                // All subtasks are done: merge their outputs in order,
                // before any dependent starts.
                instance.system().merge_outputs(instance);
              }),
          strata::sea::matching([](auto system) {
            return requires { strata::tag_type<decltype(system)>::integrates; };
          }).for_subtasks([](auto& system, auto& data) {
            system.process(kDt, data);
          }),
          strata::sea::all().for_subtasks(
              [](auto& system, auto& data) { system.process(data); }));
      count_subtasks(proxy, result.systems,
                     std::make_index_sequence<kSystemCount>{});
      proxy.for_system_outputs(st::life, [&](auto&, const death_count& out) {
        result.deaths += out.deaths;
      });
      proxy.for_system_outputs(st::collision_detection,
                               [&](auto&, const contact_list& out) {
                                 result.contacts += out.items.size();
                               });
      if (final_image || periodic_image) {
        const clock::time_point t = clock::now();
        compose_image(proxy, image);
        compose_time = clock::now() - t;
      }
    });
    const clock::time_point step_end = clock::now();
    result.frame_ms.push_back(
        milliseconds(step_end - step_start - compose_time));
    drain_trace();

    // PNG encoding is outside the step: it is I/O, not simulation.
    if (periodic_image) {
      const std::string path =
          absl::StrFormat("%s/frame_%06d.png", config.frames_dir, frame);
      if (absl::Status s = image.write_png(path); !s.ok()) return s;
      ++result.images_written;
    }
    if (final_image) {
      if (absl::Status s = image.write_png(config.png_path); !s.ok()) return s;
      ++result.images_written;
    }
    if (final_image || periodic_image) {
      result.compose_ms.push_back(
          milliseconds(compose_time + (clock::now() - step_end)));
    }
    if (on_frame) {
      on_frame({frame, config.frames, ctx.entity_count(),
                std::chrono::duration<double>(clock::now() - start).count()});
    }
  }
  result.wall_seconds =
      std::chrono::duration<double>(clock::now() - start).count();
  result.respawns = [&] {
    std::size_t n = 0;
    ctx.step([&](auto& proxy) {
      n = proxy.system(st::life).respawns();
      result.particles = snapshot(proxy);
    });
    return n;
  }();
  result.state_hash = hash_state(result.particles);

  if (keep_trace) {
    std::ofstream out(config.trace_path, std::ios::trunc);
    ctx.write_trace_json(out);
    out.close();
    if (!out) {
      return absl::UnavailableError(
          absl::StrCat("cannot write --trace file ", config.trace_path));
    }
  }
  return result;
}

// ---------------------------------------------------------------------------
// DOT.

template <typename List>
std::string component_names(List) {
  std::vector<std::string> names;
  strata::for_each_type(
      List{}, [&](auto t) { names.emplace_back(decltype(t)::type::name); });
  return absl::StrJoin(names, ", ");
}

std::string describe(const strata::ips::none_t&) { return "none"; }
std::string describe(const strata::ips::split_evenly_t& s) {
  return absl::StrCat("split_evenly(", s.count, ")");
}
std::string describe(const strata::ips::split_evenly_per_core_t&) {
  return "split_evenly_per_core";
}
std::string describe(const strata::ips::split_every_n_t& s) {
  return absl::StrCat("split_every_n(", s.per_subtask, ")");
}
std::string describe(const strata::default_parallelism&) {
  return "context default";
}
template <typename Above, typename Below>
std::string describe(const strata::ipc::fixed_threshold_t<Above, Below>& s) {
  return absl::StrCat("fixed_threshold(", s.threshold, ", ", describe(s.above),
                      ", ", describe(s.below), ")");
}

template <std::size_t I>
void dot_node(std::string& dot) {
  using signature = typename system_list::template signature_at<I>;
  using system = typename signature::system_type;
  std::string label = std::string(system::name);
  if constexpr (strata::size_v < typename signature::read_types >> 0) {
    absl::StrAppend(&label, "\\nreads: ",
                    component_names(typename signature::read_types{}));
  }
  if constexpr (strata::size_v < typename signature::write_types >> 0) {
    absl::StrAppend(&label, "\\nwrites: ",
                    component_names(typename signature::write_types{}));
  }
  if constexpr (signature::has_output) {
    absl::StrAppend(&label,
                    "\\noutput: ", std::string(signature::output_type::name));
  }
  absl::StrAppend(
      &label, "\\nsplit: ",
      describe(kSystems.template signature<I>().parallelism_strategy()));
  absl::StrAppendFormat(&dot, "  %s [label=\"%s\"%s];\n",
                        std::string(system::name), label,
                        signature::has_output ? ", fillcolor=\"#fff3d6\"" : "");
}

template <std::size_t I>
void dot_edges(std::string& dot, const std::vector<std::string>& names) {
  for (std::size_t dependency : system_list::template dependencies_of<I>) {
    absl::StrAppendFormat(&dot, "  %s -> %s;\n", names[dependency], names[I]);
  }
}

}  // namespace

std::vector<std::string> system_names() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::vector<std::string>{
        std::string(system_list::template system_at<I>::name)...};
  }
  (std::make_index_sequence<kSystemCount>{});
}

std::string system_graph_dot() {
  std::string dot =
      "// The system DAG of //demos:particles (an edge points from a system "
      "to one that depends on it).\n"
      "digraph strata_particles {\n"
      "  rankdir=LR;\n"
      "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#e8eefc\", "
      "fontname=\"Helvetica\", fontsize=10];\n";
  const std::vector<std::string> names = system_names();
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (dot_node<I>(dot), ...);
    (dot_edges<I>(dot, names), ...);
  }
  (std::make_index_sequence<kSystemCount>{});
  dot += "}\n";
  return dot;
}

absl::StatusOr<simulation_result> run_particle_simulation(
    const simulation_config& config, const progress_callback& on_frame) {
  if (config.scheduler == scheduler_kind::sequential) {
    return run(make_settings(strata::scheduler::sequential, config), config,
               on_frame);
  }
  return run(make_settings(strata::scheduler::atomic_counter, config), config,
             on_frame);
}

}  // namespace strata::demos
