// A spatial grid kept up to date from changes only.
//
// The grid (a resource) files each entity with a position in a cell.
// Instead of rebuilding it every step:
//   * component hooks on position register and unregister entities: on_add
//     files a new position, on_remove takes out a removed one (or one of a
//     killed entity), reading the removed value to find its cell;
//   * the grid system declares .changed(ct::position): it visits only the
//     entities whose position was written since its previous run (moved by
//     the mover system), and re-files those.
// After each step the program rebuilds the grid from scratch and checks that
// both agree.
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
  std::size_t registered = 0, unregistered = 0, refiled = 0;

  void file(std::size_t index, int cell) {
    if (index >= filed_in.size()) filed_in.resize(index + 1, -1);
    filed_in[index] = cell;
    cells[static_cast<std::size_t>(cell)].insert(index);
  }
  void unfile(std::size_t index, int cell) {
    cells[static_cast<std::size_t>(cell)].erase(index);
    filed_in[index] = -1;
  }
};

// Re-files the entities that moved since its previous run.
struct grid_update {
  template <typename Data>
  void process(Data& data) {
    grid& g = data.template resource<grid>();
    g.refiled = 0;
    data.for_each([&](strata::entity_id e, const position& p) {
      const std::size_t index = e.index();
      if (index < g.filed_in.size() && g.filed_in[index] >= 0) {
        g.unfile(index, g.filed_in[index]);
      }
      g.file(index, cell_of(p));
      ++g.refiled;
    });
  }
};

namespace ct {
inline constexpr auto position = strata::tag<::position>;
}
namespace st {
inline constexpr auto mover = strata::tag<::mover>;
inline constexpr auto grid_update = strata::tag<::grid_update>;
}  // namespace st

// Registration through hooks: the removed position says which cell to
// leave.
constexpr auto hooks = strata::component_hooks(
    strata::hook(ct::position)
        .on_add([](auto& proxy, strata::entity_id e, position& p) {
          grid& g = proxy.template resource<grid>();
          g.file(e.index(), cell_of(p));
          ++g.registered;
        })
        .on_remove([](auto& proxy, strata::entity_id e, const position& p) {
          // Every move is re-filed in the same execute_systems call (the
          // grid runs after the mover), so p's cell is where it is filed.
          grid& g = proxy.template resource<grid>();
          g.unfile(e.index(), cell_of(p));
          ++g.unregistered;
        })
        .resources(strata::resource<grid>));

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::mover).write(ct::position),
            strata::system_signature::make(st::grid_update)
                .read(ct::position)
                .changed(ct::position)
                .write_resource<grid>()
                .dependencies(st::mover)))
        .resources(strata::resources(strata::resource<grid>))
        .hooks(hooks);

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
  const auto run = strata::execution_adapter::all().for_subtasks(
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
      const grid& g = proxy.template resource<grid>();
      std::printf(
          "step %d: re-filed %zu of %zu, registered %zu, unregistered %zu, "
          "grid %s the rebuild\n",
          step, g.refiled, proxy.count(ct::position), g.registered,
          g.unregistered, g.cells == rebuilt ? "matches" : "DIFFERS FROM");
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
