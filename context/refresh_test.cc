// The refresh driven directly, on a small world of its own: an entity
// storage, a component storage and two fake system instances.
#include "context/refresh.h"

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/limit.h"
#include "component_storage/component_storage.h"
#include "component_storage/signature.h"
#include "entity/entity_id.h"
#include "entity/entity_metadata.h"
#include "entity/entity_storage.h"
#include "gtest/gtest.h"
#include "sparse_set/versioned_sparse_set.h"
#include "testing/components.h"

namespace strata {
namespace {

using testing::position;
struct health {
  int hp = 0;
  // Counts destructions, so the test sees that kills destroy components.
  static inline int destroyed = 0;
  health() = default;
  explicit health(int h) : hp(h) {}
  health(health&& other) noexcept : hp(other.hp) {}
  health& operator=(health&&) noexcept = default;
  ~health() { ++destroyed; }
};

constexpr auto components = component_signatures(
    cs::make(tag<position>), cs::make(tag<health>).sparse());
using component_list = std::remove_const_t<decltype(components)>;
using bitset_type = component_bitset<2>;
using metadata_type = entity_metadata<2, entity_refresh_flags>;
using entity_storage_type =
    basic_entity_storage<dynamic_limit, entity_traits32, metadata_type>;
using component_storage_type = component_storage<component_list, dynamic_limit>;
using queue_type = refresh_queue<entity_storage_type, component_storage_type>;

struct world;

// What the refresh gives deferred functions: here, the world itself.
struct fake_defer_proxy {
  world* w;
};

struct fake_state {
  std::vector<entity_id> to_kill;
  std::vector<std::function<void(fake_defer_proxy&)>> deferred;
};

// Records the hooks the refresh calls.
struct recording_system {
  std::vector<std::string>* log;
  std::string name;
  void on_subscribe(entity_id id) {
    log->push_back(name + "+" + to_string(id));
  }
  void on_unsubscribe(entity_id id) {
    log->push_back(name + "-" + to_string(id));
  }
};

template <std::size_t... Required>
struct fake_instance {
  static constexpr bitset_type required_bits = bitset_type::of({Required...});
  explicit fake_instance(recording_system system)
      : system_(std::move(system)) {}
  recording_system system_;
  versioned_sparse_set<entity_id> subscribed_;
  std::vector<fake_state> states_ = std::vector<fake_state>(2);

  recording_system& system() { return system_; }
  versioned_sparse_set<entity_id>& mutable_subscribed() { return subscribed_; }
  std::size_t entity_count() const { return subscribed_.size(); }
  std::size_t state_count() const { return states_.size(); }
  fake_state& state(std::size_t s) { return states_[s]; }
};

constexpr std::size_t kPosition = 0;
constexpr std::size_t kHealth = 1;

struct world {
  std::vector<std::string> log;
  entity_storage_type entity_storage;
  component_storage_type component_storage;
  // movers need position; medics need position and health.
  std::tuple<fake_instance<kPosition>, fake_instance<kPosition, kHealth>>
      instances{recording_system{&log, "movers"},
                recording_system{&log, "medics"}};
  queue_type queue;
  std::vector<bool> parallel_requests;

  entity_storage_type& entities() { return entity_storage; }
  component_storage_type& components() { return component_storage; }
  template <typename F>
  void for_each_instance(F&& f, bool parallel) {
    parallel_requests.push_back(parallel);
    std::apply([&](auto&... instance) { (f(instance), ...); }, instances);
  }
  auto& movers() { return std::get<0>(instances); }
  auto& medics() { return std::get<1>(instances); }

