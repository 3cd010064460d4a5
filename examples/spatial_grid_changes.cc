// A spatial grid kept up to date from changes only.
//
// The grid files each entity with a position in a cell. Instead of
// rebuilding it every step, the grid system declares .changed(ct::position):
// it visits only the entities whose position was written since its previous
// run (moved by the mover system, or given a position), and re-files those.
// Entities that lose their position or die leave the grid through the
// system's on_unsubscribe hook; on_subscribe counts the arrivals, whose
// position is new and therefore also "changed". After each step the program
// rebuilds the grid from scratch and checks that both agree.
//
//   bazel run //examples:spatial_grid_changes
#include <cstddef>
#include <cstdio>
#include <set>
#include <vector>

#include "strata.h"

struct position {
  float x, y;
};

constexpr float cell_size = 10;
constexpr int cells_per_side = 10;  // a 100 x 100 world
int cell_of(const position& p) {
  const int cx = static_cast<int>(p.x / cell_size) % cells_per_side;
  const int cy = static_cast<int>(p.y / cell_size) % cells_per_side;
  return cy * cells_per_side + cx;
}

// Moves one entity in 25 each step (a different one each step).
struct mover {
  int step = 0;
  template <typename Data>
  void process(Data& data) {
    ++step;
    data.for_entities([&](strata::entity_id e) {
      if ((e.index() + static_cast<std::size_t>(step)) % 25 != 0) return;
      position& p = data.write(strata::tag<position>, e);
      p.x = static_cast<float>((static_cast<int>(p.x) + 37) % 100);
      p.y = static_cast<float>((static_cast<int>(p.y) + 11) % 100);
    });
  }
};

// The grid: cell -> entity indices, and each filed entity's cell.
struct grid {
  std::vector<std::set<std::size_t>> cells =
      std::vector<std::set<std::size_t>>(cells_per_side * cells_per_side);
  std::vector<int> filed_in;  // by entity index; -1: not filed
  std::size_t arrivals = 0, departures = 0, refiled = 0;

  void on_subscribe(strata::entity_id) { ++arrivals; }
  void on_unsubscribe(strata::entity_id e) {
    ++departures;
    unfile(e.index());
  }
  template <typename Data>
  void process(Data& data) {
    refiled = 0;
    data.for_each([&](strata::entity_id e, const position& p) {
      unfile(e.index());
      file(e.index(), cell_of(p));
      ++refiled;
    });
  }

 private:
  void file(std::size_t index, int cell) {
    if (index >= filed_in.size()) filed_in.resize(index + 1, -1);
    filed_in[index] = cell;
    cells[static_cast<std::size_t>(cell)].insert(index);
  }
  void unfile(std::size_t index) {
    if (index >= filed_in.size() || filed_in[index] < 0) return;
    cells[static_cast<std::size_t>(filed_in[index])].erase(index);
    filed_in[index] = -1;
  }
};

namespace ct {
inline constexpr auto position = strata::tag<::position>;
}
namespace st {
inline constexpr auto mover = strata::tag<::mover>;
inline constexpr auto grid = strata::tag<::grid>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .component_signatures(
            strata::component_signatures(strata::cs::make(ct::position)))
        .system_signatures(strata::system_signatures(
            strata::ss::make(st::mover).write(ct::position),
            strata::ss::make(st::grid)
                .read(ct::position)
                .changed(ct::position)
                .dependencies(st::mover)
                .parallelism(strata::ips::none())));  // one shared grid

int main() {
  auto ctx = strata::make_context(settings);
  std::vector<strata::entity_id> entities;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 1000; ++i) {
      const strata::entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, static_cast<float>(i % 100),
                          static_cast<float>((i * 7) % 100));
      entities.push_back(e);
    }
  });
  const auto run = strata::sea::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); });
  for (int step = 1; step <= 6; ++step) {
    ctx.step([&](auto& proxy) { proxy.execute_systems()(run); });
    ctx.step([&](auto& proxy) {
      // The full rebuild, to compare with.
      std::vector<std::set<std::size_t>> rebuilt(cells_per_side *
                                                 cells_per_side);
      proxy.for_each([&](strata::entity_id e, const position& p) {
        rebuilt[static_cast<std::size_t>(cell_of(p))].insert(e.index());
      });
      const grid& g = proxy.system(st::grid);
      std::printf(
          "step %d: re-filed %zu of %zu, arrivals %zu, departures %zu, "
          "grid %s the rebuild\n",
          step, g.refiled, proxy.count(ct::position), g.arrivals, g.departures,
          g.cells == rebuilt ? "matches" : "DIFFERS FROM");
      // Some churn, effective at this step's refresh: one entity dies, one
      // loses its position, one arrives.
      if (step % 2 == 0) {
        const std::size_t at = static_cast<std::size_t>(step) * 10;
        proxy.kill_entity(entities[at]);
        proxy.remove_component(ct::position, entities[at + 1]);
        proxy.add_component(ct::position, proxy.create_entity(), 55.f, 55.f);
      }
    });
  }
}
