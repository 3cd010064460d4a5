// Must not compile: a user storage whose chunk lacks remove<T>() and clear().
#include "component_storage/component_storage.h"
#include "testing/components.h"

using strata::testing::position;

struct half_done_storage {
  template <typename Limit, typename... Components>
  struct chunk {
    template <typename T, typename... Args>
    T& create(strata::entity_id, Args&&...);
    template <typename T>
    T& get(strata::entity_id);
    template <typename T>
    const T& get(strata::entity_id) const;
  };
};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(strata::tag<position>)
        .storage(half_done_storage{}));

strata::component_storage<decltype(components), strata::dynamic_limit> storage;
