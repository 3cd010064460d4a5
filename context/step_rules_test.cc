// The rules that make a step's result independent of the schedule, and the
// documented results of failures, through the public API (context/context.h,
// context/refresh.h, context/step_proxy.h):
//   * deferred functions run in (system, run within the step, subtask,
//     deferral) order: a system run twice in a step (two execute_systems,
//     execute_systems_from, a detailed_instance calling for_subtasks twice)
//     gives the same order at every thread count;
//   * a throwing for_each or for_entities callable: every entity is still
//     visited, the lowest-rank exception is rethrown, and the state after
//     the step is the same under both schedulers at 1, 2, 3 and 8 threads;
//   * a run that threw leaves no deferred work or kills, even when the
//     system runs again in the same step;
//   * kills and deferred functions left by one subtask alone, not the
//     first, reach the refresh under both schedulers and both run policies;
//   * a component constructor that throws while replacing leaves the old
//     component; a failed move into storage takes the entity out of the
//     systems that require it;
//   * add_component may copy from a component of the same storage while the
//     storage grows;
//   * add_components on a refused creation's null id discards, as
//     add_component does; create_entities says how many it made; refusals
//     reach the refresh observer;
//   * a throwing deferred function lets the others run, and the step's own
//     exception wins over it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "component_storage/hash_map_chunk.h"
#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"
#include "testing/timeout.h"

namespace {

using strata::entity_id;
using strata::testing::position;

struct marker {  // on entities created by deferred functions
  int run = 0;
  int x = 0;
  friend bool operator==(const marker&, const marker&) = default;
};
// Throws when built from a negative value.
struct fragile {
  int value = 0;
  fragile() = default;
  explicit fragile(int v) : value(v) {
    if (v < 0) throw std::invalid_argument("fragile: negative");
  }
};
struct fragile_sparse : fragile {
  using fragile::fragile;
};
// Its move constructor throws while `fail_moves` is set.
struct brittle {
  static inline bool fail_moves = false;
  int value = 0;
  explicit brittle(int v) : value(v) {}
  brittle(const brittle&) = default;
  brittle(brittle&& other) : value(other.value) {
    if (fail_moves) throw std::runtime_error("brittle: move failed");
  }
  brittle& operator=(const brittle&) = default;
  brittle& operator=(brittle&&) = default;
};
struct label {  // a heap-allocated string: a dangling copy shows
  std::string text;
};
struct label_hashed {
  std::string text;
};

namespace ct {
inline constexpr auto position = strata::testing::ct::position;
inline constexpr auto marker = strata::tag<::marker>;
inline constexpr auto fragile = strata::tag<::fragile>;
inline constexpr auto fragile_sparse = strata::tag<::fragile_sparse>;
inline constexpr auto brittle = strata::tag<::brittle>;
inline constexpr auto label = strata::tag<::label>;
inline constexpr auto label_hashed = strata::tag<::label_hashed>;
}  // namespace ct

// What visitor does, set by the step function while no system runs.
struct visit_config {
  int run = 0;
  int throw_every = 0;       // throw at x > 0, x % throw_every == 0 (0: never)
  bool mark = false;         // defer a marked creation per visit
  bool kill = false;         // kill x % 5 == 1
  int deferred_throw = -1;   // defer a throwing function at this x
  std::size_t spawn = 0;     // at x == 0: defer create_entities(spawn, ...)
  bool by_entities = false;  // visit through for_entities, not for_each
};
visit_config config;
std::size_t spawned = 0;  // what that create_entities returned
bool spawn_saw_null = false;

// Writes every entity's position; y counts the visits' two halves.
struct visitor {
  template <typename Data>
  void process(Data& data) const {
    if (config.by_entities) {
      // for_entities reaches no written component by id (the split rule,
      // context/data_proxy.h): x is the entity's index (make_world gives
      // entity i the x i), and the visit's deferred work, kills and
      // exceptions are what it leaves.
      data.for_entities([&](entity_id e) {
        visit(data, e, static_cast<int>(e.index()), nullptr);
      });
    } else {
      data.for_each([&](entity_id e, position& p) {
        visit(data, e, static_cast<int>(p.x), &p);
      });
    }
  }
  template <typename Data>
  static void visit(Data& data, entity_id e, int x, position* p) {
    if (p != nullptr) p->y += 1;
    if (config.throw_every > 0 && x > 0 && x % config.throw_every == 0) {
      throw std::runtime_error("visitor at " + std::to_string(x));
    }
    if (p != nullptr) p->y += 10;
    if (config.mark) {
      data.defer([run = config.run, x](auto& proxy) {
        proxy.add_component(ct::marker, proxy.create_entity(),
                            ::marker{run, x});
      });
    }
    if (config.kill && x % 5 == 1) data.kill_entity(e);
    if (x == config.deferred_throw) {
      data.defer([](auto&) { throw std::runtime_error("deferred"); });
    }
    if (x == 0 && config.spawn > 0) {
      data.defer([n = config.spawn](auto& proxy) {
        spawned = proxy.create_entities(n, [](::marker& m) { m.run = -1; });
        const std::array<entity_id, 1> refused = {proxy.create_entity()};
        spawn_saw_null = refused[0].is_null();
        proxy.add_components(ct::marker, refused, ::marker{-2, 0});
      });
    }
  }
};

// Records the values of the entities it visits.
std::mutex seen_mutex;
std::vector<int> seen;
template <typename T>
struct reader {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](const T& c) {
      std::lock_guard<std::mutex> lock(seen_mutex);
      seen.push_back(c.value);
    });
  }
};

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position),
    strata::component_signature::make(ct::marker).sparse(),
    strata::component_signature::make(ct::fragile),
    strata::component_signature::make(ct::fragile_sparse).sparse(),
    strata::component_signature::make(ct::brittle));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<visitor>)
        .write(ct::position)
        .parallelism(strata::inner_parallelism::split_evenly_per_core()),
    strata::system_signature::make(strata::tag<reader<fragile>>)
        .read(ct::fragile),
    strata::system_signature::make(strata::tag<reader<fragile_sparse>>)
        .read(ct::fragile_sparse),
    strata::system_signature::make(strata::tag<reader<brittle>>)
        .read(ct::brittle));
