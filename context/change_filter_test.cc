// The changed() and added() filters of system signatures
// (scheduler/system_signature.h, context/internal/change_stamps.h), through the
// public API, against a model: each filtering system sees exactly the
// entities whose component was written (data.write, data.get, for_each with
// T&, in one subtask or split) or added (add_component, create_entities)
// since its own previous run,
// whether the writer runs before or after it in the DAG, under both
// schedulers at 1, 2 and 8 threads; steady steps with filters allocate
// nothing.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/allocation_counter.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::testing::position;
using strata::testing::velocity;
namespace ct = strata::testing::ct;

using id_key = std::tuple<std::size_t, std::size_t>;  // index, version
id_key key_of(entity_id e) { return {e.index(), e.version()}; }

// What the systems do this step (set while no system runs).
std::vector<char> chosen;  // by entity index: mover writes it
bool touch_all = false;    // toucher writes every position
bool touch_by_try_get = false;
bool sweep_all = false;  // sweeper writes every position, split

std::mutex seen_mutex;
std::map<std::string, std::vector<id_key>> seen;
void record(const std::string& who, entity_id e) {
  std::lock_guard<std::mutex> lock(seen_mutex);
  seen[who].push_back(key_of(e));
}

// Runs first: sees the writes of mover and toucher one step late.
struct early_watcher {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) { record("early", e); });
  }
};
struct mover {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      if (e.index() < chosen.size() && chosen[e.index()]) {
        data.write(ct::position, e).x += 1;
      }
    });
  }
};
// Runs after mover: sees its writes in the same step.
struct late_watcher {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const position&) { record("late", e); });
  }
};
struct toucher {
  template <typename Data>
  void process(Data& data) const {
    if (!touch_all) return;
    if (touch_by_try_get) {
      data.for_entities([&](entity_id e) {
        if (position* p = data.try_get(ct::position, e)) p->y += 1;
      });
    } else {
      data.for_each([](position& p) { p.y += 1; });
    }
  }
};
// A split writer: its subtasks log their runs of positions at once.
struct sweeper {
  template <typename Data>
  void process(Data& data) const {
    if (sweep_all) data.for_each([](position& p) { p.x -= 1; });
  }
};
struct arrival_watcher {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const velocity&) { record("added", e); });
  }
};

constexpr auto split = strata::inner_parallelism::split_evenly_per_core();
// Systems that write positions by id (data.write, try_get) run as one
// subtask (the split rule, context/data_proxy.h); the watchers split.
constexpr auto writes_by_id = strata::inner_parallelism::none();
constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position),
    strata::component_signature::make(ct::velocity).sparse());
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<early_watcher>)
        .read(ct::position)
        .changed(ct::position)
        .parallelism(split),
    strata::system_signature::make(strata::tag<mover>)
        .write(ct::position)
        .dependencies(strata::tag<early_watcher>)
        .parallelism(writes_by_id),
    strata::system_signature::make(strata::tag<late_watcher>)
        .read(ct::position)
        .changed(ct::position)
        .dependencies(strata::tag<mover>)
        .parallelism(split),
    strata::system_signature::make(strata::tag<toucher>)
        .write(ct::position)
        .dependencies(strata::tag<late_watcher>)
        .parallelism(writes_by_id),
    strata::system_signature::make(strata::tag<sweeper>)
        .write(ct::position)
        .dependencies(strata::tag<toucher>)
        .parallelism(split),
    strata::system_signature::make(strata::tag<arrival_watcher>)
        .read(ct::velocity)
        .added(ct::velocity)
        .parallelism(split));
constexpr auto base = strata::settings()
                          .allow_inner_parallelism()
                          .component_signatures(components)
                          .system_signatures(systems);

const auto all_subtasks = strata::execution_adapter::all().for_subtasks(
    [](auto& system, auto& data) { system.process(data); });

// The model: who holds a position or velocity, and what each filtering
// system has yet to see.
struct model {
  std::set<id_key> with_position, with_velocity;
  std::set<id_key> early, late, added;

  void position_written(id_key k) {
    early.insert(k);
    late.insert(k);
  }
  void position_removed(id_key k) {
    with_position.erase(k);
    early.erase(k);
    late.erase(k);
  }
  void velocity_removed(id_key k) {
    with_velocity.erase(k);
    added.erase(k);
  }
};

