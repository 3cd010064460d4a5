// Systems declared .ordered_by(ct::x, compare) (scheduler/system_signature.h)
// visit exactly the order a std::stable_sort of the keys over ascending entity
// indices gives (the model), after random key changes (through a step proxy,
// and by an earlier system of the same step), creations, kills and removals
// of the key, at 1, 2 and 8 threads and under both schedulers, with the
// order split into subtasks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"

namespace {

using strata::entity_id;

// Ordered by depth only (strata::order_by_member): equal depths are
// frequent, so ties by index matter.
struct sprite {
  int depth = 0;
  int layer = 0;
};
// Ordered by its own operator<.
struct rank {
  std::uint32_t value = 0;
  friend bool operator<(const rank& a, const rank& b) {
    return a.value < b.value;
  }
};
namespace ct {
inline constexpr auto sprite = strata::tag<::sprite>;
inline constexpr auto rank = strata::tag<::rank>;
}  // namespace ct

using visits = std::vector<std::uint32_t>;

// Changes some depths before the ordered systems run (same step).
struct shuffle {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](entity_id e, sprite& s) {
      const std::uint32_t h = e.index() * 2654435761u + s.layer * 40503u;
      if (h % 23 == 0) s.depth = static_cast<int>(h >> 28);
      ++s.layer;
    });
  }
};
// Records the indices it visits, per subtask.
struct draw {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const sprite&) {
      data.output().push_back(e.index());
    });
  }
};
struct list_ranks {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) { data.output().push_back(e.index()); });
  }
};
namespace st {
inline constexpr auto shuffle = strata::tag<::shuffle>;
inline constexpr auto draw = strata::tag<::draw>;
inline constexpr auto list_ranks = strata::tag<::list_ranks>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::sprite),
    strata::component_signature::make(ct::rank).sparse());
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::shuffle).write(ct::sprite),
    strata::system_signature::make(st::draw)
        .read(ct::sprite)
        .dependencies(st::shuffle)
        .parallelism(strata::inner_parallelism::split_evenly(4))
        .output<visits>()
        .ordered_by(ct::sprite, strata::order_by_member<&sprite::depth>),
    strata::system_signature::make(st::list_ranks)
        .read(ct::rank)
        .parallelism(strata::inner_parallelism::split_evenly(3))
        .output<visits>()
        .ordered_by(ct::rank));
constexpr auto settings = strata::settings()
                              .allow_inner_parallelism()
                              .component_signatures(components)
                              .system_signatures(systems)
                              .scheduler(strata::scheduler::atomic_counter);

// The model: the entities with T, in ascending index order, stable-sorted
// by `less` of their T.
template <typename T, typename Context, typename Less>
visits expected_order(Context& ctx, Less less) {
  std::vector<std::pair<T, std::uint32_t>> keyed;
  ctx.for_each([&](entity_id e, const T& key) {
    keyed.emplace_back(key, static_cast<std::uint32_t>(e.index()));
  });
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  std::stable_sort(
      keyed.begin(), keyed.end(),
      [&](const auto& a, const auto& b) { return less(a.first, b.first); });
  visits order;
  for (const auto& k : keyed) order.push_back(k.second);
  return order;
}

template <typename Context, typename Tag>
visits visited(Context& ctx, Tag system) {
  visits all;
  ctx.step([&](auto& proxy) {
    proxy.for_system_outputs(system, [&](auto&, const visits& part) {
      all.insert(all.end(), part.begin(), part.end());
    });
  });
  return all;
}

// Random steps; returns every visited order, each checked against the
// model.
std::vector<visits> simulate(std::size_t threads,
                             strata::scheduler_kind scheduler) {
  auto ctx = strata::make_context<settings>(
      strata::run_options().threads(threads).scheduler(scheduler).hand_off(
          strata::hand_off::always));
  std::mt19937 rng(11);
  std::vector<entity_id> ids;
  const auto create = [&](auto& proxy, int n) {
    for (int i = 0; i < n; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::sprite, e, static_cast<int>(rng() % 16), 0);
      if (rng() % 3 != 0) {
        proxy.add_component(ct::rank, e,
                            static_cast<std::uint32_t>(rng() % 64));
      }
      ids.push_back(e);
    }
  };
  ctx.step([&](auto& proxy) { create(proxy, 500); });
  std::vector<visits> trail;
  for (int step = 0; step < 12; ++step) {
    ctx.step([&](auto& proxy) {
      // Few changes on most steps, many on some (the full-sort path).
      const int changes = step % 4 == 3 ? 400 : 10;
      proxy.for_each([&](entity_id, sprite& s) {
        if (static_cast<int>(rng() % 500) < changes) s.depth = rng() % 16;
      });
      proxy.for_each([&](entity_id, rank& r) {
        if (static_cast<int>(rng() % 500) < changes) r.value = rng() % 64;
      });
      for (int k = 0; k < 8; ++k) proxy.kill_entity(ids[rng() % ids.size()]);
      for (int k = 0; k < 4; ++k) {
        const entity_id e = ids[rng() % ids.size()];
        if (proxy.alive(e) && proxy.has_component(ct::rank, e)) {
          proxy.remove_component(ct::rank, e);
        }
      }
      create(proxy, 6);
    });
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
    const visits drawn = visited(ctx, st::draw);
    EXPECT_EQ(drawn,
              expected_order<sprite>(ctx,
                                     [](const sprite& a, const sprite& b) {
                                       return a.depth < b.depth;
                                     }))
        << "draw, step " << step;
    const visits ranked = visited(ctx, st::list_ranks);
    EXPECT_EQ(ranked, expected_order<rank>(ctx, std::less<>{}))
        << "list_ranks, step " << step;
    trail.push_back(drawn);
    trail.push_back(ranked);
    if (::testing::Test::HasFailure()) break;
  }
  return trail;
}

TEST(OrderedTest, VisitsTheStableSortOrderAtEveryThreadCountAndScheduler) {
  const std::vector<visits> reference =
      simulate(1, strata::scheduler_kind::sequential);
  ASSERT_FALSE(reference.empty());
  ASSERT_FALSE(reference.front().empty());
  for (std::size_t threads : {1u, 2u, 8u}) {
    for (strata::scheduler_kind scheduler :
         {strata::scheduler_kind::sequential,
          strata::scheduler_kind::atomic_counter}) {
      EXPECT_EQ(simulate(threads, scheduler), reference)
          << threads << " threads";
    }
  }
}

}  // namespace
