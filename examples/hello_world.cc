// Hello, Strata: one component, one system, data.for_each.
//
// A `counter` component, a `tick` system that adds one to every counter, one
// step that creates three entities and three steps that run the system. The
// program prints every counter at the end: 3, 13 and 23.
//
//   bazel run //examples:hello_world
#include <cstdio>
#include <string>

#include "strata.h"

struct counter {
  int value;
};
namespace ct {  // component tags: types as values
inline constexpr auto counter = strata::tag<::counter>;
}  // namespace ct

// A system is any class; the context hands each run a data proxy.
struct tick {
  template <typename Data>
  void process(Data& data) {
    // The parameter types name the components: counter& needs write().
    data.for_each([](counter& c) { ++c.value; });
  }
};
namespace st {  // system tags
inline constexpr auto tick = strata::tag<::tick>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::counter)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::tick).write(ct::counter)));

int main() {
  auto ctx = strata::make_context<settings>();
  ctx.step([](auto& proxy) {  // a step: critical operations are allowed
    for (int i = 0; i < 3; ++i) {
      proxy.add_component(ct::counter, proxy.create_entity(), i * 10);
    }
  });  // the refresh: the new entities join `tick`
  for (int step = 0; step < 3; ++step) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
  }
  std::printf("%zu entities after %llu steps\n", ctx.entity_count(),
              static_cast<unsigned long long>(ctx.step_count()));
  ctx.for_each([](strata::entity_id e, const counter& c) {
    std::printf("entity %s: counter = %d\n", to_string(e).c_str(), c.value);
  });
}
