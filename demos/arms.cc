#include "demos/arms.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "strata.h"

namespace strata::demos {
namespace {

constexpr float kDt = 1.f / 60.f;
constexpr int kTrailFrames = 40;  // the particles' trails in the image

// Where an entity sits in its parent's frame: `distance` along direction
// `angle` (plus `x`, `y` for a hub), its own frame turned by `angle`, which
// grows by `spin` radians a second.
struct local_pose {
  float angle = 0, spin = 0, distance = 0, x = 0, y = 0;
};
// Rotation (cos, sin) and translation in the world.
struct world_pose {
  float c = 1, s = 0, x = 0, y = 0;
};
// How the entity is drawn.
struct look {
  float radius = 1;
  rgb8 color;
};
namespace ct {
inline constexpr auto local = tag<local_pose>;
inline constexpr auto world = tag<world_pose>;
inline constexpr auto look = tag<demos::look>;
}  // namespace ct

world_pose pose_in_parent(const local_pose& l) {
  const float c = std::cos(l.angle);
  const float s = std::sin(l.angle);
  return {c, s, l.x + l.distance * c, l.y + l.distance * s};
}
// parent * local.
world_pose compose(const world_pose& p, const world_pose& l) {
  return {p.c * l.c - p.s * l.s, p.s * l.c + p.c * l.s,
          p.c * l.x - p.s * l.y + p.x, p.s * l.x + p.c * l.y + p.y};
}

struct spin {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](local_pose& l) {
      l.angle =
          std::remainder(l.angle + l.spin * kDt, 2 * std::numbers::pi_v<float>);
    });
  }
};
// world = parent's world * local, parents first (the parent's world pose
// is the one its level wrote in this step).
struct place {
  template <typename Data>
  void process(Data& data) const {
    data.for_each_with_parent(ct::world, [](const world_pose* up, world_pose& w,
                                            const local_pose& l) {
      w = up ? compose(*up, pose_in_parent(l)) : pose_in_parent(l);
    });
  }
};
namespace st {
inline constexpr auto spin = tag<demos::spin>;
inline constexpr auto place = tag<demos::place>;
}  // namespace st

constexpr auto kSettings =
    settings()
        .allow_inner_parallelism()
        .component_signatures(component_signatures(
            component_signature::make(ct::local, ct::world),
            component_signature::make(ct::look)))
        .system_signatures(system_signatures(
            system_signature::make(st::spin).write(ct::local),
            system_signature::make(st::place)
                .write(ct::world)
                .read(ct::local)
                .dependencies(st::spin)
                .parallelism(inner_parallelism::split_evenly_per_core())
                .in_hierarchy_order()))
        .scheduler(scheduler::atomic_counter)
        .hierarchy(kill_children);

// An HSV color (hue in degrees) at full saturation and value `v`.
rgb8 hue_color(float hue, float v) {
  const auto channel = [&](float n) {
    const float k = std::fmod(n + hue / 60.f, 6.f);
    const float f = v - v * std::max(0.f, std::min({k, 4.f - k, 1.f}));
    return static_cast<std::uint8_t>(std::lround(255 * f));
  };
  return {channel(5), channel(3), channel(1)};
}