std::vector<id_key> sorted(std::vector<id_key> v) {
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<id_key> as_vector(const std::set<id_key>& s) {
  return {s.begin(), s.end()};
}

// One random run: structural steps and system steps, checked every step.
template <typename Settings>
void run_model(const Settings& settings, std::uint32_t seed) {
  std::mt19937 random(seed);
  auto ctx = strata::make_context(settings);
  model m;
  std::vector<entity_id> alive;
  for (int step = 0; step < 40; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    // Structural changes, applied by this step's refresh.
    ctx.step([&](auto& proxy) {
      const int operations = static_cast<int>(random() % 40);
      for (int op = 0; op < operations; ++op) {
        const unsigned what = random() % 8;
        if (what <= 1 || alive.empty()) {
          const entity_id e = proxy.create_entity();
          alive.push_back(e);
          proxy.add_component(ct::position, e, 0.f, 0.f);
          m.with_position.insert(key_of(e));
          m.position_written(key_of(e));
          continue;
        }
        const std::size_t at = random() % alive.size();
        const entity_id e = alive[at];
        const id_key k = key_of(e);
        if (what == 2) {  // add or replace position
          proxy.add_component(ct::position, e, 1.f, 1.f);
          m.with_position.insert(k);
          m.position_written(k);
        } else if (what == 3) {
          proxy.remove_component(ct::position, e);
          m.position_removed(k);
        } else if (what == 4) {  // add or replace velocity
          if (!m.with_velocity.contains(k)) m.added.insert(k);
          proxy.add_component(ct::velocity, e, 1.f, 0.f);
          m.with_velocity.insert(k);
        } else if (what == 5) {
          proxy.remove_component(ct::velocity, e);
          m.velocity_removed(k);
        } else if (what == 6) {
          proxy.kill_entity(e);
          alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(at));
          m.position_removed(k);
          m.velocity_removed(k);
        }
      }
    });
    // Which positions the systems write this step.
    chosen.assign(alive.empty() ? 0 : alive.back().index() + 1024, 0);
    std::vector<id_key> moved;
    for (entity_id e : alive) {
      if (m.with_position.contains(key_of(e)) && random() % 10 == 0) {
        if (e.index() >= chosen.size()) chosen.resize(e.index() + 1);
        chosen[e.index()] = 1;
        moved.push_back(key_of(e));
      }
    }
    touch_all = random() % 5 == 0;
    touch_by_try_get = random() % 2 == 0;
    sweep_all = random() % 4 == 0;
    seen.clear();
    // Changes made in the step before its systems run (an arrival, a
    // replaced position) are seen from the next step on (each watcher's
    // first run after the refresh); an earlier change the watcher had not
    // seen yet, or a system's write later in the step, is seen at the run
    // its own stamp allows, so a watcher may see the entity in both runs.
    std::vector<id_key> next_step;
    const bool change_before_run = random() % 3 == 0;
    ctx.step([&](auto& proxy) {
      if (change_before_run) {
        const entity_id e = proxy.create_entity();
        proxy.add_component(ct::position, e, 2.f, 2.f);
        alive.push_back(e);
        next_step.push_back(key_of(e));
        for (entity_id other : alive) {
          if (m.with_position.contains(key_of(other)) && random() % 20 == 0) {
            proxy.add_component(ct::position, other, 3.f, 3.f);
            next_step.push_back(key_of(other));
          }
        }
      }
      proxy.execute_systems()(all_subtasks);
    });

    // early_watcher ran first, then mover, late_watcher, toucher, sweeper.
    const std::vector<id_key> early = as_vector(m.early);
    m.early.clear();
    for (const id_key& k : moved) m.position_written(k);
    const std::vector<id_key> late = as_vector(m.late);
    m.late.clear();
    if (touch_all || sweep_all) {
      for (const id_key& k : m.with_position) m.position_written(k);
    }
    const std::vector<id_key> added = as_vector(m.added);
    m.added.clear();
    EXPECT_EQ(sorted(seen["early"]), early);
    EXPECT_EQ(sorted(seen["late"]), late);
    EXPECT_EQ(sorted(seen["added"]), added);
    for (const id_key& k : next_step) m.position_written(k);
    for (const id_key& k : next_step) m.with_position.insert(k);
  }
}

TEST(ChangeFilterTest, EachFilteringSystemSeesEachChangeOnceAtEverySchedule) {
  for (std::size_t threads : {1, 2, 8}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    for (std::uint32_t seed : {1u, 2u, 3u}) {
      run_model(base.scheduler(strata::scheduler::sequential).threads(threads),
                seed);
      run_model(
          base.scheduler(strata::scheduler::atomic_counter).threads(threads),
          seed);
    }
  }
}

// A system does not see its own writes: it writes what it visits, and
// visits only what others changed.
struct self_writer {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, position& p) {
      p.x += 1;
      record("self", e);
    });
  }
};

