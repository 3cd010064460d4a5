#include "user_workspace/user_code.h"

#include "strata.h"

namespace user_workspace {
namespace {

struct counter {
  int value = 0;
};
inline constexpr auto counter_tag = strata::tag<counter>;

struct cull_odd {
  // `frame` is unused on purpose (-Wunused-parameter): a warning, not an
  // error, in a user's package.
  template <typename Data>
  void process(Data& data, int frame) {
    data.for_entities([&](strata::entity_id e) {
      if (e.index() % 2 == 1) data.kill_entity(e);
    });
  }
};

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(counter_tag)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<cull_odd>)
                .read(counter_tag)));

}  // namespace

std::size_t survivors(std::size_t entities, int steps) {
  auto ctx = strata::make_context<settings>();
  ctx.step([&](auto& proxy) {
    for (std::size_t i = 0; i < entities; ++i) {
      proxy.add_component(counter_tag, proxy.create_entity());
    }
  });
  for (int frame = 0; frame < steps; ++frame) {
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [&](auto& system, auto& data) { system.process(data, frame); }));
    });
  }
  return ctx.entity_count();
}

}  // namespace user_workspace
