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

#include "component_storage/hash_map_chunk.h"
#include "demos/particle_components.h"
#include "demos/particle_systems.h"
#include "strata.h"

namespace strata::demos::particles {

inline constexpr auto kComponents = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity,
                                      ct::acceleration),
    strata::component_signature::make(ct::color, ct::circle).aos(),
    strata::component_signature::make(ct::lifetime).sparse(),
    strata::component_signature::make(ct::glow).hash_map());

inline constexpr auto kSystems = strata::system_signatures(
    strata::system_signature::make(st::acceleration)
        .read(ct::acceleration, ct::position)
        .write(ct::velocity)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()),
    strata::system_signature::make(st::velocity)
        .read(ct::velocity)
        .write(ct::position)
        .dependencies(st::acceleration)
        .parallelism(strata::inner_parallelism_composer::none_below_threshold(
            2048, strata::inner_parallelism::split_evenly_per_core())),
    strata::system_signature::make(st::keep_in_bounds)
        .read(ct::circle)
        .write(ct::position, ct::velocity)
        .dependencies(st::velocity)
        .parallelism(strata::inner_parallelism_composer::fixed_threshold(
            16384, strata::inner_parallelism::split_evenly_per_core(),
            strata::inner_parallelism::split_every_n(4096))),
    strata::system_signature::make(st::spatial_partition)
        .read(ct::position, ct::circle)
        .dependencies(st::keep_in_bounds)
        .parallelism(strata::inner_parallelism::split_evenly_per_core())
        .output<cell_entries>(),
    strata::system_signature::make(st::collision_detection)
        .read(ct::position, ct::circle)
        .dependencies(st::spatial_partition)
        .parallelism(strata::inner_parallelism::split_every_n(2048))
        .output<contact_list>(),
    strata::system_signature::make(st::solve_contacts)
        .read(ct::circle)
        .write(ct::position, ct::velocity)
        .dependencies(st::collision_detection)
        .parallelism(strata::inner_parallelism::none()),
    strata::system_signature::make(st::cycle_color)
        .read(ct::circle)
        .write(ct::color)
        .parallelism(strata::inner_parallelism::split_evenly(2)),
    strata::system_signature::make(st::life)
        .write(ct::lifetime)
        .parallelism(strata::inner_parallelism_composer::none_below_threshold(
            1024, strata::inner_parallelism::split_evenly_per_core()))
        .output<death_count>(),
    strata::system_signature::make(st::render)
        .read(ct::position, ct::circle, ct::color)
        .dependencies(st::solve_contacts, st::cycle_color)
        .parallelism(strata::inner_parallelism::split_evenly_per_core())
        .output<sprite_list>(),
    strata::system_signature::make(st::halo)
        .read(ct::position, ct::glow)
        .dependencies(st::solve_contacts)
        .output<halo_list>());

using system_list = std::remove_cvref_t<decltype(kSystems)>;
inline constexpr std::size_t kSystemCount = system_list::count;

}  // namespace strata::demos::particles

#endif  // STRATA_DEMOS_PARTICLE_SIGNATURES_H_