constexpr auto base = strata::settings()
                          .allow_inner_parallelism()
                          .fixed_entity_limit<4096>()
                          .component_signatures(components)
                          .system_signatures(systems);

const auto all_subtasks = strata::execution_adapter::all().for_subtasks(
    [](auto& system, auto& data) { system.process(data); });

template <typename Proxy>
void run_all(Proxy& proxy) {
  proxy.execute_systems()(all_subtasks);
}

// A fresh context with `entities` positioned entities (x = 0, 1, ...).
template <typename Settings>
auto make_world(const Settings& settings, int entities) {
  config = {};
  auto ctx = strata::make_context(settings);
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < entities; ++i) {
      proxy.add_component(ct::position, proxy.create_entity(),
                          static_cast<float>(i), 0.f);
    }
  });
  return ctx;
}

template <typename Context>
std::vector<marker> markers_of(Context& ctx) {
  std::vector<marker> markers;
  ctx.for_each([&](const marker& m) { markers.push_back(m); });
  return markers;
}

// Every schedule the tests compare: both schedulers at 1, 2, 3 and 8
// threads.
template <typename F>
void for_every_schedule(F&& f) {
  for (std::size_t threads : {1, 2, 3, 8}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    f(base.scheduler(strata::scheduler::sequential).threads(threads));
    f(base.scheduler(strata::scheduler::atomic_counter).threads(threads));
  }
}

// ---------------------------------------------------------------------------
// Deferred order when a system runs more than once in a step.

enum class twice_by { execute_systems, execute_systems_from, detailed };

template <typename Settings>
std::vector<marker> deferred_order(const Settings& settings, twice_by how) {
  auto ctx = make_world(settings, 8);
  config.mark = true;
  ctx.step([&](auto& proxy) {
    if (how == twice_by::detailed) {
      proxy.execute_systems()(
          strata::execution_adapter::t(strata::tag<visitor>)
              .detailed_instance([](auto& instance, auto& executor) {
                (void)instance;
                for (int run = 1; run <= 2; ++run) {
                  config.run = run;
                  executor.for_subtasks(
                      [](auto& system, auto& data) { system.process(data); });
                }
              }),
          all_subtasks);
      return;
    }
    for (int run = 1; run <= 2; ++run) {
      config.run = run;
      if (how == twice_by::execute_systems) {
        run_all(proxy);
      } else {
        proxy.execute_systems_from(strata::tag<visitor>)(all_subtasks);
      }
    }
  });
  config = {};
  return markers_of(ctx);
}

