#include "demos/canvas.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace strata::demos {
namespace {

constexpr float kTop[3] = {0.030f, 0.036f, 0.070f};
constexpr float kBottom[3] = {0.075f, 0.080f, 0.135f};

std::uint8_t to_byte(float v) {
  return static_cast<std::uint8_t>(
      std::lround(std::clamp(v, 0.f, 1.f) * 255.f));
}

}  // namespace

canvas::canvas(int width, int height)
    : width_(std::max(width, 1)),
      height_(std::max(height, 1)),
      pixels_(std::size_t(width_) * height_ * 3, 0.f) {}

void canvas::clear() {
  for (int y = 0; y < height_; ++y) {
    const float t = height_ > 1 ? float(y) / float(height_ - 1) : 0.f;
    float row[3];
    for (int c = 0; c < 3; ++c) row[c] = kTop[c] + (kBottom[c] - kTop[c]) * t;
    for (int x = 0; x < width_; ++x) std::copy(row, row + 3, at(x, y));
  }
}

void canvas::fill_circle(float cx, float cy, float radius, rgb8 color) {
  if (!(radius > 0)) return;
  const int x0 = std::max(0, int(std::floor(cx - radius - 1)));
  const int x1 = std::min(width_ - 1, int(std::ceil(cx + radius + 1)));
  const int y0 = std::max(0, int(std::floor(cy - radius - 1)));
  const int y1 = std::min(height_ - 1, int(std::ceil(cy + radius + 1)));
  const float base[3] = {color.r / 255.f, color.g / 255.f, color.b / 255.f};
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const float dx = x + 0.5f - cx;
      const float dy = y + 0.5f - cy;
      const float d = std::sqrt(dx * dx + dy * dy);
      // Coverage of the pixel by the disc, approximated by the distance of
      // its center to the rim: smooth edges for the price of one sqrt.
      const float coverage = std::clamp(radius + 0.5f - d, 0.f, 1.f);
      if (coverage <= 0) continue;
      // Light from the top left: a sphere-like shading that keeps small
      // discs readable without a second pass.
      const float light =
          0.8f + 0.35f * std::clamp(-(dx + dy) / (1.4142f * radius), -1.f, 1.f);
      float* p = at(x, y);
      for (int c = 0; c < 3; ++c) {
        const float target = std::min(base[c] * light, 1.f);
        p[c] += (target - p[c]) * coverage;
      }
    }
  }
}

void canvas::add_glow(float cx, float cy, float radius, float intensity,
                      rgb8 color) {
  if (!(radius > 0) || !(intensity > 0)) return;
  const int x0 = std::max(0, int(std::floor(cx - radius)));
  const int x1 = std::min(width_ - 1, int(std::ceil(cx + radius)));
  const int y0 = std::max(0, int(std::floor(cy - radius)));
  const int y1 = std::min(height_ - 1, int(std::ceil(cy + radius)));
  const float base[3] = {color.r / 255.f, color.g / 255.f, color.b / 255.f};
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const float dx = x + 0.5f - cx;
      const float dy = y + 0.5f - cy;
      const float t = 1.f - std::sqrt(dx * dx + dy * dy) / radius;
      if (t <= 0) continue;
      const float f = t * t * intensity;
      float* p = at(x, y);
      for (int c = 0; c < 3; ++c) p[c] += base[c] * f;
    }
  }
}

rgb8 canvas::pixel(int x, int y) const {
  const float* p = &pixels_[3 * (std::size_t(y) * width_ + x)];
  return {to_byte(p[0]), to_byte(p[1]), to_byte(p[2])};
}

std::vector<std::uint8_t> canvas::to_rgb8() const {
  std::vector<std::uint8_t> bytes(pixels_.size());
  for (std::size_t i = 0; i < pixels_.size(); ++i)
    bytes[i] = to_byte(pixels_[i]);
  return bytes;
}

absl::Status canvas::write_png(const std::string& path) const {
  const std::vector<std::uint8_t> bytes = to_rgb8();
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width_);
  image.height = static_cast<png_uint_32>(height_);
  image.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&image, path.c_str(), /*convert_to_8bit=*/0,
                               bytes.data(), /*row_stride=*/0,
                               /*colormap=*/nullptr)) {
    absl::Status error = absl::UnavailableError(
        absl::StrCat("cannot write PNG ", path, ": ", image.message));
    png_image_free(&image);
    return error;
  }
  return absl::OkStatus();
}

absl::StatusOr<decoded_png> read_png(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read PNG ", path, ": ", image.message));
  }
  image.format = PNG_FORMAT_RGB;
  decoded_png decoded;
  decoded.width = static_cast<int>(image.width);
  decoded.height = static_cast<int>(image.height);
  decoded.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, /*background=*/nullptr, decoded.rgb.data(),
                             /*row_stride=*/0,
                             /*colormap=*/nullptr)) {
    absl::Status error = absl::InvalidArgumentError(
        absl::StrCat("cannot decode PNG ", path, ": ", image.message));
    png_image_free(&image);
    return error;
  }
  return decoded;
}

}  // namespace strata::demos
