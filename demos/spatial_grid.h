// A uniform grid of square cells over a rectangle, listing entities by cell:
// the broad phase of //demos:particles' collision detection.
//
//   strata::demos::spatial_grid grid(800.f, 600.f, 6.f);  // width, height
//   entries.push_back({grid.cell_of(x, y), e});           // per entity
//   grid.rebuild(entries);           // or rebuild_from_lists(for_each_list)
//   grid.for_each_near(x, y, [&](strata::entity_id other) { ... });
//
// Cells: columns = ceil(width / cell_size) and rows = ceil(height /
// cell_size), at least 1 each; column(x) = floor(x / cell_size) clamped to
// [0, columns) (so positions outside the rectangle fall in its edge cells),
// row(y) likewise, and cell_of(x, y) = row * columns + column.
//
// rebuild(entries) replaces the contents with a stable counting sort of the
// entries: each cell lists its entities in the order the entries were
// visited. rebuild_from_lists(for_each_list) takes them as several lists
// (e.g. one per subtask of a system) visited in order: `for_each_list(f)`
// calls `f(std::span<const cell_entry>)` once per list, and is called twice
// (count, then place). Splitting a sequence of entries into lists in any
// way gives the same grid. That is the determinism //demos:particles relies
// on: cells keep subscription order however the system's subtasks split.
//
// for_each_near(x, y, f) calls f(entity_id) for every entity in the cell of
// (x, y) and its neighbouring cells (3 x 3, fewer at the edges): rows from
// row(y) - 1 to row(y) + 1, each from left to right, each cell in its listed
// order. With cells at least as wide as the largest interaction distance,
// every entity within that distance of (x, y) is visited.
//
// Cost: rebuild is O(cells + entries) and allocates only when the entry
// count grows; queries are O(1) per visited entity. A cell_entry whose cell
// is out of range is a STRATA_CHECK failure. Thread-safety: const members
// may be called concurrently; rebuilding needs exclusive access.
#ifndef STRATA_DEMOS_SPATIAL_GRID_H_
#define STRATA_DEMOS_SPATIAL_GRID_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "entity/entity_id.h"

namespace strata::demos {

struct cell_entry {
  std::uint32_t cell;  // spatial_grid::cell_of(x, y)
  entity_id id;
};

class spatial_grid {
 public:
  // width, height and cell_size must be positive.
  spatial_grid(float width, float height, float cell_size);

  int columns() const { return columns_; }
  int rows() const { return rows_; }
  float cell_size() const { return cell_size_; }
  std::size_t cell_count() const { return start_.size() - 1; }
  // Entities listed, over all cells.
  std::size_t size() const { return entities_.size(); }

  int column(float x) const {
    return std::clamp(static_cast<int>(x / cell_size_), 0, columns_ - 1);
  }
  int row(float y) const {
    return std::clamp(static_cast<int>(y / cell_size_), 0, rows_ - 1);
  }
  std::uint32_t cell_of(float x, float y) const {
    return static_cast<std::uint32_t>(row(y) * columns_ + column(x));
  }
  // The entities of one cell, in listed order; column and row in range.
  std::span<const entity_id> cell(int column, int row) const {
    const std::size_t c = std::size_t(row) * columns_ + column;
    return {entities_.data() + start_[c], entities_.data() + start_[c + 1]};
  }

  // Replaces the contents with the entries of every list (see the top).
  template <typename ForEachList>
  void rebuild_from_lists(ForEachList&& for_each_list) {
    begin_counting();
    for_each_list([&](std::span<const cell_entry> list) { count(list); });
    begin_placing();
    for_each_list([&](std::span<const cell_entry> list) { place(list); });
  }
  void rebuild(std::span<const cell_entry> entries) {
    rebuild_from_lists([entries](auto&& f) { f(entries); });
  }

  // f(entity_id) for the entities in and around the cell of (x, y).
  template <typename F>
  void for_each_near(float x, float y, F&& f) const {
    const int c = column(x);
    const int r = row(y);
    for (int nr = std::max(r - 1, 0); nr <= std::min(r + 1, rows_ - 1); ++nr) {
      for (int nc = std::max(c - 1, 0); nc <= std::min(c + 1, columns_ - 1);
           ++nc) {
        for (entity_id id : cell(nc, nr)) f(id);
      }
    }
  }

 private:
  void begin_counting();
  void count(std::span<const cell_entry> list);
  void begin_placing();
  void place(std::span<const cell_entry> list);

  float cell_size_;
  int columns_;
  int rows_;
  std::vector<std::uint32_t> start_;   // CSR offsets, one past each cell
  std::vector<std::uint32_t> cursor_;  // next free slot per cell
  std::vector<entity_id> entities_;
};

}  // namespace strata::demos

#endif  // STRATA_DEMOS_SPATIAL_GRID_H_