  entity_id create(bool with_health) {
    const entity_id id = entity_storage.create();
    component_storage.add<position>(id, entity_storage.bits(id));
    if (with_health) {
      component_storage.add<health>(id, entity_storage.bits(id), 10);
    }
    queue.queue_match(entity_storage, id);
    return id;
  }
  void refresh() {
    fake_defer_proxy proxy{this};
    queue.run(*this, proxy, /*parallel=*/true);
  }
};

TEST(RefreshTest, MatchingSubscribesToSystemsWhoseComponentsTheEntityHas) {
  world w;
  const entity_id walker = w.create(false);
  const entity_id patient = w.create(true);
  EXPECT_EQ(w.queue.pending_matches(), 2u);
  EXPECT_EQ(w.movers().entity_count(), 0u);  // only at the refresh
  w.refresh();
  EXPECT_TRUE(w.movers().subscribed_.contains(walker));
  EXPECT_TRUE(w.movers().subscribed_.contains(patient));
  EXPECT_FALSE(w.medics().subscribed_.contains(walker));
  EXPECT_TRUE(w.medics().subscribed_.contains(patient));
  EXPECT_EQ(w.log, (std::vector<std::string>{"movers+0@0", "movers+1@0",
                                             "medics+1@0"}));
  EXPECT_EQ(w.queue.pending_matches(), 0u);
}

TEST(RefreshTest, AnEntityIsQueuedForMatchingOncePerStep) {
  world w;
  const entity_id e = w.create(false);
  w.queue.queue_match(w.entity_storage, e);
  w.queue.queue_match(w.entity_storage, e);
  EXPECT_EQ(w.queue.pending_matches(), 1u);
  w.refresh();
  w.queue.queue_match(w.entity_storage, e);  // a new step queues it again
  EXPECT_EQ(w.queue.pending_matches(), 1u);
}

TEST(RefreshTest, LosingAComponentUnsubscribesAtTheNextMatch) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.component_storage.remove<health>(e, w.entity_storage.bits(e));
  w.queue.queue_match(w.entity_storage, e);
  w.log.clear();
  w.refresh();
  EXPECT_TRUE(w.movers().subscribed_.contains(e));
  EXPECT_FALSE(w.medics().subscribed_.contains(e));
  EXPECT_EQ(w.log, (std::vector<std::string>{"medics-0@0"}));
}

TEST(RefreshTest, KillsUnsubscribeDestroyComponentsAndReclaimInIndexOrder) {
  world w;
  std::vector<entity_id> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(w.create(true));
  w.refresh();
  health::destroyed = 0;
  w.log.clear();
  // Out of index order, from the step and from two subtask states.
  EXPECT_TRUE(w.queue.queue_kill(w.entity_storage, ids[3]));
  EXPECT_FALSE(w.queue.queue_kill(w.entity_storage, ids[3]));  // marked
  w.medics().state(1).to_kill.push_back(ids[1]);
  w.movers().state(0).to_kill.push_back(ids[3]);  // twice: once only
  EXPECT_EQ(w.queue.pending_kills(), 1u);
  w.refresh();
  for (int i : {1, 3}) EXPECT_FALSE(w.entity_storage.alive(ids[i]));
  for (int i : {0, 2}) EXPECT_TRUE(w.entity_storage.alive(ids[i]));
  EXPECT_EQ(health::destroyed, 2);
  EXPECT_EQ(w.movers().entity_count(), 2u);
  EXPECT_EQ(w.medics().entity_count(), 2u);
  EXPECT_EQ(w.log, (std::vector<std::string>{"movers-1@0", "movers-3@0",
                                             "medics-1@0", "medics-3@0"}));
  EXPECT_TRUE(w.medics().state(1).to_kill.empty());
  EXPECT_EQ(w.queue.pending_kills(), 0u);
  // Dead ids are refused; the reused index gets a new version.
  EXPECT_FALSE(w.queue.queue_kill(w.entity_storage, ids[1]));
  const entity_id reused = w.entity_storage.create();
  EXPECT_EQ(reused.index(), ids[1].index());
  EXPECT_NE(reused, ids[1]);
  EXPECT_TRUE(w.entity_storage.bits(reused).none());
}

TEST(RefreshTest, DeferredFunctionsRunFirstInSystemSubtaskAndDeferralOrder) {
  world w;
  std::vector<std::string> order;
  auto record = [&](std::string what) {
    return [&order, what](fake_defer_proxy&) { order.push_back(what); };
  };
  w.medics().state(0).deferred.push_back(record("medics/0/a"));
  w.movers().state(1).deferred.push_back(record("movers/1/a"));
  w.movers().state(0).deferred.push_back(record("movers/0/a"));
  w.movers().state(0).deferred.push_back(record("movers/0/b"));
  // A deferred creation is matched in the same refresh.
  w.medics().state(1).deferred.push_back(
      [](fake_defer_proxy& proxy) { proxy.w->create(false); });
  w.refresh();
  EXPECT_EQ(order, (std::vector<std::string>{"movers/0/a", "movers/0/b",
                                             "movers/1/a", "medics/0/a"}));
  EXPECT_EQ(w.movers().entity_count(), 1u);
  EXPECT_TRUE(w.movers().state(0).deferred.empty());
}

TEST(RefreshTest, AThrowingDeferredFunctionStopsTheRestButKillsAndMatchesRun) {
  world w;
  const entity_id doomed = w.create(false);
  w.refresh();
  bool later_ran = false;
  w.movers().state(0).deferred.push_back(
      [](fake_defer_proxy&) { throw std::runtime_error("deferred failed"); });
  w.movers().state(1).deferred.push_back(
      [&](fake_defer_proxy&) { later_ran = true; });
  w.queue.queue_kill(w.entity_storage, doomed);
  const entity_id fresh = w.create(false);
  EXPECT_THROW(w.refresh(), std::runtime_error);
  EXPECT_FALSE(later_ran);
  EXPECT_FALSE(w.entity_storage.alive(doomed));
  EXPECT_TRUE(w.movers().subscribed_.contains(fresh));
  EXPECT_TRUE(w.movers().state(1).deferred.empty());  // dropped, not kept
}

TEST(RefreshTest, OnlyKillsAndMatchesVisitSystemsInParallel) {
  world w;
  const entity_id e = w.create(false);
  w.refresh();
  w.queue.queue_kill(w.entity_storage, e);
  w.create(false);
  w.parallel_requests.clear();
  w.refresh();
  // deferred, subtask kills, kills, matches.
  EXPECT_EQ(w.parallel_requests, (std::vector<bool>{false, false, true, true}));
}

TEST(RefreshTest, LeaveSystemsRequiringTakesTheEntityOutAtOnce) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.log.clear();
  leave_systems_requiring<kHealth>(w, e);
  EXPECT_TRUE(w.movers().subscribed_.contains(e));
  EXPECT_FALSE(w.medics().subscribed_.contains(e));
  EXPECT_EQ(w.log, (std::vector<std::string>{"medics-0@0"}));
}

}  // namespace
}  // namespace strata