// The scene's entities, hub by hub; `ids[i]` is poses[i] of the result.
template <typename Proxy>
void build(Proxy& proxy, const arms_options& o, std::vector<entity_id>& ids,
           std::vector<arms_pose>& poses) {
  constexpr float kTau = 2 * std::numbers::pi_v<float>;
  const float reach =
      0.22f * std::min(float(o.width) / float(o.hubs), float(o.height));
  const auto add = [&](int parent, int depth, local_pose l, look k) {
    const entity_id e = proxy.create_entity();
    proxy.add_component(ct::local, e, l);
    proxy.add_component(ct::world, e);
    proxy.add_component(ct::look, e, k);
    if (parent >= 0) proxy.set_parent(e, ids[parent]);
    ids.push_back(e);
    poses.push_back({.depth = depth, .parent = parent});
    return static_cast<int>(ids.size()) - 1;
  };
  for (int h = 0; h < o.hubs; ++h) {
    const float hue = 360.f * float(h) / float(o.hubs) + 20.f;
    const float turn = h % 2 == 0 ? 1.f : -1.f;
    const int hub = add(-1, 0,
                        {.angle = float(h),
                         .spin = 0.5f * turn,
                         .x = o.width * (h + 0.5f) / o.hubs,
                         .y = o.height * 0.5f},
                        {6.f, {235, 235, 240}});
    for (int a = 0; a < 3; ++a) {
      const int arm =
          add(hub, 1,
              {.angle = kTau * a / 3, .spin = 0.3f * turn, .distance = reach},
              {4.f, hue_color(hue, 0.8f)});
      for (int f = 0; f < 2; ++f) {
        const int forearm = add(arm, 2,
                                {.angle = f == 0 ? 0.7f : -0.7f,
                                 .spin = (f == 0 ? 1.4f : -1.1f) * turn,
                                 .distance = 0.55f * reach},
                                {3.f, hue_color(hue + 30.f, 0.9f)});
        for (int p = 0; p < 4; ++p) {
          add(forearm, 3,
              {.angle = kTau * p / 4, .spin = 4.f, .distance = 0.2f * reach},
              {2.2f, hue_color(hue + 60.f, 1.f)});
        }
      }
    }
  }
}

absl::Status check(const arms_options& o) {
  if (o.hubs < 1 || o.hubs > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("hubs must be 1 to 64, not ", o.hubs));
  }
  if (o.frames < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("frames must be at least 1, not ", o.frames));
  }
  if (o.width < 64 || o.width > 8192 || o.height < 64 || o.height > 8192) {
    return absl::InvalidArgumentError(absl::StrCat(
        "width and height must be 64 to 8192, not ", o.width, "x", o.height));
  }
  return absl::OkStatus();
}

// Dots every two pixels from a to b (an arm).
void draw_segment(canvas& image, const world_pose& a, const world_pose& b,
                  rgb8 color) {
  const float length = std::hypot(b.x - a.x, b.y - a.y);
  const int dots = std::max(1, static_cast<int>(length / 2));
  for (int i = 0; i <= dots; ++i) {
    const float t = float(i) / float(dots);
    image.fill_circle(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), 1.1f,
                      color);
  }
}

}  // namespace

absl::StatusOr<arms_run> run_arms(const arms_options& o) {
  if (absl::Status s = check(o); !s.ok()) return s;
  auto ctx = make_context<kSettings>(run_options().threads(o.threads));
  std::vector<entity_id> ids;
  arms_run run{canvas(o.width, o.height), {}};
  ctx.step([&](auto& proxy) { build(proxy, o, ids, run.poses); });

  run.image.clear();
  for (int frame = 0; frame < o.frames; ++frame) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
    const int left = o.frames - frame;  // 1 on the last frame
    if (left > kTrailFrames) continue;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (run.poses[i].depth != 3) continue;
      const world_pose& w = ctx.get(ct::world, ids[i]);
      run.image.add_glow(w.x, w.y, 3.f,
                         0.35f * float(kTrailFrames - left) / kTrailFrames,
                         ctx.get(ct::look, ids[i]).color);
    }
  }
  // The final frame: arms from each parent to its child, then the joints.
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const world_pose& w = ctx.get(ct::world, ids[i]);
    run.poses[i].cos = w.c;
    run.poses[i].sin = w.s;
    run.poses[i].x = w.x;
    run.poses[i].y = w.y;
    const entity_id parent = ctx.parent_of(ids[i]);
    if (!parent.is_null() && run.poses[i].depth < 3) {
      draw_segment(run.image, ctx.get(ct::world, parent), w, {110, 120, 140});
    }
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const world_pose& w = ctx.get(ct::world, ids[i]);
    const look& k = ctx.get(ct::look, ids[i]);
    run.image.fill_circle(w.x, w.y, k.radius, k.color);
  }
  return run;
}

}  // namespace strata::demos
