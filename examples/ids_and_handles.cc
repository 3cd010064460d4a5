// Ids, handles and stale ids; a full fixed entity limit.
//
// An entity id is an index plus a version ("index@version"). When an entity
// is killed its index is recycled with the next version, so an old id never
// names the new entity: alive(old id) is false, and so is valid(handle) for
// a handle made from it. Systems that keep ids in components (here a
// `target`) check them with data.try_get / data.alive, or act on them
// through the effect channel (data.send), which drops a message to a stale
// id and counts it (ctx.dropped_messages()) instead of delivering it to the
// entity that reuses the index.
//
// The second part fills a fixed_entity_limit<4>: in a step,
// try_create_entity() returns std::nullopt (create_entity() would
// check-fail); in a deferred function create_entity() returns
// strata::null_entity and ctx.refused_creations() counts it. Existing
// entities are untouched either way.
//
//   bazel run //examples:ids_and_handles
#include <cstdio>
#include <string>

#include "strata.h"

struct hp {
  int value;
};
struct target {  // an id kept in a component: may turn stale
  strata::entity_id id;
};
namespace ct {
inline constexpr auto hp = strata::tag<::hp>;
inline constexpr auto target = strata::tag<::target>;
}  // namespace ct

struct bite {  // an effect channel message
  int damage = 1;
};

const char* yes(bool b) { return b ? "yes" : "no"; }

// Reports, for every hunter, whether its target is still there, and bites
// it.
struct hunter {
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](strata::entity_id e, const target& t) {
      const hp* prey = data.try_read(ct::hp, t.id);  // null when stale
      std::printf("  hunter %s: target %s alive: %s, hp: %d\n",
                  to_string(e).c_str(), to_string(t.id).c_str(),
                  yes(data.alive(t.id)), prey ? prey->value : -1);
      data.send(e, t.id, bite{});  // dropped (and counted) when stale
    });
  }
};

// Applies the bites sent to each entity with hp.
struct wounds {
  template <typename Data>
  void process(Data& data) {
    data.for_each([&](strata::entity_id e, hp& h) {
      for (const auto& m : data.messages(strata::tag<bite>, e)) {
        h.value -= m.value.damage;
        std::printf("  %s bitten by %s: hp %d\n", to_string(e).c_str(),
                    to_string(m.sender).c_str(), h.value);
      }
    });
  }
};

// Asks for three entities from deferred functions: a full limit refuses.
struct spawner {
  template <typename Data>
  void process(Data& data) {
    for (int i = 0; i < 3; ++i) {
      data.defer([](auto& proxy) {
        const strata::entity_id e = proxy.create_entity();
        std::printf("  deferred create_entity(): %s\n", to_string(e).c_str());
      });
    }
  }
};

namespace st {
inline constexpr auto hunter = strata::tag<::hunter>;
inline constexpr auto wounds = strata::tag<::wounds>;
inline constexpr auto spawner = strata::tag<::spawner>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .fixed_entity_limit<4>()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::hp),
            strata::component_signature::make(ct::target)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::hunter)
                .read(ct::target)
                .read_optional(ct::hp)
                .sends<bite>(),
            strata::system_signature::make(st::wounds)
                .write(ct::hp)
                .receives<bite>()
                .dependencies(st::hunter),
            strata::system_signature::make(st::spawner)))
        .threads(1);

int main() {
  auto ctx = strata::make_context<settings>();
  auto run = [](auto selector) {
    return [selector](auto& proxy) {
      proxy.execute_systems_from(selector)(
          strata::execution_adapter::all().for_subtasks(
              [](auto& system, auto& data) { system.process(data); }));
    };
  };

  strata::entity_id prey, hunter_id;
  strata::entity_handle handle;
  ctx.step([&](auto& proxy) {
    prey = proxy.create_entity();
    proxy.add_component(ct::hp, prey, 10);
    handle = proxy.make_handle(prey);
    hunter_id = proxy.create_entity();
    proxy.add_component(ct::target, hunter_id, prey);
  });
  std::printf("prey %s, hunter %s, null id: %s\n", to_string(prey).c_str(),
              to_string(hunter_id).c_str(),
              to_string(strata::null_entity).c_str());
  ctx.step(run(st::hunter));

  std::printf("kill the prey through its handle\n");
  ctx.step([&](auto& proxy) {
    std::printf("  handle %s valid: %s\n", to_string(handle).c_str(),
                yes(proxy.valid(handle)));
    proxy.kill_entity(handle);
  });
  ctx.step([&](auto& proxy) {
    const strata::entity_id reused = proxy.create_entity();
    std::printf("  new entity %s reuses index %u\n", to_string(reused).c_str(),
                static_cast<unsigned>(reused.index()));
    proxy.add_component(ct::hp, reused, 99);
    std::printf("  old id alive: %s, handle valid: %s, kill old id: %s\n",
                yes(proxy.alive(prey)), yes(proxy.valid(handle)),
                yes(proxy.kill_entity(prey)));
  });
  ctx.step(run(st::hunter));  // and wounds, which depends on it
  std::printf("  bites dropped: %zu\n", ctx.dropped_messages());

  std::printf("fill the fixed limit of 4\n");
  ctx.step([&](auto& proxy) {
    proxy.create_entity();
    auto fourth = proxy.try_create_entity();
    auto fifth = proxy.try_create_entity();
    std::printf("  try_create_entity(): %s, then: %s; %zu entities\n",
                fourth.has_value() ? to_string(*fourth).c_str() : "refused",
                fifth.has_value() ? to_string(*fifth).c_str() : "refused",
                proxy.entity_count());
  });
  ctx.step(run(st::spawner));
  std::printf("  refused creations: %zu, entities: %zu\n",
              ctx.refused_creations(), ctx.entity_count());
}
