// //demos:arms: the scene's geometry holds after a run (each entity at its
// distance from its parent's pose of the same frame, so parents were placed
// first), the result is the same at every thread count, options out of
// range are refused, and the PNG shows every entity.
#include "demos/arms.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "demos/canvas.h"
#include "gtest/gtest.h"

namespace strata::demos {
namespace {

arms_options small_run(std::size_t threads) {
  arms_options o;
  o.hubs = 4;
  o.frames = 90;
  o.width = 320;
  o.height = 200;
  o.threads = threads;
  return o;
}

TEST(ArmsTest, EveryEntityKeepsItsDistanceFromItsParentsPose) {
  absl::StatusOr<arms_run> run = run_arms(small_run(2));
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->poses.size(), 4u * 34u);
  const float reach = 0.22f * std::min(320.f / 4, 200.f);
  const float distance_at_depth[] = {0, reach, 0.55f * reach, 0.2f * reach};
  int at_depth[4] = {};
  for (const arms_pose& p : run->poses) {
    ++at_depth[p.depth];
    EXPECT_NEAR(p.cos * p.cos + p.sin * p.sin, 1.f, 1e-4f);
    if (p.parent < 0) continue;
    const arms_pose& up = run->poses[static_cast<std::size_t>(p.parent)];
    EXPECT_EQ(up.depth + 1, p.depth);
    EXPECT_NEAR(std::hypot(p.x - up.x, p.y - up.y), distance_at_depth[p.depth],
                1e-3f * reach);
  }
  EXPECT_EQ(at_depth[0], 4);
  EXPECT_EQ(at_depth[1], 12);
  EXPECT_EQ(at_depth[2], 24);
  EXPECT_EQ(at_depth[3], 96);
}

TEST(ArmsTest, SamePosesAndImageAtEveryThreadCount) {
  absl::StatusOr<arms_run> one = run_arms(small_run(1));
  ASSERT_TRUE(one.ok()) << one.status();
  for (std::size_t threads : {2u, 8u}) {
    SCOPED_TRACE(threads);
    absl::StatusOr<arms_run> other = run_arms(small_run(threads));
    ASSERT_TRUE(other.ok()) << other.status();
    ASSERT_EQ(other->poses.size(), one->poses.size());
    for (std::size_t i = 0; i < one->poses.size(); ++i) {
      EXPECT_EQ(other->poses[i].x, one->poses[i].x) << i;
      EXPECT_EQ(other->poses[i].y, one->poses[i].y) << i;
      EXPECT_EQ(other->poses[i].cos, one->poses[i].cos) << i;
    }
    EXPECT_EQ(other->image.to_rgb8(), one->image.to_rgb8());
  }
}

TEST(ArmsTest, OptionsOutOfRangeAreRefused) {
  for (auto change : {+[](arms_options& o) { o.hubs = 0; },
                      +[](arms_options& o) { o.hubs = 65; },
                      +[](arms_options& o) { o.frames = 0; },
                      +[](arms_options& o) { o.width = 63; },
                      +[](arms_options& o) { o.height = 8193; }}) {
    arms_options o = small_run(1);
    change(o);
    EXPECT_EQ(run_arms(o).status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(ArmsTest, ThePngShowsEveryEntity) {
  absl::StatusOr<arms_run> run = run_arms(small_run(1));
  ASSERT_TRUE(run.ok()) << run.status();
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/arms.png";
  ASSERT_TRUE(run->image.write_png(path).ok());
  absl::StatusOr<decoded_png> png = read_png(path);
  ASSERT_TRUE(png.ok()) << png.status();
  ASSERT_EQ(png->width, 320);
  ASSERT_EQ(png->height, 200);
  canvas background(320, 200);
  background.clear();
  for (const arms_pose& p : run->poses) {
    const int x = static_cast<int>(p.x);
    const int y = static_cast<int>(p.y);
    if (x < 0 || y < 0 || x >= 320 || y >= 200) continue;  // clipped
    const std::size_t at = 3 * (static_cast<std::size_t>(y) * 320 + x);
    const rgb8 drawn{png->rgb[at], png->rgb[at + 1], png->rgb[at + 2]};
    EXPECT_NE(drawn, background.pixel(x, y)) << "depth " << p.depth;
  }
}

}  // namespace
}  // namespace strata::demos