TEST(ChangeFilterTest, OwnWritesAreNotSeenAgain) {
  const auto settings =
      strata::settings()
          .component_signatures(strata::component_signatures(
              strata::component_signature::make(ct::position)))
          .system_signatures(strata::system_signatures(
              strata::system_signature::make(strata::tag<self_writer>)
                  .write(ct::position)
                  .changed(ct::position)));
  auto ctx = strata::make_context(settings);
  entity_id e;
  ctx.step([&](auto& proxy) {
    e = proxy.create_entity();
    proxy.add_component(ct::position, e, 0.f, 0.f);
  });
  std::vector<std::size_t> counts;
  for (int step = 0; step < 3; ++step) {
    seen.clear();
    ctx.step([](auto& proxy) { proxy.execute_systems()(all_subtasks); });
    counts.push_back(seen["self"].size());
  }
  EXPECT_EQ(counts, (std::vector<std::size_t>{1, 0, 0}));
  ctx.step([&](auto& proxy) {
    proxy.add_component(ct::position, e, 5.f, 0.f);
    proxy.create_entities(3, [](position&) {});
  });
  seen.clear();
  ctx.step([](auto& proxy) { proxy.execute_systems()(all_subtasks); });
  EXPECT_EQ(seen["self"].size(), 4u);
}

// Steady state: a writer of 1% of the positions, a split writer of every
// position, a filtering reader, and deferred adds and removes of a
// component an added() filter tracks.
std::atomic<std::size_t> filtered_visits{0};
std::size_t steady_step = 0;  // set by the step function
struct sparse_mover {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      if ((e.index() + steady_step) % 100 == 0) {
        data.write(ct::position, e).x += 1;
      }
    });
  }
};
struct moved_counter {
  template <typename Data>
  void process(Data& data) const {
    std::size_t n = 0;
    data.for_each([&](const position&) { ++n; });
    filtered_visits += n;
  }
};
struct drifter {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p) { p.y += 1; });
  }
};
struct velocity_toggler {
  template <typename Data>
  void process(Data& data) const {
    data.for_entities([&](entity_id e) {
      if ((e.index() + steady_step) % 50 != 0) return;
      data.defer([e](auto& proxy) {
        if (proxy.has_component(ct::velocity, e)) {
          proxy.remove_component(ct::velocity, e);
        } else {
          proxy.add_component(ct::velocity, e, 1.f, 1.f);
        }
      });
    });
  }
};
struct arrival_counter {
  template <typename Data>
  void process(Data& data) const {
    std::size_t n = 0;
    data.for_entities([&](entity_id) { ++n; });
    filtered_visits += n;
  }
};

template <typename Settings>
void expect_steady_state_allocates_nothing(const Settings& settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 2000; ++i) {
      proxy.add_component(ct::position, proxy.create_entity(), 0.f, 0.f);
    }
  });
  auto frame = [](auto& proxy) {
    ++steady_step;
    proxy.execute_systems()(all_subtasks);
  };
  for (int i = 0; i < 120; ++i) ctx.step(frame);  // warm-up
  filtered_visits = 0;
  const std::size_t before = strata::testing::allocation_count();
  for (int i = 0; i < 100; ++i) ctx.step(frame);
  const std::size_t after = strata::testing::allocation_count();
  EXPECT_EQ(after - before, 0u) << "heap allocations in 100 steady steps";
  EXPECT_GT(filtered_visits.load(), 0u);
}

constexpr auto steady_systems = strata::system_signatures(
    strata::system_signature::make(strata::tag<sparse_mover>)
        .write(ct::position)
        .parallelism(writes_by_id),
    strata::system_signature::make(strata::tag<moved_counter>)
        .read(ct::position)
        .changed(ct::position)
        .dependencies(strata::tag<sparse_mover>)
        .parallelism(split),
    strata::system_signature::make(strata::tag<velocity_toggler>)
        .read(ct::position)
        .dependencies(strata::tag<sparse_mover>)
        .parallelism(split),
    strata::system_signature::make(strata::tag<arrival_counter>)
        .read(ct::velocity)
        .added(ct::velocity),
    strata::system_signature::make(strata::tag<drifter>)
        .write(ct::position)
        .dependencies(strata::tag<moved_counter>, strata::tag<velocity_toggler>)
        .parallelism(split));
constexpr auto steady_base = strata::settings()
                                 .allow_inner_parallelism()
                                 .component_signatures(components)
                                 .system_signatures(steady_systems);

TEST(ChangeFilterTest, SteadyStepsAllocateNothing) {
  expect_steady_state_allocates_nothing(
      steady_base.scheduler(strata::scheduler::sequential).threads(1));
  // The fixed run policy: the adaptive one may change a system's split when
  // it samples its costs (timing-dependent, more so under a sanitizer), and
  // a split never seen before may log more ranges than any earlier step: not
  // a steady state.
  expect_steady_state_allocates_nothing(
      steady_base.scheduler(strata::scheduler::atomic_counter)
          .threads(2)
          .run_policy(strata::run_policy::fixed));
}

}  // namespace
