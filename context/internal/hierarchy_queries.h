// Internal to //context: the hierarchy's queries and requests as the context
// and its proxies offer them (context/hierarchy.h): ids in, ids out, over
// the index-based storage (internal/hierarchy_storage.h).
//
// hierarchy_access<Core>(core, operation) is what every forwarder calls:
// with no hierarchy declared it reports hierarchy_not_declared, naming the
// operation, and returns a view of an empty relation, so that nothing
// cascades from the report.
#ifndef STRATA_CONTEXT_INTERNAL_HIERARCHY_QUERIES_H_
#define STRATA_CONTEXT_INTERNAL_HIERARCHY_QUERIES_H_

#include <cstddef>
#include <type_traits>

#include "base/internal/standard_parts.h"
#include "context/internal/hierarchy_storage.h"
#include "entity/entity_id.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"

namespace strata {

// The operation a misuse names (hierarchy_not_declared<operation>).
namespace hierarchy_operation {
struct set_parent {};
struct remove_parent {};
struct parent_of {};
struct children_of {};
struct depth_of {};
struct root_of {};
struct refused_parent_changes {};
}  // namespace hierarchy_operation

namespace diagnostic {
// Operation names the call; Where, when given, the system that made it.
template <typename Operation, typename... Where>
inline constexpr bool hierarchy_not_declared = [] {
  static_assert(always_false<Operation, Where...>,
                "hierarchy operation (named above) in a program whose "
                "settings declare no hierarchy: add "
                ".hierarchy(strata::kill_children) or "
                ".hierarchy(strata::detach_children) to the settings");
  return false;
}();
template <typename System, typename Component>
inline constexpr bool parent_read_outside_hierarchy_order = [] {
  static_assert(always_false<System, Component>,
                "data.parent(ct::x, e) in a system whose signature does not "
                "declare .in_hierarchy_order() (system and component named "
                "above): add it, so that parents are visited, and written, "
                "before their children");
  return false;
}();

template <typename System>
inline constexpr bool hierarchy_order_without_hierarchy = [] {
  static_assert(always_false<System>,
                "a system declares .in_hierarchy_order() (named above) in a "
                "program whose settings declare no hierarchy: add "
                ".hierarchy(strata::kill_children) or "
                ".hierarchy(strata::detach_children) to the settings");
  return false;
}();

}  // namespace diagnostic

namespace context_internal {

// children_of(e): a forward range of entity_id over the intrusive list.
template <typename EntityStorage>
class child_range {
 public:
  class iterator {
   public:
    using value_type = entity_id;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const EntityStorage* entities, const hierarchy_storage* storage,
             std::size_t at)
        : entities_(entities), storage_(storage), at_(at) {}
    entity_id operator*() const { return entities_->live_id_at(at_); }
    iterator& operator++() {
      at_ = storage_->next_sibling(at_);
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.at_ == b.at_;
    }

   private:
    const EntityStorage* entities_ = nullptr;
    const hierarchy_storage* storage_ = nullptr;
    std::size_t at_ = hierarchy_storage::none;
  };

  child_range(const EntityStorage& entities, const hierarchy_storage& storage,
              std::size_t first)
      : entities_(&entities), storage_(&storage), first_(first) {}
  iterator begin() const { return {entities_, storage_, first_}; }
  iterator end() const {
    return {entities_, storage_, hierarchy_storage::none};
  }
  bool empty() const { return first_ == hierarchy_storage::none; }

 private:
  const EntityStorage* entities_;
  const hierarchy_storage* storage_;
  std::size_t first_;
};

template <typename EntityStorage>
class hierarchy_view {
 public:
  hierarchy_view(const EntityStorage& entities,
                 const hierarchy_storage& storage)
      : entities_(entities), storage_(storage) {}

  entity_id parent_of(entity_id id) const {
    if (!entities_.alive(id)) return null_entity;
    return id_or_null(storage_.parent(id.index()));
  }
  child_range<EntityStorage> children_of(entity_id id) const {
    const std::size_t first = entities_.alive(id)
                                  ? storage_.first_child(id.index())
                                  : hierarchy_storage::none;
    return {entities_, storage_, first};
  }
  std::size_t depth_of(entity_id id) const {
    return entities_.alive(id) ? storage_.depth(id.index()) : 0;
  }
  entity_id root_of(entity_id id) const {
    if (!entities_.alive(id)) return null_entity;
    return entities_.live_id_at(storage_.root(id.index()));
  }

 private:
  entity_id id_or_null(std::size_t index) const {
    return index == hierarchy_storage::none ? null_entity
                                            : entities_.live_id_at(index);
  }
  const EntityStorage& entities_;
  const hierarchy_storage& storage_;
};

// The view of `core`'s hierarchy; reports Operation without one.
template <typename Operation, typename Core>
auto hierarchy_access(const Core& core) {
  using view = hierarchy_view<typename Core::entity_storage_type>;
  if constexpr (!Core::has_hierarchy) {
    diagnostic::report(diagnostic::hierarchy_not_declared<Operation>);
    static const hierarchy_storage empty;
    return view(core.entities(), empty);
  } else {
    return view(core.entities(), core.hierarchy().storage);
  }
}

// The first system of a system_signature_list declared
// .in_hierarchy_order(), or void.
template <typename... Signatures>
constexpr std::size_t first_hierarchy_ordered(type_list<Signatures...>) {
  constexpr bool ordered[] = {Signatures::visits_in_hierarchy_order..., true};
  std::size_t i = 0;
  while (!ordered[i]) ++i;
  return i;
}
template <typename Signatures,
          std::size_t First = first_hierarchy_ordered(Signatures{}),
          bool Found = (First < size_v<Signatures>)>
struct first_hierarchy_ordered_system {
  using type = void;
};
template <typename Signatures, std::size_t First>
struct first_hierarchy_ordered_system<Signatures, First, true> {
  using type = typename type_at_t<First, Signatures>::system_type;
};
template <typename SystemList>
using hierarchy_ordered_system = typename first_hierarchy_ordered_system<
    typename SystemList::signature_types>::type;

// ctx.refused_parent_changes() (0, reported, without a hierarchy).
template <typename Operation, typename Core>
std::size_t refused_parent_changes_of(const Core& core) {
  if constexpr (!Core::has_hierarchy) {
    diagnostic::report(diagnostic::hierarchy_not_declared<Operation>);
    return 0;
  } else {
    return core.refused_parent_changes();
  }
}

// Queues set_parent (parent not null) or remove_parent for the refresh.
template <typename Operation, typename Core>
void request_parent(Core& core, entity_id child, entity_id parent) {
  if constexpr (!Core::has_hierarchy) {
    diagnostic::report(diagnostic::hierarchy_not_declared<Operation>);
  } else {
    core.hierarchy().requests.push_back({child, parent});
  }
}

}  // namespace context_internal
}  // namespace strata

#endif  // STRATA_CONTEXT_INTERNAL_HIERARCHY_QUERIES_H_
