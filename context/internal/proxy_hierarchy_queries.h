// Internal to //context: the hierarchy queries every proxy offers
// (context/hierarchy.h): parent_of, children_of, depth_of, root_of, over the
// relation as the last refresh left it (never changed while systems run).
// The data proxy and the critical (step and defer) proxies derive from
// hierarchy_query_members<Proxy>, which reads Proxy's core_ (Proxy
// befriends it); without a hierarchy declared, each reports
// hierarchy_not_declared naming the query (internal/hierarchy_queries.h).
#ifndef STRATA_CONTEXT_INTERNAL_PROXY_HIERARCHY_QUERIES_H_
#define STRATA_CONTEXT_INTERNAL_PROXY_HIERARCHY_QUERIES_H_

#include <cstddef>

#include "context/internal/hierarchy_queries.h"
#include "entity/entity_id.h"

namespace strata::context_internal {

template <typename Proxy>
class hierarchy_query_members {
 public:
  entity_id parent_of(entity_id id) const {
    return hierarchy_access<hierarchy_operation::parent_of>(core()).parent_of(
        id);
  }
  auto children_of(entity_id id) const {
    return hierarchy_access<hierarchy_operation::children_of>(core())
        .children_of(id);
  }
  std::size_t depth_of(entity_id id) const {
    return hierarchy_access<hierarchy_operation::depth_of>(core()).depth_of(id);
  }
  entity_id root_of(entity_id id) const {
    return hierarchy_access<hierarchy_operation::root_of>(core()).root_of(id);
  }

 private:
  auto& core() const { return static_cast<const Proxy&>(*this).core_; }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_PROXY_HIERARCHY_QUERIES_H_
