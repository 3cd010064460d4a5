// The spatial grid on its own: cell indexing and clamping, insertion by
// rebuild, neighbour queries inside, on edges and in corners, and the
// determinism of cell order however the entries are split into lists.
#include "demos/spatial_grid.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "entity/entity_id.h"
#include "gtest/gtest.h"

namespace strata::demos {
namespace {

entity_id id(std::uint32_t index) { return entity_id::combine(index, 0); }

std::vector<std::uint32_t> indices(std::span<const entity_id> ids) {
  std::vector<std::uint32_t> out;
  for (entity_id e : ids) out.push_back(e.index());
  return out;
}

std::vector<std::uint32_t> near(const spatial_grid& grid, float x, float y) {
  std::vector<std::uint32_t> out;
  grid.for_each_near(x, y, [&](entity_id e) { out.push_back(e.index()); });
  return out;
}

using list = std::vector<std::uint32_t>;

TEST(SpatialGridTest, CellIndexing) {
  // 100 x 50 with cells of 6: 17 columns (16.7 rounded up), 9 rows.
  const spatial_grid grid(100.f, 50.f, 6.f);
  EXPECT_EQ(grid.columns(), 17);
  EXPECT_EQ(grid.rows(), 9);
  EXPECT_EQ(grid.cell_count(), 17u * 9u);
  EXPECT_EQ(grid.cell_size(), 6.f);
  EXPECT_EQ(grid.column(0.f), 0);
  EXPECT_EQ(grid.column(5.99f), 0);
  EXPECT_EQ(grid.column(6.f), 1);
  EXPECT_EQ(grid.column(99.9f), 16);
  EXPECT_EQ(grid.row(13.f), 2);
  EXPECT_EQ(grid.cell_of(0.f, 0.f), 0u);
  EXPECT_EQ(grid.cell_of(13.f, 13.f), 2u * 17u + 2u);  // row-major
  EXPECT_EQ(grid.cell_of(99.9f, 49.9f), 17u * 9u - 1u);
  // Exact multiples and a rectangle smaller than one cell.
  EXPECT_EQ(spatial_grid(12.f, 12.f, 6.f).columns(), 2);
  const spatial_grid tiny(2.f, 3.f, 6.f);
  EXPECT_EQ(tiny.columns(), 1);
  EXPECT_EQ(tiny.rows(), 1);
  EXPECT_EQ(tiny.cell_of(1.f, 1.f), 0u);
}

TEST(SpatialGridTest, PositionsOutsideFallInTheEdgeCells) {
  const spatial_grid grid(60.f, 30.f, 6.f);  // 10 x 5
  EXPECT_EQ(grid.column(-0.5f), 0);
  EXPECT_EQ(grid.column(-100.f), 0);
  EXPECT_EQ(grid.column(60.f), 9);
  EXPECT_EQ(grid.column(1e9f), 9);
  EXPECT_EQ(grid.row(-7.f), 0);
  EXPECT_EQ(grid.row(30.f), 4);
  EXPECT_EQ(grid.cell_of(-1.f, 1000.f), 4u * 10u);  // bottom-left
  EXPECT_EQ(grid.cell_of(1000.f, -1.f), 9u);        // top-right
}

TEST(SpatialGridTest, RebuildListsEachCellsEntitiesInEntryOrder) {
  spatial_grid grid(60.f, 30.f, 6.f);
  EXPECT_EQ(grid.size(), 0u);
  EXPECT_TRUE(grid.cell(0, 0).empty());
  const std::uint32_t a = grid.cell_of(1.f, 1.f);    // (0, 0)
  const std::uint32_t b = grid.cell_of(59.f, 29.f);  // (9, 4)
  const std::vector<cell_entry> entries = {
      {a, id(5)}, {b, id(1)}, {a, id(3)}, {a, id(9)}, {b, id(2)}};
  grid.rebuild(entries);
  EXPECT_EQ(grid.size(), 5u);
  EXPECT_EQ(indices(grid.cell(0, 0)), (list{5, 3, 9}));
  EXPECT_EQ(indices(grid.cell(9, 4)), (list{1, 2}));
  EXPECT_TRUE(grid.cell(1, 0).empty());

  // A rebuild replaces everything, whatever the sizes.
  const std::vector<cell_entry> fewer = {{b, id(7)}};
  grid.rebuild(fewer);
  EXPECT_EQ(grid.size(), 1u);
  EXPECT_TRUE(grid.cell(0, 0).empty());
  EXPECT_EQ(indices(grid.cell(9, 4)), (list{7}));
  grid.rebuild(std::span<const cell_entry>{});
  EXPECT_EQ(grid.size(), 0u);
  EXPECT_TRUE(grid.cell(9, 4).empty());
}

TEST(SpatialGridTest, CellOrderDoesNotDependOnHowEntriesAreSplit) {
  const spatial_grid shape(60.f, 30.f, 6.f);
  std::vector<cell_entry> entries;
  for (std::uint32_t i = 0; i < 200; ++i) {
    // Scattered over few cells, so cells hold many entities.
    const float x = static_cast<float>((i * 37) % 60);
    const float y = static_cast<float>((i * 11) % 12);
    entries.push_back({shape.cell_of(x, y), id(i)});
  }
  spatial_grid whole(60.f, 30.f, 6.f);
  whole.rebuild(entries);
  for (std::size_t lists : {1u, 2u, 3u, 7u, 200u}) {
    SCOPED_TRACE(lists);
    spatial_grid split(60.f, 30.f, 6.f);
    const std::span<const cell_entry> all(entries);
    split.rebuild_from_lists([&](auto&& f) {
      for (std::size_t l = 0; l < lists; ++l) {  // contiguous slices, in order
        const std::size_t begin = l * all.size() / lists;
        const std::size_t end = (l + 1) * all.size() / lists;
        f(all.subspan(begin, end - begin));
      }
    });
    for (int r = 0; r < whole.rows(); ++r) {
      for (int c = 0; c < whole.columns(); ++c) {
        EXPECT_EQ(indices(split.cell(c, r)), indices(whole.cell(c, r)));
      }
    }
  }
  // Within a cell, entry order is kept: ascending here.
  for (int r = 0; r < whole.rows(); ++r) {
    for (int c = 0; c < whole.columns(); ++c) {
      const list cell = indices(whole.cell(c, r));
      EXPECT_TRUE(std::is_sorted(cell.begin(), cell.end()));
    }
  }
}

// One entity per cell of a 5 x 4 grid, index = row * 10 + column.
spatial_grid one_per_cell() {
  spatial_grid grid(30.f, 24.f, 6.f);
  std::vector<cell_entry> entries;
  for (int r = 3; r >= 0; --r) {  // entry order does not matter across cells
    for (int c = 4; c >= 0; --c) {
      entries.push_back({grid.cell_of(c * 6.f + 3.f, r * 6.f + 3.f),
                         id(static_cast<std::uint32_t>(r * 10 + c))});
    }
  }
  grid.rebuild(entries);
  return grid;
}

TEST(SpatialGridTest, NeighbourQueriesVisitTheBlockRowByRow) {
  const spatial_grid grid = one_per_cell();
  // Interior: 3 x 3, rows top to bottom, columns left to right.
  EXPECT_EQ(near(grid, 9.f, 9.f),  // column 1, row 1
            (list{0, 1, 2, 10, 11, 12, 20, 21, 22}));
  EXPECT_EQ(near(grid, 13.f, 9.f),  // column 2, row 1
            (list{1, 2, 3, 11, 12, 13, 21, 22, 23}));
  // Anywhere in the same cell gives the same block.
  EXPECT_EQ(near(grid, 12.01f, 11.99f), near(grid, 17.9f, 6.f));
}

TEST(SpatialGridTest, NeighbourQueriesAtEdgesAndCorners) {
  const spatial_grid grid = one_per_cell();
  EXPECT_EQ(near(grid, 1.f, 1.f), (list{0, 1, 10, 11}));      // top-left
  EXPECT_EQ(near(grid, 29.f, 23.f), (list{23, 24, 33, 34}));  // bottom-right
  EXPECT_EQ(near(grid, 13.f, 1.f), (list{1, 2, 3, 11, 12, 13}));     // top edge
  EXPECT_EQ(near(grid, 1.f, 13.f), (list{10, 11, 20, 21, 30, 31}));  // left
  // Outside the rectangle: the nearest edge cell's block.
  EXPECT_EQ(near(grid, -50.f, -50.f), near(grid, 1.f, 1.f));
  EXPECT_EQ(near(grid, 500.f, 13.f), (list{13, 14, 23, 24, 33, 34}));
  // A one-cell grid: the query sees exactly that cell.
  spatial_grid single(5.f, 5.f, 6.f);
  const std::vector<cell_entry> entries = {{0, id(4)}, {0, id(2)}};
  single.rebuild(entries);
  EXPECT_EQ(near(single, 2.f, 2.f), (list{4, 2}));
}

TEST(SpatialGridTest, NeighbourQueriesSeeSeveralEntitiesPerCellInOrder) {
  spatial_grid grid(18.f, 6.f, 6.f);  // 3 x 1
  const std::vector<cell_entry> entries = {
      {2, id(8)}, {0, id(6)}, {1, id(7)}, {0, id(1)}, {2, id(0)}};
  grid.rebuild(entries);
  EXPECT_EQ(near(grid, 9.f, 3.f), (list{6, 1, 7, 8, 0}));
  EXPECT_EQ(near(grid, 1.f, 3.f), (list{6, 1, 7}));
}

}  // namespace
}  // namespace strata::demos
