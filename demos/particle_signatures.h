// What the systems of //demos:particles read, write, depend on and output,
// how they split, and how the components are stored: the constexpr
// signatures the context is built from (particle_simulation.cc) and the
// system graph is drawn from (system_graph_dot()).
//
// Storage: SoA for the physics (each system streams the arrays it needs),
// AoS for what is read together (color and circle), a packed sparse set for
// the ~30% mortal particles and a hash map for the ~2% that glow.
//
// Every writer of a component is ordered against its other users (the
// compile-time race check insists). cycle_color and life touch nothing the
// physics chain writes, so they run alongside it. solve_contacts runs as one
// subtask: it applies the contacts in sorted order (particle_systems.h).
//
// Compile-time values only; nothing here runs.
#ifndef STRATA_DEMOS_PARTICLE_SIGNATURES_H_
#define STRATA_DEMOS_PARTICLE_SIGNATURES_H_

#include <cstddef>
#include <type_traits>

#include "demos/particle_components.h"
#include "demos/particle_systems.h"
#include "strata.h"

namespace strata::demos::particles {

inline constexpr auto kComponents = strata::component_signatures(
    strata::cs::make(ct::position, ct::velocity, ct::acceleration),
    strata::cs::make(ct::color, ct::circle).aos(),
    strata::cs::make(ct::lifetime).sparse(),
    strata::cs::make(ct::glow).hash_map());

inline constexpr auto kSystems = strata::system_signatures(
    strata::ss::make(st::acceleration)
        .read(ct::acceleration, ct::position)
        .write(ct::velocity)
        .parallelism(strata::ips::split_evenly_per_core()),
    strata::ss::make(st::velocity)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::acceleration)
        .parallelism(strata::ipc::none_below_threshold(
            2048, strata::ips::split_evenly_per_core())),
    strata::ss::make(st::keep_in_bounds)
        .read(ct::circle)
        .write(ct::position, ct::velocity)
        .dependencies(st::velocity)
        .parallelism(strata::ipc::fixed_threshold(
            16384, strata::ips::split_evenly_per_core(),
            strata::ips::split_every_n(4096))),
    strata::ss::make(st::spatial_partition)
        .read(ct::position, ct::circle)
        .dependencies(st::keep_in_bounds)
        .parallelism(strata::ips::split_evenly_per_core())
        .output<cell_entries>(),
    strata::ss::make(st::collision_detection)
        .read(ct::position, ct::circle)
        .dependencies(st::spatial_partition)
        .parallelism(strata::ips::split_every_n(2048))
        .output<contact_list>(),
    strata::ss::make(st::solve_contacts)
        .read(ct::circle)
        .write(ct::position, ct::velocity)
        .dependencies(st::collision_detection)
        .parallelism(strata::ips::none()),
    strata::ss::make(st::cycle_color)
        .read(ct::circle)
        .write(ct::color)
        .parallelism(strata::ips::split_evenly(2)),
    strata::ss::make(st::life)
        .write(ct::lifetime)
        .parallelism(strata::ipc::none_below_threshold(
            1024, strata::ips::split_evenly_per_core()))
        .output<death_count>(),
    strata::ss::make(st::render)
        .read(ct::position, ct::circle, ct::color)
        .dependencies(st::solve_contacts, st::cycle_color)
        .parallelism(strata::ips::split_evenly_per_core())
        .output<sprite_list>(),
    strata::ss::make(st::halo)
        .read(ct::position, ct::glow)
        .dependencies(st::solve_contacts)
        .output<halo_list>());

using system_list = std::remove_cvref_t<decltype(kSystems)>;
inline constexpr std::size_t kSystemCount = system_list::count;

}  // namespace strata::demos::particles

#endif  // STRATA_DEMOS_PARTICLE_SIGNATURES_H_
