// The scenario of docs/ARCHITECTURE.md's "One step, top to bottom": a step
// whose callable creates an entity and runs every system with a
// for_subtasks adapter, one system calling data.for_each and killing an
// entity, on the atomic_counter scheduler. tools/step_path/count.py counts
// the files and jumps of the step under callgrind (its comment: how).
#include <cstdio>

#include "strata.h"

struct position {
  float x;
};
struct velocity {
  float dx;
};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
}  // namespace ct

struct move {
  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) { p.x += v.dx; });
  }
};
struct reap {
  template <typename Data>
  void process(Data& data) {
    data.for_each([&data](strata::entity_id e, const position& p) {
      if (p.x > 100.0f) data.kill_entity(e);
    });
  }
};
namespace st {
inline constexpr auto move = strata::tag<::move>;
inline constexpr auto reap = strata::tag<::reap>;
}  // namespace st

// The scenario on the default (adaptive) run policy, and on the fixed one.
constexpr auto adaptive_settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position),
            strata::component_signature::make(ct::velocity)))
        .system_signatures(
            strata::system_signatures(strata::system_signature::make(st::move)
                                          .write(ct::position)
                                          .read(ct::velocity),
                                      strata::system_signature::make(st::reap)
                                          .read(ct::position)
                                          .dependencies(st::move)))
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2);
constexpr auto fixed_settings =
    adaptive_settings.run_policy(strata::run_policy::fixed);

template <typename Context>
void step_of_the_scenario(Context& ctx) {
  ctx.step([](auto& proxy) {
    const auto e = proxy.create_entity();
    proxy.add_component(ct::position, e, 0.0f);
    proxy.add_component(ct::velocity, e, 60.0f);
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

using adaptive_context = decltype(strata::make_context<adaptive_settings>());
using fixed_context = decltype(strata::make_context<fixed_settings>());

// The steps callgrind measures lie between two marks
// (--dump-before='step_path_mark_*'): every path the steps take (the
// adaptive policy decides, probes, samples and remembers) after a first
// step that grows the arrays.
constexpr int kMeasuredSteps = 40;
[[gnu::noinline]] void step_path_mark_begin() { asm volatile(""); }
[[gnu::noinline]] void step_path_mark_end() { asm volatile(""); }
template <typename Context>
void measured_steps(Context& ctx) {
  step_path_mark_begin();
  for (int i = 0; i < kMeasuredSteps; ++i) step_of_the_scenario(ctx);
  step_path_mark_end();
}

int main() {
  auto adaptive = strata::make_context<adaptive_settings>();
  step_of_the_scenario(adaptive);
  measured_steps(adaptive);
  auto fixed = strata::make_context<fixed_settings>();
  step_of_the_scenario(fixed);
  measured_steps(fixed);
  std::printf("%zu and %zu entities\n", adaptive.entity_count(),
              fixed.entity_count());
}
