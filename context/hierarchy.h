// Hierarchies: a parent/child relation between entities, declared in the
// settings, changed like other structural changes (at the refresh) and
// queried anywhere.
//
//   constexpr auto settings = strata::settings()
//       .component_signatures(components)
//       .system_signatures(systems)
//       .hierarchy(strata::kill_children);   // or strata::detach_children
//
//   ctx.step([](auto& proxy) {
//     proxy.set_parent(moon, planet);        // takes effect at the refresh
//     proxy.remove_parent(probe);            // becomes a root
//   });
//   ctx.parent_of(moon);                     // planet (null_entity: none)
//   for (strata::entity_id c : ctx.children_of(planet)) { ... }
//   ctx.depth_of(moon);                      // 2 under sun -> planet
//   ctx.root_of(moon);                       // sun
//
// The relation. Every entity has at most one parent and any number of
// children; an entity without a parent is a root (depth 0), its children
// have depth 1, and so on. Entities are created as roots.
//
// Changes. set_parent(child, parent) and remove_parent(child) are critical
// operations of the step and defer proxies, and of a system's data proxy
// (where they are deferred: they join the queue when the refresh runs the
// system's deferred functions, in system id, subtask, then call order, so
// the result does not depend on how systems were split). The refresh
// applies the queue in order, after the deferred functions and before the
// kills (context/refresh.h), so queries during a step see the relation as
// the last refresh left it. set_parent moves the child with its whole
// subtree (a child keeps its own children); a child that had a parent
// leaves that parent's children first. Setting the parent it already has,
// or removing the parent of a root, changes nothing.
//
// Refusals. A change whose child or parent is not alive when it is applied
// (killed at an earlier refresh, a stale id, the null id of a refused
// creation), or that would make a cycle (the parent is the child or one of
// its descendants), is refused: nothing changes, and the observer
// (ctx.observe_refresh) gets a refresh_event of kind refused_parent with
// the child in `entity` and the parent in `other` (null_entity for
// remove_parent); ctx.refused_parent_changes() counts the latest refresh's.
// An entity marked dead in the same step is still alive here: it may be
// given children, which then share its fate (below).
//
// Kills. Killing an entity with children, at the refresh, either kills its
// whole subtree (strata::kill_children) or makes each of its children a
// root with its own subtree (strata::detach_children). The observer hears of
// each entity the relation touched, before phase 2's events: a
// killed_with_parent (kill_children) or detached_from_parent
// (detach_children) event per child, `entity` the child and `other` the
// killed parent, breadth-first from the entities killed directly, those in
// index order, each one's children in children order. The kills themselves
// then report as every kill does (refresh_event.h).
//
// Order. children_of(e) lists e's children in the order they were attached
// (the most recent last); a child that leaves and comes back goes last. A
// system in hierarchy order visits the roots in index order, then each
// depth level in index order but for the entities moved into or within it
// since the refresh last sorted it (it sorts a level once more than a
// quarter of its neighbouring entries are out of order): the order
// depends on the changes applied alone, not on threads or schedulers.
//
// Queries: parent_of(e) (null_entity for a root or an entity that is not
// alive), children_of(e) (a forward range of entity_id, empty for a leaf
// or an entity that is not alive), depth_of(e), root_of(e) (e for a root).
// On the context between steps, on the step and defer proxies, and on a
// system's data proxy (reading the relation never races: it changes only
// at the refresh). O(1) each but root_of, O(depth).
//
// Storage (context/internal/hierarchy_storage.h): per entity index one
// fixed-size node (parent, first and last child, next and previous
// sibling, depth, position in its depth level) and a has-parent bit, and
// per depth from 1 a dense array of (entity, parent) index pairs with
// back-references, which a system in hierarchy order sweeps level by level,
// kept near index order so that the sweep reads components forward through
// memory: no heap allocation per entity, none in a steady state. The
// refresh keeps it up to date incrementally: a set_parent costs O(depth)
// for the cycle check plus O(size of the moved subtree) to move it between
// depth levels; a kill O(1) plus its subtree; nothing else is ever rebuilt
// but a level's sort, amortized over the changes that scrambled it
// (re-parenting at the same depth never scrambles one).
//
// Cost for programs without a hierarchy: none. Without .hierarchy(...) the
// context holds no hierarchy storage and the refresh has no hierarchy phase
// (decided at compile time); the operations above are then compile errors
// naming the setting.
//
// Snapshots (context/snapshot.h) and ctx.save / ctx.load
// (context/save_load.h) carry the relation: a restored or loaded world has
// the same parents, children in the same order and the same depth levels,
// so systems in hierarchy order visit its entities in the same order. Load
// refuses (load_error::malformed) a file whose relation does not hold
// together: a parent or child index out of range or not alive, an entity
// listed twice, a parent not one level up (a cycle), children listed under
// another parent.
//
// Thread-safety: queries may run concurrently with each other (systems);
// changes are queued by the thread that owns the proxy and applied by the
// refresh, which never runs concurrently with systems.
#ifndef STRATA_CONTEXT_HIERARCHY_H_
#define STRATA_CONTEXT_HIERARCHY_H_

namespace strata {

// What killing a parent does to its children (.hierarchy(...) in the
// settings). A type per choice: the refresh's cascade is compiled for it.
template <bool KillsChildren>
struct hierarchy_relation {
  static constexpr bool kills_children = KillsChildren;
};
// Killing a parent kills its descendants at the same refresh.
inline constexpr hierarchy_relation<true> kill_children{};
// Killing a parent makes its children roots (each keeps its subtree).
inline constexpr hierarchy_relation<false> detach_children{};

namespace context_internal {
// The settings' default: no hierarchy, no storage, no refresh phase.
struct no_hierarchy {};
}  // namespace context_internal

template <typename T>
inline constexpr bool is_hierarchy_relation_v = false;
template <bool KillsChildren>
inline constexpr bool
    is_hierarchy_relation_v<hierarchy_relation<KillsChildren>> = true;

}  // namespace strata

#endif  // STRATA_CONTEXT_HIERARCHY_H_
