// Filters (exclude, optional components), resources, and a system built
// with constructor arguments.
//
//   * `fall` moves every body that is not `anchored` (.exclude): anchored
//     bodies are not the system's entities at all; it slows bodies that
//     happen to have `drag` (.read_optional: data.try_get gives a pointer,
//     null when absent); it reads the `wind` resource (.read_resource) and
//     has a constructor argument (its gravity), given to make_context with
//     strata::system_arguments(st::fall, ...);
//   * `tally` counts what fell into the `stats` resource (.write_resource)
//     and runs after fall (.dependencies), as the race check demands.
// Resources are declared in the settings (strata::resources(...)), value-
// initialized with the context and set up through ctx.resource<T>().
//
//   bazel run //examples:filters_and_resources
#include <cstdio>

#include "strata.h"

struct height {
  float y;
};
struct drag {
  float factor;
};
struct anchored {};
namespace ct {
inline constexpr auto height = strata::tag<::height>;
inline constexpr auto drag = strata::tag<::drag>;
inline constexpr auto anchored = strata::tag<::anchored>;
}  // namespace ct

struct wind {  // a resource: one per context
  float push = 0;
};
struct stats {
  int bodies = 0;
  int with_drag = 0;
};

struct fall {
  float gravity;  // not default-constructible: needs system_arguments
  explicit fall(float g) : gravity(g) {}

  template <typename Data>
  void process(Data& data) {
    const wind& w = data.template resource<wind>();
    data.for_each([&](strata::entity_id e, height& h) {
      float speed = gravity + w.push;
      if (const drag* d = data.try_read(ct::drag, e)) speed *= d->factor;
      h.y -= speed;
    });
  }
};

struct tally {
  template <typename Data>
  void process(Data& data) {
    stats& s = data.template resource<stats>();
    s = {};
    data.for_entities([&](strata::entity_id e) {
      ++s.bodies;
      if (data.has(ct::drag, e)) ++s.with_drag;
    });
  }
};

namespace st {
inline constexpr auto fall = strata::tag<::fall>;
inline constexpr auto tally = strata::tag<::tally>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::height),
            strata::component_signature::make(ct::drag).sparse(),
            strata::component_signature::make(ct::anchored)))
        .system_signatures(
            strata::system_signatures(strata::system_signature::make(st::fall)
                                          .write(ct::height)
                                          .read_optional(ct::drag)
                                          .exclude(ct::anchored)
                                          .read_resource<wind>(),
                                      strata::system_signature::make(st::tally)
                                          .read(ct::height)
                                          .exclude(ct::anchored)
                                          .write_resource<stats>()
                                          .dependencies(st::fall)))
        .resources(
            strata::resources(strata::resource<wind>, strata::resource<stats>))
        .threads(1);

int main() {
  auto ctx = strata::make_context<settings>(
      strata::system_arguments(st::fall, 2.0f));  // gravity 2
  ctx.resource<wind>().push = 1;                  // set up

  strata::entity_id plain, slowed, fixed;
  ctx.step([&](auto& proxy) {
    plain = proxy.create_entity();
    proxy.add_component(ct::height, plain, 100.f);
    slowed = proxy.create_entity();
    proxy.add_component(ct::height, slowed, 100.f);
    proxy.add_component(ct::drag, slowed, 0.5f);
    fixed = proxy.create_entity();
    proxy.add_component(ct::height, fixed, 100.f);
    proxy.add_component(ct::anchored, fixed);
  });
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
    std::printf("fall's gravity: %.1f, wind: %.1f\n",
                proxy.system(st::fall).gravity,
                proxy.template resource<wind>().push);
  });
  std::printf("plain:    y = %.1f\n", ctx.get(ct::height, plain).y);
  std::printf("slowed:   y = %.1f (drag 0.5)\n", ctx.get(ct::height, slowed).y);
  std::printf("anchored: y = %.1f (excluded)\n", ctx.get(ct::height, fixed).y);
  const stats& s = ctx.resource<stats>();
  std::printf("tally: %d bodies, %d with drag\n", s.bodies, s.with_drag);

  int unanchored = 0;
  ctx.for_each(strata::exclude<anchored>, [&](const height&) { ++unanchored; });
  std::printf("ctx.for_each(exclude<anchored>): %d bodies\n", unanchored);
}
