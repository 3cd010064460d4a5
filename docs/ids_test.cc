// The snippets of docs/guide/05-ids-and-handles.md, compiled and run. The
// text between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct hp {
  int value;
};
struct target {
  strata::entity_id id;
};
namespace ct {
inline constexpr auto hp = strata::tag<::hp>;
inline constexpr auto target = strata::tag<::target>;
}  // namespace ct

// --- snippet: stored-ids ---
struct bite {  // a message: plain data
  int damage = 1;
};

struct hunter {  // may split: it sends, and writes nothing
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, const target& t) {
      // t.id came from a component, not from this system's iteration: it
      // may be stale. A message to a dead or stale id is dropped (and
      // counted), never delivered to the entity that now owns the slot.
      data.send(self, t.id, bite{});
    });
  }
};

struct wounds {  // may split too: each entity applies its own bites
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, hp& p) {
      for (const auto& m : data.messages(strata::tag<bite>, self)) {
        p.value -= m.value.damage;
      }
    });
  }
};
// --- end snippet ---

namespace st {
inline constexpr auto hunter = strata::tag<::hunter>;
inline constexpr auto wounds = strata::tag<::wounds>;
}  // namespace st

// --- snippet: stored-ids-signatures ---
constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::hp),
            strata::component_signature::make(ct::target)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::hunter)
                .read(ct::target)
                .sends<bite>(),
            strata::system_signature::make(st::wounds)
                .write(ct::hp)
                .receives<bite>()
                .dependencies(st::hunter)))  // after every sender of bite
        .threads(2);
// --- end snippet ---

void run_systems(auto& proxy) {
  proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}

TEST(IdsGuideTest, IdAnatomy) {
  // --- snippet: id-anatomy ---
  const strata::entity_id id = strata::entity_id::combine(7, 2);
  EXPECT_EQ(id.index(), 7u);    // which slot
  EXPECT_EQ(id.version(), 2u);  // how many times the slot was recycled
  EXPECT_EQ(to_string(id), "7@2");
  EXPECT_EQ(to_string(strata::null_entity), "null");
  EXPECT_TRUE(strata::null_entity.is_null());
  EXPECT_EQ(strata::entity_id{}, strata::null_entity);  // default: null
  EXPECT_EQ(sizeof(strata::entity_id), 4u);             // entity_id64: 8 bytes
  // --- end snippet ---
}

TEST(IdsGuideTest, StaleIdsAndHandles) {
  auto ctx = strata::make_context(settings);
  // --- snippet: stale ---
  strata::entity_id old_id;
  strata::entity_handle handle;
  ctx.step([&](auto& proxy) {
    old_id = proxy.create_entity();
    handle = proxy.make_handle(old_id);  // check-fails on a dead id
  });
  ctx.step([&](auto& proxy) {
    EXPECT_TRUE(proxy.valid(handle));
    EXPECT_TRUE(proxy.kill_entity(handle));  // a stale handle check-fails
  });
  ctx.step([&](auto& proxy) {
    const strata::entity_id reused = proxy.create_entity();
    EXPECT_EQ(reused.index(), old_id.index());  // the slot is reused...
    EXPECT_NE(reused, old_id);                  // ...with a new version
    EXPECT_FALSE(proxy.alive(old_id));          // so the old id stays dead
    EXPECT_FALSE(proxy.valid(handle));          // and the handle invalid
    EXPECT_FALSE(proxy.kill_entity(old_id));    // a no-op
    EXPECT_EQ(handle.unchecked_id(), old_id);   // no check: avoid
  });
  // --- end snippet ---
}

TEST(IdsGuideTest, IdsInComponents) {
  auto ctx = strata::make_context(settings);
  // --- snippet: stored-ids-run ---
  strata::entity_id prey;
  ctx.step([&](auto& proxy) {
    prey = proxy.create_entity();
    proxy.add_component(ct::hp, prey, 3);
    proxy.add_component(ct::target, proxy.create_entity(), prey);
  });
  ctx.step([&](auto& proxy) { run_systems(proxy); });  // a hit
  EXPECT_EQ(ctx.get(ct::hp, prey).value, 2);
  ctx.step([&](auto& proxy) { proxy.kill_entity(prey); });
  strata::entity_id reused;
  ctx.step([&](auto& proxy) {
    reused = proxy.create_entity();  // reuses the slot
    proxy.add_component(ct::hp, reused, 9);
  });
  ctx.step([&](auto& proxy) { run_systems(proxy); });
  EXPECT_EQ(reused.index(), prey.index());
  EXPECT_EQ(ctx.get(ct::hp, reused).value, 9);  // not bitten
  EXPECT_EQ(ctx.dropped_messages(), 1u);        // the bite to the stale id
  // --- end snippet ---
}

TEST(IdsGuideTest, Subscriptions) {
  auto ctx = strata::make_context(settings);
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 3; ++i) {
      proxy.add_component(ct::target, proxy.create_entity(),
                          strata::null_entity);
    }
  });
  // --- snippet: subscription ---
  ctx.step([&](auto& proxy) {
    auto& instance = proxy.instance(st::hunter);
    std::vector<strata::entity_id> ids(instance.subscribed().begin(),
                                       instance.subscribed().end());
    EXPECT_EQ(ids.size(), instance.subscribed_count());  // index order
    EXPECT_TRUE(instance.subscribed().contains(ids[1]));
    EXPECT_EQ(instance.subscribed()[2], ids[2]);  // by rank
    EXPECT_TRUE(proxy.is_in_system(st::hunter, ids[0]));
    EXPECT_TRUE(proxy.any_entity_in(st::hunter));
  });
  // --- end snippet ---
}

}  // namespace
