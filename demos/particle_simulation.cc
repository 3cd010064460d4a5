#include "demos/particle_simulation.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "context/trace_summary.h"
#include "demos/canvas.h"
#include "demos/particle_components.h"
#include "demos/particle_options.h"
#include "demos/particle_signatures.h"
#include "demos/particle_spawning.h"
#include "demos/particle_systems.h"
#include "scheduler/dot.h"
#include "strata.h"

namespace strata::demos {
namespace particles {
namespace {

// The settings are a named constant, so that compiler messages name them
// in a few words; what the command line decides (threads, the scheduler,
// the world's size) goes in run options beside them. atomic_counter in the
// settings lets the run options pick either scheduler with one context
// type (context/run_options.h).
constexpr auto kSettings = strata::settings()
                               .dynamic_entity_limit()
                               .allow_inner_parallelism()
                               .component_signatures(kComponents)
                               .system_signatures(kSystems)
                               .scheduler(strata::scheduler::atomic_counter)
                               .trace();

strata::run_options run_options_for(const simulation_config& config) {
  return strata::run_options()
      .reserve_entities(static_cast<std::size_t>(
          entity_capacity_for(static_cast<std::int64_t>(config.particles))))
      .threads(config.threads)
      .scheduler(config.scheduler);
}

std::uint64_t fnv1a(std::uint64_t hash, std::uint32_t word) {
  for (int i = 0; i < 4; ++i) {
    hash ^= (word >> (8 * i)) & 0xFF;
    hash *= 0x100000001B3ull;
  }
  return hash;
}

std::uint64_t hash_state(const std::vector<particle_state>& particles) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (const particle_state& p : particles) {
    h = fnv1a(h, p.index);
    for (float f : {p.x, p.y, p.vx, p.vy, p.radius}) {
      h = fnv1a(h, std::bit_cast<std::uint32_t>(f));
    }
    h = fnv1a(h, (p.mortal ? 1u : 0u) | (p.glowing ? 2u : 0u));
  }
  return h;
}

template <typename StepProxy>
void compose_image(StepProxy& proxy, canvas& image) {
  image.clear();
  proxy.for_system_outputs(st::render, [&](auto&, const sprite_list& out) {
    for (const sprite& s : out.items)
      image.fill_circle(s.x, s.y, s.radius, s.rgb);
  });
  proxy.for_system_outputs(st::halo, [&](auto&, const halo_list& out) {
    for (const halo_sprite& h : out.items) {
      image.add_glow(h.x, h.y, h.radius, h.intensity, h.rgb);
    }
  });
}

template <typename StepProxy>
std::vector<particle_state> snapshot(StepProxy& proxy) {
  std::vector<particle_state> particles;
  for (entity_id e : proxy.instance(st::render).subscribed()) {
    const auto& p = proxy.get_component(ct::position, e);
    const auto& v = proxy.get_component(ct::velocity, e);
    particles.push_back({e.index(), p.x, p.y, v.x, v.y,
                         proxy.get_component(ct::circle, e).radius,
                         proxy.has_component(ct::lifetime, e),
                         proxy.has_component(ct::glow, e)});
  }
  std::sort(particles.begin(), particles.end(),
            [](const particle_state& a, const particle_state& b) {
              return a.index < b.index;
            });
  return particles;
}

double milliseconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

std::vector<double> milliseconds(const duration_series& series) {
  std::vector<double> ms;
  ms.reserve(series.count());
  for (std::int64_t ns : series.samples_ns()) {
    ms.push_back(static_cast<double>(ns) / 1e6);
  }
  return ms;
}

// The raw per-frame samples of the result, from the trace summary.
void fill_samples(simulation_result& result) {
  const std::vector<std::string> names = system_names();
  for (std::size_t id = 0; id < names.size(); ++id) {
    system_stats stats{names[id], {}, 0};
    if (id < result.timing.systems().size()) {
      const system_timing& timing = result.timing.systems()[id];
      stats.run_ms = milliseconds(timing.runs);
      stats.subtasks_total = static_cast<double>(timing.subtasks);
    }
    result.systems.push_back(std::move(stats));
  }
  result.refresh_ms = milliseconds(result.timing.refresh());
}

absl::StatusOr<simulation_result> run(const simulation_config& config,
                                      const progress_callback& on_frame) {
  using clock = std::chrono::steady_clock;
  const world w{static_cast<float>(config.width),
                static_cast<float>(config.height), config.seed};
  auto ctx = strata::make_context<kSettings>(
      run_options_for(config), strata::system_arguments(st::acceleration, w),
      strata::system_arguments(st::keep_in_bounds, w),
      strata::system_arguments(st::spatial_partition, w),
      strata::system_arguments(st::solve_contacts, w),
      strata::system_arguments(st::life, w));

  simulation_result result;
  result.threads = ctx.thread_count();
  result.frame_ms.reserve(config.frames);

  if (!config.frames_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(config.frames_dir, error);
    if (error) {
      return absl::UnavailableError(absl::StrCat("cannot create --frames_dir ",
                                                 config.frames_dir, ": ",
                                                 error.message()));
    }
  }
  const bool any_image = !config.png_path.empty() || !config.frames_dir.empty();
  canvas image(any_image ? config.width : 1, any_image ? config.height : 1);

  // The initial population: a seeded generator is fine here, the step
  // function runs on this thread only.
  ctx.step([&](auto& proxy) {
    random_stream rng(config.seed);
    for (std::size_t i = 0; i < config.particles; ++i) {
      spawn(proxy, initial_params(rng, w));
    }
  });

  // The frames' events go to the summary behind the timing table; without
  // --trace the log is drained every frame so long runs stay small.
  const bool keep_trace = !config.trace_path.empty();
  std::size_t trace_cursor = 0;
  auto drain_trace = [&] {
    const auto& events = ctx.trace().events();
    for (; trace_cursor < events.size(); ++trace_cursor) {
      const strata::trace_event& e = events[trace_cursor];
      if (e.step > 0) result.timing.add(e);  // step 0 spawned the population
    }
    if (!keep_trace) {
      ctx.trace().clear();
      trace_cursor = 0;
    }
  };
  drain_trace();

  const clock::time_point start = clock::now();
  for (std::size_t frame = 1; frame <= config.frames; ++frame) {
    const bool final_image = frame == config.frames && !config.png_path.empty();
    const bool periodic_image =
        !config.frames_dir.empty() && frame % config.frame_every == 0;
    clock::duration compose_time{};
    const clock::time_point step_start = clock::now();
    ctx.step([&](auto& proxy) {
      proxy.system(st::life).begin_frame(frame);
      proxy.execute_systems()(
          strata::execution_adapter::t(st::spatial_partition)
              .detailed_instance([](auto& instance, auto& executor) {
                executor.for_subtasks(
                    [](auto& system, auto& data) { system.process(data); });
                // All subtasks are done: merge their outputs in order,
                // before any dependent starts.
                instance.system().merge_outputs(instance);
              }),
          strata::execution_adapter::matching([](auto system) {
            return requires { strata::tag_type<decltype(system)>::integrates; };
          }).for_subtasks([](auto& system, auto& data) {
            system.process(kDt, data);
          }),
          strata::execution_adapter::all().for_subtasks(
              [](auto& system, auto& data) { system.process(data); }));
      proxy.for_system_outputs(st::life, [&](auto&, const death_count& out) {
        result.deaths += out.deaths;
      });
      proxy.for_system_outputs(st::collision_detection,
                               [&](auto&, const contact_list& out) {
                                 result.contacts += out.items.size();
                               });
      if (final_image || periodic_image) {
        const clock::time_point t = clock::now();
        compose_image(proxy, image);
        compose_time = clock::now() - t;
      }
    });
    const clock::time_point step_end = clock::now();
    result.frame_ms.push_back(
        milliseconds(step_end - step_start - compose_time));
    drain_trace();

    // PNG encoding is outside the step: it is I/O, not simulation.
    if (periodic_image) {
      const std::string path =
          absl::StrFormat("%s/frame_%06d.png", config.frames_dir, frame);
      if (absl::Status s = image.write_png(path); !s.ok()) return s;
      ++result.images_written;
    }
    if (final_image) {
      if (absl::Status s = image.write_png(config.png_path); !s.ok()) return s;
      ++result.images_written;
    }
    if (final_image || periodic_image) {
      result.compose_ms.push_back(
          milliseconds(compose_time + (clock::now() - step_end)));
    }
    if (on_frame) {
      on_frame({frame, config.frames, ctx.entity_count(),
                std::chrono::duration<double>(clock::now() - start).count()});
    }
  }
  result.wall_seconds =
      std::chrono::duration<double>(clock::now() - start).count();
  fill_samples(result);
  result.respawns = [&] {
    std::size_t n = 0;
    ctx.step([&](auto& proxy) {
      n = proxy.system(st::life).respawns();
      result.particles = snapshot(proxy);
    });
    return n;
  }();
  result.state_hash = hash_state(result.particles);

  if (keep_trace) {
    std::ofstream out(config.trace_path, std::ios::trunc);
    ctx.write_trace_json(out);
    out.close();
    if (!out) {
      return absl::UnavailableError(
          absl::StrCat("cannot write --trace file ", config.trace_path));
    }
  }
  return result;
}

}  // namespace
}  // namespace particles

std::vector<std::string> system_names() {
  using particles::system_list;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::vector<std::string>{
        std::string(system_list::template system_at<I>::name)...};
  }
  (std::make_index_sequence<particles::kSystemCount>{});
}

std::string system_graph_dot() {
  strata::dot_options options;
  options.graph_name = "strata_particles";
  options.comment =
      "The system DAG of //demos:particles (an edge points from a system to "
      "one that depends on it).";
  return strata::system_graph_dot(particles::kSystems, options);
}

absl::StatusOr<simulation_result> run_particle_simulation(
    const simulation_config& config, const progress_callback& on_frame) {
  return particles::run(config, on_frame);
}

}  // namespace strata::demos