TEST(StepRulesTest, DeferredFunctionsComeInRunOrderAtEveryThreadCount) {
  std::vector<marker> expected;
  for (int run = 1; run <= 2; ++run) {
    for (int x = 0; x < 8; ++x) expected.push_back({run, x});
  }
  for (twice_by how : {twice_by::execute_systems,
                       twice_by::execute_systems_from, twice_by::detailed}) {
    SCOPED_TRACE("how=" + std::to_string(static_cast<int>(how)));
    for_every_schedule([&](const auto& settings) {
      EXPECT_EQ(deferred_order(settings, how), expected);
    });
  }
}

// ---------------------------------------------------------------------------
// A throwing for_each callable: the same state at every thread count.

struct failure_outcome {
  std::vector<std::tuple<std::uint32_t, float, float>> positions;
  std::vector<marker> markers;
  std::vector<std::string> messages;
  friend bool operator==(const failure_outcome&,
                         const failure_outcome&) = default;
};

template <typename Settings>
failure_outcome run_with_failures(const Settings& settings,
                                  bool by_entities = false) {
  auto ctx = make_world(settings, 37);
  failure_outcome outcome;
  for (int step = 1; step <= 6; ++step) {
    config = {.run = step,
              .throw_every = step % 2 == 1 ? 4 + step : 0,
              .mark = step % 3 != 0,
              .kill = step == 3 || step == 6,
              .by_entities = by_entities};
    try {
      ctx.step([](auto& proxy) { run_all(proxy); });
      outcome.messages.push_back("none");
    } catch (const std::runtime_error& e) {
      outcome.messages.push_back(e.what());
    }
  }
  config = {};
  ctx.for_each([&](entity_id e, const position& p) {
    outcome.positions.emplace_back(e.index(), p.x, p.y);
  });
  outcome.markers = markers_of(ctx);
  return outcome;
}

TEST(StepRulesTest, AThrowingForEachEndsInTheSameStateAtEveryThreadCount) {
  strata::testing::run_with_timeout(std::chrono::seconds(120), "failures", [] {
    const failure_outcome reference = run_with_failures(
        base.scheduler(strata::scheduler::sequential).threads(1));
    // Throwing steps report their lowest x; every entity was visited (y
    // grew by 1 for the throwers, by 11 for the others); the kills of
    // throwing step 3 were discarded, those of step 6 applied.
    EXPECT_EQ(reference.messages,
              (std::vector<std::string>{"visitor at 5", "none", "visitor at 7",
                                        "none", "visitor at 9", "none"}));
    ASSERT_EQ(reference.positions.size(), 37u - 8u);
    EXPECT_EQ(reference.markers.size(), 2u * 37u);  // steps 2 and 4
    for (const auto& [index, x, y] : reference.positions) {
      const int i = static_cast<int>(x);
      const int throws = i > 0 ? (i % 5 == 0) + (i % 7 == 0) + (i % 9 == 0) : 0;
      EXPECT_EQ(y, 66.f - 10.f * static_cast<float>(throws)) << "x=" << i;
    }
    for_every_schedule([&](const auto& settings) {
      EXPECT_EQ(run_with_failures(settings), reference);
    });
  });
}

// for_entities keeps for_each's rule: every entity visited, the lowest
// exception rethrown, the same state at every thread count.
TEST(StepRulesTest, AThrowingForEntitiesEndsLikeForEachAtEveryThreadCount) {
  strata::testing::run_with_timeout(std::chrono::seconds(120), "failures", [] {
    const failure_outcome reference = run_with_failures(
        base.scheduler(strata::scheduler::sequential).threads(1),
        /*by_entities=*/true);
    const failure_outcome by_for_each = run_with_failures(
        base.scheduler(strata::scheduler::sequential).threads(1));
    // The same exceptions, deferred creations and kills as for_each (which
    // also writes positions).
    EXPECT_EQ(reference.messages, by_for_each.messages);
    EXPECT_EQ(reference.markers, by_for_each.markers);
    EXPECT_EQ(reference.positions.size(), by_for_each.positions.size());
    for_every_schedule([&](const auto& settings) {
      EXPECT_EQ(run_with_failures(settings, /*by_entities=*/true), reference);
    });
  });
}

