// //demos:arms: a hierarchy you can see. Hubs spin, arms turn on the hubs,
// forearms on the arms, and particles circle the forearms' tips; each
// entity's place in the world comes from its parent's, propagated
// parents-first by a system declared .in_hierarchy_order()
// (context/hierarchy.h), and the final frame is drawn into a PNG with the
// trails of the particles.
//
//   strata::demos::arms_options options;
//   options.hubs = 3;
//   options.frames = 240;
//   absl::StatusOr<strata::demos::arms_run> run =
//   strata::demos::run_arms(options); run->image.write_png("/tmp/arms.png");
//
// The scene: `hubs` roots side by side across the image; each has three
// arms (depth 1), each arm two forearms (depth 2), each forearm four
// particles (depth 3): 34 entities per hub. Every entity has a local pose
// (an angle that turns at its own rate, and an offset from its parent along
// its parent's frame) and a world pose (rotation and translation).
// Each frame, `spin` turns every local pose, then `place` computes
// world = parent's world * local, level by level (data.parent), split
// across threads within a level.
//
// Determinism: every per-entity update depends only on the entity and its
// parent, which the previous level finished, so the poses and the image are
// the same at every thread count (arms_test checks 1, 2 and 8).
#ifndef STRATA_DEMOS_ARMS_H_
#define STRATA_DEMOS_ARMS_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "demos/canvas.h"

namespace strata::demos {

struct arms_options {
  int hubs = 3;      // 1 to 64
  int frames = 240;  // >= 1, at 1/60 s each
  int width = 480;   // 64 to 8192
  int height = 360;  // 64 to 8192
  std::size_t threads = 1;
};

// An entity's pose in the world after the run, with its depth (0 for a
// hub, 3 for a particle) and the index of its parent in `poses` (-1 for a
// hub).
struct arms_pose {
  float cos = 1, sin = 0, x = 0, y = 0;
  int depth = 0;
  int parent = -1;
};

struct arms_run {
  canvas image;
  std::vector<arms_pose> poses;  // in creation order (hub, then its tree)
};

// Runs the scene and draws its final frame; an error for options out of
// range.
absl::StatusOr<arms_run> run_arms(const arms_options& options);

}  // namespace strata::demos

#endif  // STRATA_DEMOS_ARMS_H_
