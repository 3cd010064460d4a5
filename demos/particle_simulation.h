// The particle simulation behind //demos:particles: Strata's take on the
// ECST particle example, headless, deterministic and measured.
//
//   strata::demos::simulation_config config;   // or config_from_flags(...)
//   config.particles = 2000;
//   config.frames = 120;
//   absl::StatusOr<strata::demos::simulation_result> result =
//       strata::demos::run_particle_simulation(config);
//
// Every frame is one context step that runs ten systems (see
// system_graph_dot() for the DAG):
//
//   acceleration -> velocity -> keep_in_bounds -> spatial_partition
//     -> collision_detection -> solve_contacts -> render, halo
//   cycle_color -> render        life (independent)
//
// spatial_partition emits per-subtask cell entries that a detailed_instance
// adapter merges into a grid; collision_detection emits per-subtask contacts
// that solve_contacts reads with for_previous_outputs; render and halo emit
// per-subtask sprite lists that the step composes into an image; life kills
// expired particles and defers a respawn.
//
// Where things live: particle_components.h (the world, the components),
// particle_spawning.h (deterministic randomness, new particles),
// spatial_grid.h (the grid, //demos:spatial_grid), particle_outputs.h,
// physics_systems.h and particle_systems.h (the systems and what they
// output), particle_signatures.h (the signatures), this header and
// particle_simulation.cc (the run), run_report.h (the table),
// particle_options.h (the flags) and particles_main.cc (the program).
//
// Determinism contract: for a given config, everything in the result except
// timings (state_hash, particles, deaths, respawns, contacts, images) is the
// same for both schedulers and any thread count. Every per-entity update
// depends only on that entity (and, for collisions, on a grid whose cell
// lists keep subscription order however the systems were split); contacts
// are sorted before the one sequential solver applies them; respawn
// parameters come from a hash of (seed, dead entity index, frame), never from
// a shared generator.
//
// Thread-safety: run_particle_simulation() owns its context; concurrent
// calls are independent.
#ifndef STRATA_DEMOS_PARTICLE_SIMULATION_H_
#define STRATA_DEMOS_PARTICLE_SIMULATION_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "context/run_options.h"
#include "context/trace_summary.h"

namespace strata::demos {

// The scheduler a run uses: Strata's run-time choice
// (context/run_options.h), so one context type runs either.
using scheduler_kind = strata::scheduler_kind;

// A validated run description (config_from_flags() builds one from the
// command line and checks every field; tests fill it directly).
struct simulation_config {
  std::size_t particles = 10'000;
  std::size_t frames = 600;
  std::size_t threads = 0;  // 0: every hardware thread
  std::uint64_t seed = 1;
  scheduler_kind scheduler = scheduler_kind::atomic_counter;
  int width = 800;  // the world is width x height pixels
  int height = 600;
  std::string png_path;    // final frame; empty: none
  std::string frames_dir;  // every frame_every-th frame; empty: none
  std::size_t frame_every = 10;
  std::string trace_path;  // Chrome trace JSON; empty: none
};

// Reported after every frame (from the calling thread).
struct frame_progress {
  std::size_t frame = 0;  // 1-based
  std::size_t frames = 0;
  std::size_t alive = 0;
  double elapsed_seconds = 0;
};

// One particle of the final state.
struct particle_state {
  std::uint32_t index = 0;  // entity index
  float x = 0, y = 0, vx = 0, vy = 0, radius = 0;
  bool mortal = false;   // has a lifetime (sparse component)
  bool glowing = false;  // has a glow (hash-map component)
};

// One system's samples, from the context's trace: one per frame.
struct system_stats {
  std::string name;
  std::vector<double> run_ms;
  double subtasks_total = 0;  // summed over frames (mean = total / frames)
};

struct simulation_result {
  std::uint64_t state_hash = 0;           // of `particles`, bit-exact
  std::vector<particle_state> particles;  // sorted by entity index
  std::size_t threads = 0;                // the context's thread count
  std::size_t deaths = 0;                 // particles life killed
  std::size_t respawns = 0;               // particles life's defers created
  std::size_t contacts = 0;               // contacts found, summed over frames
  std::size_t images_written = 0;
  // Timing (never part of the determinism contract).
  strata::trace_summary timing;       // the frames' systems and refreshes
  std::vector<system_stats> systems;  // its samples in ms, by system id
  std::vector<double> frame_ms;       // whole step, per frame
  std::vector<double> refresh_ms;     // the refresh part of each step
  std::vector<double> compose_ms;     // image composition + PNG, when done
  double wall_seconds = 0;
};

using progress_callback = std::function<void(const frame_progress&)>;

// Runs the simulation: spawns config.particles particles from config.seed,
// runs config.frames steps, writes the requested images and trace. Fails
// (without crashing) when an output file cannot be written; the config's
// numbers are trusted (validate them with config_from_flags()).
absl::StatusOr<simulation_result> run_particle_simulation(
    const simulation_config& config, const progress_callback& on_frame = {});

// The system DAG as Graphviz DOT (strata::system_graph_dot, scheduler/dot.h):
// one node per system with what it reads, writes and outputs and how it
// splits, one edge per dependency.
std::string system_graph_dot();

// Names of the systems, in system id order.
std::vector<std::string> system_names();

}  // namespace strata::demos

#endif  // STRATA_DEMOS_PARTICLE_SIMULATION_H_
