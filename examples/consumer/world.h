// A tiny world on Strata: one component (health), one system (decay) that
// takes one hit point from every entity per step and kills those at zero.
#ifndef STRATA_CONSUMER_WORLD_H_
#define STRATA_CONSUMER_WORLD_H_

#include <vector>

#include "strata.h"

namespace consumer {

struct health {
  int hp;
};

namespace ct {  // component tags
inline constexpr auto health = strata::tag<consumer::health>;
}  // namespace ct

struct decay {
  template <typename Data>
  void process(Data& data) {
    data.for_entities([&](strata::entity_id e) {
      if (--data.get(ct::health, e).hp <= 0) data.kill_entity(e);
    });
  }
};

namespace st {  // system tags
inline constexpr auto decay = strata::tag<consumer::decay>;
}  // namespace st

inline constexpr auto settings =
    strata::settings()
        .fixed_entity_limit<1'000>()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::health)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::decay).write(ct::health)))
        .scheduler(strata::scheduler::atomic_counter);

// Creates one entity per entry of `hit_points`, with that much health;
// returns their ids in order.
template <typename Context>
std::vector<strata::entity_id> spawn(Context& ctx,
                                     std::vector<int> hit_points) {
  std::vector<strata::entity_id> ids;
  ctx.step([&](auto& proxy) {
    for (int hp : hit_points) {
      auto e = proxy.create_entity();
      proxy.add_component(ct::health, e, hp);
      ids.push_back(e);
    }
  });  // refresh: the new entities join the decay system
  return ids;
}

// One step of the world: every system runs once, then the refresh applies
// the kills.
template <typename Context>
void step(Context& ctx) {
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

}  // namespace consumer

#endif  // STRATA_CONSUMER_WORLD_H_
