// The step and the refresh: what happens when.
//
// Every step runs the step function, then the refresh: (1) deferred
// functions, (2) kills, (3) matching entities to systems. The program
// narrates four steps; lines starting with "  refresh:" come from
// ctx.observe_refresh, lines with "hook:" from the system's own
// on_subscribe / on_unsubscribe members. What it shows:
//   * a created entity is alive at once but in no system until the refresh;
//   * a killed entity stays alive, and in its systems, until the refresh;
//   * add_component: the component is there at once; the entity joins or
//     leaves systems at the refresh (here `frozen` takes it out of mover);
//   * remove_component leaves the systems that require the component at
//     once; removed and added again in one step is silent (no events);
//   * systems kill and defer work; deferred functions run first in the
//     refresh, then kills, then matching.
//
//   bazel run //examples:refresh
#include <cstdio>
#include <string>

#include "strata.h"

struct position {
  float x;
};
struct velocity {
  float x;
};
struct frozen {};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto frozen = strata::tag<::frozen>;
}  // namespace ct

const char* yes(bool b) { return b ? "yes" : "no"; }

struct mover {
  void on_subscribe(strata::entity_id e) {
    std::printf("  hook: mover gained %s\n", to_string(e).c_str());
  }
  void on_unsubscribe(strata::entity_id e) {
    std::printf("  hook: mover lost %s\n", to_string(e).c_str());
  }
  template <typename Data>
  void process(Data& data) {
    data.for_each([](position& p, const velocity& v) { p.x += v.x; });
  }
};

// Kills what went past x = 1 and defers a replacement at x = 0.
struct janitor {
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](strata::entity_id e, const position& p) {
      if (p.x < 1) return;
      std::printf("  janitor: kill %s, defer a replacement\n",
                  to_string(e).c_str());
      data.kill_entity(e);
      data.defer([](auto& proxy) {
        const strata::entity_id fresh = proxy.create_entity();
        proxy.add_component(ct::position, fresh, 0.f);
        proxy.add_component(ct::velocity, fresh, 1.f);
        std::printf("  deferred: created %s\n", to_string(fresh).c_str());
      });
    });
  }
};

namespace st {
inline constexpr auto mover = strata::tag<::mover>;
inline constexpr auto janitor = strata::tag<::janitor>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity),
            strata::component_signature::make(ct::frozen)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::mover)
                .read(ct::velocity)
                .write(ct::position)
                .exclude(ct::frozen),
            strata::system_signature::make(st::janitor)
                .read(ct::position)
                .dependencies(st::mover)))
        .threads(1);

int main() {
  auto ctx = strata::make_context<settings>();
  ctx.observe_refresh([](const strata::refresh_event& event) {
    switch (event.what) {
      case strata::refresh_event::kind::subscribe:
        std::printf("  refresh: %s joins %s\n", to_string(event.entity).c_str(),
                    std::string(event.system_name).c_str());
        break;
      case strata::refresh_event::kind::unsubscribe:
        std::printf("  refresh: %s leaves %s\n",
                    to_string(event.entity).c_str(),
                    std::string(event.system_name).c_str());
        break;
      case strata::refresh_event::kind::reclaim:
        std::printf("  refresh: %s reclaimed\n",
                    to_string(event.entity).c_str());
        break;
      case strata::refresh_event::kind::refused_creations:
        std::printf("  refresh: %zu creations refused\n", event.count);
        break;
      default:  // hierarchy events: this program declares no hierarchy
        break;
    }
  });
  auto run_systems = [](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  };

  strata::entity_id a, b;
  std::printf("step 1: create a (position, velocity) and b (position)\n");
  ctx.step([&](auto& proxy) {
    a = proxy.create_entity();
    proxy.add_component(ct::position, a, 0.f);
    proxy.add_component(ct::velocity, a, 1.f);
    b = proxy.create_entity();
    proxy.add_component(ct::position, b, 0.f);
    std::printf("  a alive: %s, in mover: %s\n", yes(proxy.alive(a)),
                yes(proxy.is_in_system(st::mover, a)));
  });

  std::printf("step 2: kill b, give a `frozen`\n");
  ctx.step([&](auto& proxy) {
    proxy.kill_entity(b);
    proxy.add_component(ct::frozen, a);
    std::printf("  b alive: %s, in janitor: %s\n", yes(proxy.alive(b)),
                yes(proxy.is_in_system(st::janitor, b)));
    std::printf("  a has frozen: %s, in mover: %s\n",
                yes(proxy.has_component(ct::frozen, a)),
                yes(proxy.is_in_system(st::mover, a)));
  });
  std::printf("  b alive after the refresh: %s\n", yes(ctx.alive(b)));

  std::printf("step 3: remove a's `frozen`; remove and re-add its position\n");
  ctx.step([&](auto& proxy) {
    proxy.remove_component(ct::frozen, a);
    proxy.remove_component(ct::position, a);
    std::printf("  a in janitor after the remove: %s\n",
                yes(proxy.is_in_system(st::janitor, a)));
    proxy.add_component(ct::position, a, 0.f);
    std::printf("  a in janitor after the add: %s\n",
                yes(proxy.is_in_system(st::janitor, a)));
  });

  std::printf("step 4: run the systems\n");
  ctx.step([&](auto& proxy) { run_systems(proxy); });
  std::printf("  a alive: %s; %zu entity, %llu steps\n", yes(ctx.alive(a)),
              ctx.entity_count(),
              static_cast<unsigned long long>(ctx.step_count()));
}
