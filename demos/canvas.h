// A small software canvas for the demos: filled anti-aliased circles and
// additive glows on a dark gradient, written and read as PNG through
// libpng's simplified API (png_image_*), which reports errors as values and
// needs no setjmp.
//
//   strata::demos::canvas image(800, 600);
//   image.clear();
//   image.fill_circle(100.f, 80.f, 3.f, {255, 120, 40});
//   absl::Status written = image.write_png("/tmp/frame.png");
//
// Pixels are linear floats in [0, 1] (clamped when written), row-major from
// the top-left corner; pixel (x, y) covers [x, x + 1) x [y, y + 1). Drawing
// is clipped to the canvas, so any coordinates are safe.
//
// Thread-safety: a canvas is a plain value; draw from one thread at a time.
#ifndef STRATA_DEMOS_CANVAS_H_
#define STRATA_DEMOS_CANVAS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace strata::demos {

struct rgb8 {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(rgb8, rgb8) = default;
};

class canvas {
 public:
  // width, height >= 1.
  canvas(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }

  // Fills with the background: a dark blue-grey vertical gradient.
  void clear();
  // A disc with a one-pixel anti-aliased rim and a soft top-left highlight,
  // blended over what is there.
  void fill_circle(float cx, float cy, float radius, rgb8 color);
  // Adds light: intensity * color, falling off quadratically to zero at
  // `radius`.
  void add_glow(float cx, float cy, float radius, float intensity, rgb8 color);

  rgb8 pixel(int x, int y) const;
  // Tightly packed 8-bit RGB rows.
  std::vector<std::uint8_t> to_rgb8() const;

  // Writes an 8-bit RGB PNG; an error names the path and libpng's reason.
  absl::Status write_png(const std::string& path) const;

 private:
  float* at(int x, int y) {
    return &pixels_[3 * (std::size_t(y) * width_ + x)];
  }

  int width_;
  int height_;
  std::vector<float> pixels_;  // 3 floats a pixel
};

// A PNG read back as 8-bit RGB (tests and tools).
struct decoded_png {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // width * height * 3
};
absl::StatusOr<decoded_png> read_png(const std::string& path);

}  // namespace strata::demos

#endif  // STRATA_DEMOS_CANVAS_H_
