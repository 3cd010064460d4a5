#include "demos/spatial_grid.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "base/check.h"

namespace strata::demos {

namespace {

float checked_cell_size(float width, float height, float cell_size) {
  STRATA_CHECK(width > 0 && height > 0 && cell_size > 0,
               "spatial_grid: width, height and cell_size must be positive");
  return cell_size;
}

}  // namespace

spatial_grid::spatial_grid(float width, float height, float cell_size)
    : cell_size_(checked_cell_size(width, height, cell_size)),
      columns_(std::max(1, static_cast<int>(std::ceil(width / cell_size)))),
      rows_(std::max(1, static_cast<int>(std::ceil(height / cell_size)))),
      start_(std::size_t(columns_) * rows_ + 1, 0) {}

void spatial_grid::begin_counting() {
  std::fill(start_.begin(), start_.end(), 0);
}

// start_[c + 1] counts cell c's entries.
void spatial_grid::count(std::span<const cell_entry> list) {
  for (const cell_entry& e : list) {
    STRATA_CHECK(e.cell < cell_count(), "spatial_grid: a cell out of range");
    ++start_[e.cell + 1];
  }
}

// Prefix sums turn the counts into offsets; each cell fills from its start.
void spatial_grid::begin_placing() {
  for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
  entities_.resize(start_.back());
  cursor_.assign(start_.begin(), start_.end() - 1);
}

void spatial_grid::place(std::span<const cell_entry> list) {
  for (const cell_entry& e : list) entities_[cursor_[e.cell]++] = e.id;
}

}  // namespace strata::demos
