// The snippets of docs/guide/05-ids-and-handles.md, compiled and run. The
// text between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
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
struct hunter {  // may split: it only reads, and names its prey per subtask
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](const target& t) { data.output().push_back(t.id); });
  }
};

struct wounds {  // never splits: the one place that writes other entities
  int hits = 0;
  template <typename Data>
  void process(Data& data) {
    data.for_previous_outputs(
        strata::tag<hunter>,
        [&](const hunter&, const std::vector<strata::entity_id>& prey) {
          for (strata::entity_id id : prey) {
            // id came from a component, not from this system's iteration:
            // it may be stale. try_get is null for a dead, stale or bare id.
            if (hp* p = data.try_get(ct::hp, id)) {
              p->value -= 1;
              ++hits;
            }
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
                .output<std::vector<strata::entity_id>>(),
            strata::system_signature::make(st::wounds)
                .write_optional(ct::hp)
                .dependencies(st::hunter)
                .parallelism(strata::inner_parallelism::none())))
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
  ctx.step([&](auto& proxy) { proxy.kill_entity(prey); });
  ctx.step([&](auto& proxy) {
    proxy.add_component(ct::hp, proxy.create_entity(), 9);  // reuses the slot
    run_systems(proxy);  // the stale target is skipped
    EXPECT_EQ(proxy.system(st::wounds).hits, 1);
  });
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
    EXPECT_EQ(ids.size(), instance.entity_count());  // ascending index order
    EXPECT_TRUE(instance.subscribed().contains(ids[1]));
    EXPECT_EQ(instance.subscribed()[2], ids[2]);  // by rank
    EXPECT_TRUE(proxy.is_in_system(st::hunter, ids[0]));
    EXPECT_TRUE(proxy.any_entity_in(st::hunter));
  });
  // --- end snippet ---
}

}  // namespace