// ---------------------------------------------------------------------------
// A caught failure, then a second run in the same step.

TEST(StepRulesTest, AFailedRunLeavesNoWorkForTheRunAfterIt) {
  for_every_schedule([](const auto& settings) {
    auto ctx = make_world(settings, 8);
    ctx.step([](auto& proxy) {
      config = {.run = 1, .throw_every = 4, .mark = true, .kill = true};
      EXPECT_THROW(run_all(proxy), std::runtime_error);
      config = {.run = 2, .mark = true};
      run_all(proxy);
    });
    config = {};
    std::vector<marker> expected;
    for (int x = 0; x < 8; ++x) expected.push_back({2, x});
    EXPECT_EQ(markers_of(ctx), expected);
    EXPECT_EQ(ctx.count(ct::position), 8u);  // the failed run's kills dropped
  });
}

// ---------------------------------------------------------------------------
// Deferred functions that throw.

TEST(StepRulesTest, AThrowingDeferredFunctionLetsTheOthersRun) {
  auto ctx = make_world(base.threads(2), 8);
  config = {.run = 1, .mark = true, .deferred_throw = 1};
  try {
    ctx.step([](auto& proxy) { run_all(proxy); });
    ADD_FAILURE() << "the deferred function's exception was not rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "deferred");
  }
  EXPECT_EQ(markers_of(ctx).size(), 8u);
  // The step's own exception wins over the deferred function's; the
  // refresh still runs every deferred function.
  config = {.run = 2, .mark = true, .deferred_throw = 1};
  try {
    ctx.step([](auto& proxy) {
      run_all(proxy);
      throw std::logic_error("step");
    });
    ADD_FAILURE() << "the step's exception was not rethrown";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "step");
  }
  config = {};
  EXPECT_EQ(markers_of(ctx).size(), 16u);
}

// ---------------------------------------------------------------------------
// Replacing a component: a throwing constructor, a throwing move.

template <typename Tag>
void expect_failed_replacement_keeps_old(Tag tag) {
  auto ctx = make_world(base.threads(1), 0);
  entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(tag, e, 1);
  });
  seen.clear();
  ctx.step([&](auto& proxy) {
    EXPECT_THROW(proxy.add_component(tag, e, -1), std::invalid_argument);
    ASSERT_TRUE(proxy.has_component(tag, e));
    EXPECT_EQ(proxy.get_component(tag, e).value, 1);
    run_all(proxy);
  });
  EXPECT_EQ(seen, std::vector<int>{1});
}

TEST(StepRulesTest, AThrowingConstructorKeepsTheReplacedComponent) {
  expect_failed_replacement_keeps_old(ct::fragile);
  expect_failed_replacement_keeps_old(ct::fragile_sparse);
}

TEST(StepRulesTest, AFailedMoveIntoStorageTakesTheEntityOutOfItsSystems) {
  auto ctx = make_world(base.threads(1), 0);
  entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::brittle, e, 1);
  });
  seen.clear();
  ctx.step([&](auto& proxy) {
    brittle::fail_moves = true;
    EXPECT_THROW(proxy.add_component(ct::brittle, e, 2), std::runtime_error);
    brittle::fail_moves = false;
    EXPECT_FALSE(proxy.has_component(ct::brittle, e));
    EXPECT_FALSE(proxy.is_in_system(strata::tag<reader<brittle>>, e));
    run_all(proxy);
  });
  EXPECT_TRUE(seen.empty());
}

// ---------------------------------------------------------------------------
// add_component from a component of the same storage, while it grows.

constexpr auto label_settings =
    strata::settings()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::label),
            strata::component_signature::make(ct::label_hashed).hash_map()))
        .dynamic_entity_limit(1)
        .threads(1);

template <typename T, typename Tag>
void expect_copies_survive_growth(Tag tag) {
  auto ctx = strata::make_context(label_settings);
  const std::string text = "a string long enough to live on the heap";
  ctx.step([&](auto& proxy) {
    const entity_id first = proxy.create_entity();
    proxy.add_component(tag, first, T{text});
    for (int i = 0; i < 300; ++i) {
      proxy.add_component(tag, proxy.create_entity(),
                          proxy.get_component(tag, first));
    }
  });
  std::size_t copies = 0;
  ctx.for_each([&](const T& value) {
    EXPECT_EQ(value.text, text);
    ++copies;
  });
  EXPECT_EQ(copies, 301u);
}

