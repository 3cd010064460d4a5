// data.read (context/data_proxy.h): const T& of a read() or a write()
// component, by id, with the same checks as data.get; reading marks no
// change (a changed() filter does not see it), where data.get does.
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>
#include <vector>

#include "context/context.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::testing::position;
using strata::testing::velocity;
namespace ct = strata::testing::ct;

bool write_through_get = false;  // set while no system runs

// Reads both components by id; writes position through get when asked.
struct reader {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      const position& p = data.read(ct::position, e);  // a write() component
      const velocity& v = data.read(ct::velocity, e);  // a read() component
      data.output().push_back(p.x + v.x);
      if (write_through_get) data.get(ct::position, e).x += 1;
    });
  }
};
// Sees the entities whose position changed since its previous run.
struct watcher {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) { data.output().push_back(e); });
  }
};

constexpr auto settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position, ct::velocity)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<reader>)
                .write(ct::position)
                .read(ct::velocity)
                .output<std::vector<float>>(),
            strata::system_signature::make(strata::tag<watcher>)
                .read(ct::position)
                .changed(ct::position)
                .dependencies(strata::tag<reader>)
                .output<std::vector<entity_id>>()));

// Runs both systems once; returns what each put in its output.
template <typename Context>
std::pair<std::vector<float>, std::vector<entity_id>> run(Context& ctx) {
  std::vector<float> sums;
  std::vector<entity_id> changed;
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  ctx.step([&](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [&](auto& system, auto& data) {
          system.process(data);
          for (const auto& item : data.output()) {
            if constexpr (std::is_same_v<std::decay_t<decltype(item)>, float>) {
              sums.push_back(item);
            } else {
              changed.push_back(item);
            }
          }
        }));
  });
  return {sums, changed};
}

TEST(ReadAccessTest, ReadGivesReadAndWrittenComponentsAndMarksNoChange) {
  auto ctx = strata::make_context<settings>();
  entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e, 1.f, 0.f);
    proxy.add_component(ct::velocity, e, 2.f, 0.f);
  });
  write_through_get = false;
  const auto [sums, changed] = run(ctx);
  EXPECT_EQ(sums, std::vector<float>{3.f});
  EXPECT_TRUE(changed.empty()) << "data.read marked a change";
  EXPECT_EQ(ctx.get(ct::position, e).x, 1.f);
}

// The same run writing through data.get: the watcher sees the change, so
// the test above could fail.
TEST(ReadAccessTest, GetOfAWrittenComponentMarksAChange) {
  auto ctx = strata::make_context<settings>();
  entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e, 1.f, 0.f);
    proxy.add_component(ct::velocity, e, 2.f, 0.f);
  });
  write_through_get = true;
  const auto [sums, changed] = run(ctx);
  write_through_get = false;
  EXPECT_EQ(sums, std::vector<float>{4.f});
  EXPECT_EQ(changed, std::vector<entity_id>{e});
  EXPECT_EQ(ctx.get(ct::position, e).x, 3.f);
}

}  // namespace