TEST(StepRulesTest, AddComponentMayCopyFromTheStorageItGrows) {
  expect_copies_survive_growth<label>(ct::label);
  expect_copies_survive_growth<label_hashed>(ct::label_hashed);
}

// ---------------------------------------------------------------------------
// A full fixed limit in deferred code.

TEST(StepRulesTest, RefusedCreationsAreCountedReturnedAndObserved) {
  auto ctx = make_world(base.threads(1), 4096 - 3);
  std::vector<std::size_t> refused_events;
  ctx.observe_refresh([&](const strata::refresh_event& event) {
    if (event.what == strata::refresh_event::kind::refused_creations) {
      EXPECT_TRUE(event.entity.is_null());
      refused_events.push_back(event.count);
    }
  });
  config = {.spawn = 5};
  ctx.step([](auto& proxy) { run_all(proxy); });
  config = {};
  EXPECT_EQ(spawned, 3u);
  EXPECT_TRUE(spawn_saw_null);
  EXPECT_EQ(ctx.refused_creations(), 3u);  // 2 of the batch, 1 single
  EXPECT_EQ(refused_events, std::vector<std::size_t>{3});
  const std::vector<marker> made = markers_of(ctx);
  EXPECT_EQ(made.size(), 3u);
  for (const marker& m : made) EXPECT_EQ(m.run, -1);
  // A step without refusals reports none.
  ctx.step([](auto& proxy) { run_all(proxy); });
  EXPECT_EQ(refused_events.size(), 1u);
}

// ---------------------------------------------------------------------------
// Work one subtask alone leaves reaches the refresh. The refresh visits only
// the systems whose subtasks noted kills or deferred functions
// (context/refresh.h), so a note lost by a subtask other than the first, on
// whichever thread, would lose that work.

constexpr int kNoteEntities = 64;
constexpr int kLastX = kNoteEntities - 1;  // in the last of four subtasks

// Kills the entity with the highest x and defers the creation of a marker,
// both from the last of its subtasks only.
struct last_subtask_worker {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const position& p) {
      if (static_cast<int>(p.x) != kLastX) return;
      data.kill_entity(e);
      data.defer([](auto& proxy) {
        proxy.add_component(ct::marker, proxy.create_entity(),
                            ::marker{7, kLastX});
      });
    });
  }
};

constexpr auto note_base =
    strata::settings()
        .allow_inner_parallelism()
        .fixed_entity_limit<4096>()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position),
            strata::component_signature::make(ct::marker).sparse()))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(strata::tag<last_subtask_worker>)
                .read(ct::position)
                .parallelism(strata::inner_parallelism::split_evenly(4))));

template <typename Settings>
void expect_last_subtask_work_done(const Settings& settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    for (int i = 0; i < kNoteEntities; ++i) {
      proxy.add_component(ct::position, proxy.create_entity(),
                          static_cast<float>(i), 0.f);
    }
  });
  ctx.step([](auto& proxy) { run_all(proxy); });
  int last_alive = 0;
  ctx.for_each([&](const position& p) {
    if (static_cast<int>(p.x) == kLastX) ++last_alive;
  });
  EXPECT_EQ(last_alive, 0) << "the last subtask's kill was lost";
  EXPECT_EQ(markers_of(ctx), (std::vector<marker>{{7, kLastX}}))
      << "the last subtask's deferred function was lost";
  EXPECT_EQ(ctx.entity_count(), static_cast<std::size_t>(kNoteEntities));
}

TEST(StepRulesTest, KillsAndDeferralsOfOneSubtaskAloneReachTheRefresh) {
  for (std::size_t threads : {1, 2, 8}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    const auto threaded =
        note_base.scheduler(strata::scheduler::atomic_counter).threads(threads);
    expect_last_subtask_work_done(threaded);
    expect_last_subtask_work_done(
        threaded.run_policy(strata::run_policy::fixed));
    expect_last_subtask_work_done(
        note_base.scheduler(strata::scheduler::sequential).threads(threads));
  }
}

}  // namespace
