// The refresh driven directly, on a small world of its own: an entity
// storage, a component storage and two fake system instances.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/limit.h"
#include "component_storage/component_signature.h"
#include "component_storage/component_storage.h"
#include "context/deferred_queue.h"
#include "context/internal/deferred_phase.h"
#include "context/internal/kill_phase.h"
#include "context/internal/match_phase.h"
#include "context/internal/refresh_queue.h"
#include "context/internal/subscription.h"
#include "entity/entity_id.h"
#include "entity/entity_metadata.h"
#include "entity/entity_storage.h"
#include "gtest/gtest.h"
#include "sparse_set/ordered_index_set.h"
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

constexpr auto components =
    component_signatures(component_signature::make(tag<position>),
                         component_signature::make(tag<health>).sparse());
using component_list = std::remove_const_t<decltype(components)>;
using bitset_type = component_bitset<2>;
using metadata_type =
    entity_metadata<2, context_internal::entity_refresh_flags>;
using entity_storage_type =
    basic_entity_storage<dynamic_limit, entity_traits32, metadata_type>;
using component_storage_type = component_storage<component_list, dynamic_limit>;
using queue_type = context_internal::refresh_queue<entity_storage_type>;

// A world of up to 16 component types keeps each entity's bitset and
// refresh flags in 4 bytes beside its id slot (entity storage keeps the two
// in separate arrays); up to 32 in 8.
static_assert(sizeof(context_internal::entity_refresh_flags) == 1);
static_assert(
    sizeof(entity_metadata<7, context_internal::entity_refresh_flags>) == 2);
static_assert(
    sizeof(entity_metadata<16, context_internal::entity_refresh_flags>) == 4);
static_assert(
    sizeof(entity_metadata<32, context_internal::entity_refresh_flags>) == 8);

struct world;

// What the refresh gives deferred functions: here, the world itself.
struct fake_defer_proxy {
  world* w;
};

struct fake_state {
  std::vector<entity_id> to_kill;
  deferred_queue<fake_defer_proxy> deferred;
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

using subscription_type = context_internal::subscription<entity_storage_type>;

// What the refresh needs of a system instance: its subtask states, whether
// it failed, its system (for hooks, through the world) and its
// subscription, a real one.
template <std::size_t Id, std::size_t... Required>
struct fake_instance {
  static constexpr std::size_t id = Id;
  static constexpr bitset_type required_bits = bitset_type::of({Required...});
  fake_instance(recording_system system, const entity_storage_type& entities,
                bool hooks)
      : system_(std::move(system)),
        subscription_(Id, required_bits, bitset_type{},
                      {.on_subscribe = hooks, .on_unsubscribe = hooks},
                      entities) {}
  recording_system system_;
  subscription_type subscription_;
  std::vector<fake_state> states_ = std::vector<fake_state>(2);

  recording_system& system() { return system_; }
  ordered_index_set& mutable_subscribed() {
    return subscription_.raw_subscribed_indices();
  }
  bool contains(entity_id e) const {
    return subscription_.raw_subscribed_indices().contains(e.index());
  }
  std::size_t entity_count() const {
    return subscription_.raw_subscribed_indices().size();
  }
  std::size_t state_count() const { return states_.size(); }
  fake_state& state(std::size_t s) { return states_[s]; }
  fake_state* states() { return states_.data(); }
  // A look at the subscription (a run or a query).
  void settle() { subscription_.settle_departures(); }
};

constexpr std::size_t kPosition = 0;
constexpr std::size_t kHealth = 1;

struct world {
  // Both systems have subscription hooks, or neither (`hooks`).
  explicit world(bool hooks = true)
      : movers_instance(recording_system{&log, "movers"}, entity_storage,
                        hooks),
        medics_instance(recording_system{&log, "medics"}, entity_storage,
                        hooks) {}
  std::vector<std::string> log;
  entity_storage_type entity_storage;
  component_storage_type component_storage;
  // movers need position; medics need position and health.
  fake_instance<0, kPosition> movers_instance;
  fake_instance<1, kPosition, kHealth> medics_instance;
  queue_type queue;
  std::vector<bool> parallel_requests;

  refresh_observer observer_function;
  const refresh_observer* observer() const {
    return observer_function ? &observer_function : nullptr;
  }
  static std::string_view system_name(std::size_t id) {
    return id == 0 ? "movers" : "medics";
  }
  entity_storage_type& entities() { return entity_storage; }
  component_storage_type& components() { return component_storage; }
  template <typename F>
  void for_each_subscription(F&& f, bool parallel) {
    parallel_requests.push_back(parallel);
    f(movers_instance.subscription_);
    f(medics_instance.subscription_);
  }
  void run_subscription_hook(std::size_t system, refresh_event::kind what,
                             entity_id id) {
    recording_system& target =
        system == 0 ? movers().system() : medics().system();
    if (what == refresh_event::kind::subscribe) {
      target.on_subscribe(id);
    } else {
      target.on_unsubscribe(id);
    }
  }
  // Every instance, whatever the kind: here every system always left
  // subtask work.
  template <typename F>
  void for_each_instance_that_left(context_internal::subtask_work, F&& f) {
    f(movers_instance);
    f(medics_instance);
  }
  // What depart_systems_requiring needs: the instances by id, and their
  // subscriptions.
  static constexpr std::size_t system_count = 2;
  template <std::size_t I>
  auto& instance() {
    if constexpr (I == 0) {
      return movers_instance;
    } else {
      return medics_instance;
    }
  }
  subscription_type& subscription(std::size_t system) {
    return system == 0 ? movers_instance.subscription_
                       : medics_instance.subscription_;
  }
  fake_instance<0, kPosition>& movers() { return movers_instance; }
  fake_instance<1, kPosition, kHealth>& medics() { return medics_instance; }

  // An entity with health only: in neither system.
  entity_id create_health_only() {
    const entity_id id = entity_storage.create();
    queue.note_created(entity_storage, id);
    component_storage.add<health>(id, entity_storage.bits(id), 10);
    return id;
  }
  entity_id create(bool with_health) {
    const entity_id id = entity_storage.create();
    queue.note_created(entity_storage, id);
    component_storage.add<position>(id, entity_storage.bits(id));
    if (with_health) {
      component_storage.add<health>(id, entity_storage.bits(id), 10);
    }
    return id;
  }
  // What context_core's remove_component / add_component do for health.
  void remove_health(entity_id id) {
    queue.note_change(entity_storage, id);
    context_internal::depart_systems_requiring<kHealth>(*this, id);
    component_storage.remove<health>(id, entity_storage.bits(id));
  }
  void add_health(entity_id id, int hp) {
    queue.note_change(entity_storage, id);
    component_storage.add<health>(id, entity_storage.bits(id), hp);
  }
  // The phases in the order context_core::refresh runs them for a world
  // without hooks or a hierarchy (internal/core.h), every system noted for
  // subtask work. This copies the core's order; the core's own is checked
  // through a context (docs/refresh_test.cc: ObserveRefresh, DeferredWork).
  void refresh() {
    fake_defer_proxy proxy{this};
    std::exception_ptr failure = context_internal::run_deferred(*this, proxy);
    context_internal::apply_kills(*this, queue, /*parallel=*/true,
                                  /*subtask_work=*/true);
    context_internal::apply_matches(*this, queue, /*parallel=*/true);
    if (failure) std::rethrow_exception(failure);
  }
  // What context_core's create_batch does: `n` entities with position (and
  // health), noted as one batch.
  std::vector<entity_id> create_batch(int n, bool with_health) {
    bitset_type bits = bitset_type::of({kPosition});
    if (with_health) bits.set(kHealth);
    queue.begin_batch(bits);
    std::vector<entity_id> made;
    for (int i = 0; i < n; ++i) {
      const entity_id id = entity_storage.create();
      queue.note_created_in_batch(entity_storage, id);
      component_storage.add<position>(id, entity_storage.bits(id));
      if (with_health) {
        component_storage.add<health>(id, entity_storage.bits(id), 10);
      }
      made.push_back(id);
    }
    return made;
  }
};

TEST(RefreshTest, MatchingSubscribesToSystemsWhoseComponentsTheEntityHas) {
  world w;
  const entity_id walker = w.create(false);
  const entity_id patient = w.create(true);
  EXPECT_EQ(w.queue.pending_matches(), 2u);
  EXPECT_EQ(w.movers().entity_count(), 0u);  // only at the refresh
  w.refresh();
  EXPECT_TRUE(w.movers().contains(walker));
  EXPECT_TRUE(w.movers().contains(patient));
  EXPECT_FALSE(w.medics().contains(walker));
  EXPECT_TRUE(w.medics().contains(patient));
  EXPECT_EQ(w.log, (std::vector<std::string>{"movers+0@0", "movers+1@0",
                                             "medics+1@0"}));
  EXPECT_EQ(w.queue.pending_matches(), 0u);
}

// create_entities: a batch is matched once per system and joins every
// system its components match, like entities created one at a time; batch
// entities changed or killed after the batch was made are matched (or
// dropped) on their own. Without hooks (the batch path) and with hooks
// (matched one by one, for the events' order), the same memberships.
TEST(RefreshTest, ABatchJoinsTheSystemsItsComponentsMatch) {
  for (bool hooks : {false, true}) {
    SCOPED_TRACE(hooks ? "with hooks" : "without hooks");
    world w(hooks);
    const std::vector<entity_id> walkers = w.create_batch(5, false);
    const std::vector<entity_id> patients = w.create_batch(3, true);
    EXPECT_EQ(w.queue.pending_matches(), 8u);
    w.add_health(walkers[1], 4);   // now a patient too
    w.remove_health(patients[2]);  // now a walker only
    w.queue.queue_kill(w.entity_storage, walkers[3]);
    const entity_id single = w.create(true);
    w.refresh();
    EXPECT_EQ(w.queue.pending_matches(), 0u);
    for (entity_id e : walkers) {
      if (e == walkers[3]) continue;
      EXPECT_TRUE(w.movers().contains(e));
      EXPECT_EQ(w.medics().contains(e), e == walkers[1]);
    }
    EXPECT_FALSE(w.entity_storage.alive(walkers[3]));
    EXPECT_FALSE(w.movers().contains(walkers[3]));
    for (entity_id e : patients) {
      EXPECT_TRUE(w.movers().contains(e));
      EXPECT_EQ(w.medics().contains(e), e != patients[2]);
    }
    EXPECT_TRUE(w.medics().contains(single));
    EXPECT_EQ(w.movers().entity_count(), 4u + 3u + 1u);
    EXPECT_EQ(w.medics().entity_count(), 1u + 2u + 1u);
    EXPECT_EQ(w.log.size(), hooks ? 12u : 0u);
    // Batch entities are matched now: a later change is a change.
    w.log.clear();
    w.remove_health(patients[0]);
    w.refresh();
    EXPECT_FALSE(w.medics().contains(patients[0]));
    EXPECT_EQ(w.log, hooks ? std::vector<std::string>{"medics-" +
                                                      to_string(patients[0])}
                           : std::vector<std::string>{});
  }
}

// Without subscribe events to order, entities created one at a time are
// gathered into batches (consecutive ones with the same components); the
// memberships are those of the one-by-one matching, also for runs broken
// by other components, killed entities and changed ones.
TEST(RefreshTest, EntitiesCreatedOneAtATimeMatchTheSameWithoutHooks) {
  std::vector<std::vector<bool>> memberships;
  for (bool hooks : {true, false}) {
    world w(hooks);
    const entity_id old = w.create(true);
    w.refresh();
    std::vector<entity_id> made;
    for (int i = 0; i < 12; ++i) made.push_back(w.create(i % 5 == 3));
    w.remove_health(old);
    w.add_health(made[0], 1);
    w.queue.queue_kill(w.entity_storage, made[7]);
    w.refresh();
    std::vector<bool> in;
    for (entity_id e : made) {
      in.push_back(w.movers().contains(e));
      in.push_back(w.medics().contains(e));
    }
    in.push_back(w.medics().contains(old));
    memberships.push_back(in);
    EXPECT_FALSE(w.medics().contains(old));
    EXPECT_TRUE(w.medics().contains(made[0]));
    EXPECT_FALSE(w.movers().contains(made[7]));
    EXPECT_EQ(w.movers().entity_count(), 1u + 11u);
  }
  EXPECT_EQ(memberships[0], memberships[1]);
}

TEST(RefreshTest, AnEntityIsQueuedForMatchingOncePerStep) {
  world w;
  const entity_id e = w.create(false);
  w.queue.note_change(w.entity_storage, e);
  w.queue.note_change(w.entity_storage, e);
  EXPECT_EQ(w.queue.pending_matches(), 1u);
  w.refresh();
  w.queue.note_change(w.entity_storage, e);  // a new step: again
  EXPECT_EQ(w.queue.pending_matches(), 1u);
}

TEST(RefreshTest, LosingAComponentUnsubscribesAtTheNextMatch) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.queue.note_change(w.entity_storage, e);
  w.component_storage.remove<health>(e, w.entity_storage.bits(e));
  w.log.clear();
  w.refresh();
  EXPECT_TRUE(w.movers().contains(e));
  EXPECT_FALSE(w.medics().contains(e));
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

// Without hooks or an observer, kills leave every system in one pass per
// system (erase_all), possibly in parallel: the same memberships.
TEST(RefreshTest, KillsWithoutHooksLeaveEverySystem) {
  world w(/*hooks=*/false);
  std::vector<entity_id> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(w.create(i != 2));
  w.refresh();
  EXPECT_EQ(w.movers().entity_count(), 4u);
  EXPECT_EQ(w.medics().entity_count(), 3u);
  w.queue.queue_kill(w.entity_storage, ids[3]);
  w.movers().state(1).to_kill.push_back(ids[0]);
  w.refresh();
  for (int i : {0, 3}) {
    EXPECT_FALSE(w.entity_storage.alive(ids[i]));
    EXPECT_FALSE(w.movers().contains(ids[i]));
    EXPECT_FALSE(w.medics().contains(ids[i]));
  }
  EXPECT_TRUE(w.movers().contains(ids[1]));
  EXPECT_TRUE(w.movers().contains(ids[2]));
  EXPECT_TRUE(w.medics().contains(ids[1]));
  EXPECT_EQ(w.movers().entity_count(), 2u);
  EXPECT_EQ(w.medics().entity_count(), 1u);
  EXPECT_TRUE(w.log.empty());
}

TEST(RefreshTest, DeferredFunctionsRunFirstInSystemSubtaskAndDeferralOrder) {
  world w;
  std::vector<std::string> order;
  auto record = [&](std::string what) {
    return [&order, what](fake_defer_proxy&) { order.push_back(what); };
  };
  w.medics().state(0).deferred.push(record("medics/0/a"));
  w.movers().state(1).deferred.push(record("movers/1/a"));
  w.movers().state(0).deferred.push(record("movers/0/a"));
  w.movers().state(0).deferred.push(record("movers/0/b"));
  // A deferred creation is matched in the same refresh.
  w.medics().state(1).deferred.push(
      [](fake_defer_proxy& proxy) { proxy.w->create(false); });
  w.refresh();
  EXPECT_EQ(order, (std::vector<std::string>{"movers/0/a", "movers/0/b",
                                             "movers/1/a", "medics/0/a"}));
  EXPECT_EQ(w.movers().entity_count(), 1u);
  EXPECT_TRUE(w.movers().state(0).deferred.empty());
}

TEST(RefreshTest, AThrowingDeferredFunctionLetsTheRestKillsAndMatchesRun) {
  world w;
  const entity_id doomed = w.create(false);
  w.refresh();
  bool later_ran = false;
  w.movers().state(0).deferred.push(
      [](fake_defer_proxy&) { throw std::runtime_error("deferred failed"); });
  w.movers().state(1).deferred.push(
      [&](fake_defer_proxy&) { later_ran = true; });
  w.queue.queue_kill(w.entity_storage, doomed);
  const entity_id fresh = w.create(false);
  EXPECT_THROW(w.refresh(), std::runtime_error);
  EXPECT_TRUE(later_ran);
  EXPECT_FALSE(w.entity_storage.alive(doomed));
  EXPECT_TRUE(w.movers().contains(fresh));
  EXPECT_TRUE(w.movers().state(1).deferred.empty());
}

// The threaded scheduler's remembered inline decisions hold while every
// subscription stays within its growth limit (internal/adaptive_run_policy.cc):
// the refresh reports one that grew past it, once.
TEST(RefreshTest, ReportsASubscriptionThatGrewPastItsLimit) {
  world w;
  w.create(false);
  w.refresh();
  EXPECT_FALSE(w.queue.take_subscription_growth());  // no limit set
  w.movers().subscription_.set_growth_limit(2);
  w.create(false);
  w.refresh();
  EXPECT_FALSE(w.queue.take_subscription_growth());  // 2 members: at the limit
  w.create(false);
  w.refresh();
  EXPECT_TRUE(w.queue.take_subscription_growth());   // 3
  EXPECT_FALSE(w.queue.take_subscription_growth());  // taking resets it
}

TEST(RefreshTest, OnlyKillsAndMatchesVisitSystemsInParallel) {
  world w;
  const entity_id e = w.create(false);
  w.refresh();
  w.queue.queue_kill(w.entity_storage, e);
  w.create(false);
  w.parallel_requests.clear();
  w.refresh();
  // Kills: the hook scan, then the pass; matches: the subscribe-hook scan,
  // the departure scan, the pass, then the growth check. Deferred functions
  // and subtask kills visit instances, in order.
  EXPECT_EQ(w.parallel_requests,
            (std::vector<bool>{false, true, false, false, true, false}));
}

TEST(RefreshTest, ADepartureIsAppliedAtTheNextLookSilently) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.log.clear();
  w.remove_health(e);
  EXPECT_TRUE(w.medics().contains(e));  // noted, not applied yet
  w.medics().settle();                  // a look: a run or a query
  EXPECT_FALSE(w.medics().contains(e));
  EXPECT_TRUE(w.movers().contains(e));  // movers does not require health
  EXPECT_TRUE(w.log.empty());  // whether it really left is the refresh's call
  w.refresh();
  EXPECT_EQ(w.log, (std::vector<std::string>{"medics-0@0"}));
}

TEST(RefreshTest, ADepartureNeverLookedAtIsDecidedByTheRefresh) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.log.clear();
  w.remove_health(e);
  w.refresh();  // no look in the step: the refresh takes it out
  EXPECT_FALSE(w.medics().contains(e));
  EXPECT_EQ(w.log, (std::vector<std::string>{"medics-0@0"}));
  EXPECT_EQ(w.medics().subscription_.pending_departures(),
            0u);  // forgotten at the refresh
}

// The RemoveAddComponent pattern: a component removed and added again before
// the system looks leaves the entity where it was, with no events.
TEST(RefreshTest, RemoveThenAddOfTheSameComponentIsNotADeparture) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.log.clear();
  w.remove_health(e);
  w.add_health(e, 3);
  w.medics().settle();
  EXPECT_TRUE(w.medics().contains(e));  // it never left
  w.refresh();
  EXPECT_TRUE(w.medics().contains(e));
  EXPECT_TRUE(w.log.empty());
}

// Removed, looked at (so it left), added back: in again at the refresh,
// silently, because it matched at the last refresh too.
TEST(RefreshTest, AnEntityThatLeftAndGotItsComponentBackReturnsSilently) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.log.clear();
  w.remove_health(e);
  w.medics().settle();
  EXPECT_FALSE(w.medics().contains(e));
  w.add_health(e, 3);
  EXPECT_FALSE(w.medics().contains(e));  // back only at the refresh
  w.refresh();
  EXPECT_TRUE(w.medics().contains(e));
  EXPECT_TRUE(w.log.empty());
  EXPECT_FALSE(w.medics().subscription_.left_since_refresh());
}

// A change touches only the systems whose required (or excluded) components
// include what changed: here movers (position only) is left alone when
// health changes, which the test sees by planting wrong memberships there.
// A member that still matches is kept wherever it is looked at, so only
// the planted non-member (g, which has no position) can show a look.
TEST(RefreshTest, AChangeRematchesOnlyTheSystemsThatCareAboutIt) {
  world w;
  const entity_id e = w.create(false);
  const entity_id g = w.create_health_only();
  w.refresh();
  EXPECT_FALSE(w.movers().contains(g));
  w.movers().mutable_subscribed().erase(e.index());   // planted
  w.movers().mutable_subscribed().insert(g.index());  // planted
  w.add_health(e, 1);
  w.remove_health(g);
  w.refresh();
  EXPECT_FALSE(w.movers().contains(e));  // not revisited
  EXPECT_TRUE(w.movers().contains(g));   // not revisited
  EXPECT_TRUE(w.medics().contains(e));
}

// Components as they were at the last refresh (here a replaced one): the
// entry is dropped by the matching's first pass, before any system looks.
// (Were it not, the systems' own test, concerns(), would still leave it
// alone, as a planted wrong membership shows; so the pass is checked
// directly.)
TEST(RefreshTest, AnEntityWithTheComponentsItHadIsNotRematched) {
  world w;
  const entity_id e = w.create(true);
  w.refresh();
  w.medics().mutable_subscribed().erase(e.index());  // planted
  w.add_health(e, 9);
  EXPECT_EQ(w.queue.pending_matches(), 1u);
  context_internal::drop_unchanged(w, w.queue, /*gather_created=*/true);
  EXPECT_EQ(w.queue.pending_matches(), 0u);
  w.refresh();
  EXPECT_FALSE(w.medics().contains(e));  // not revisited
  EXPECT_EQ(w.queue.pending_matches(), 0u);
}

TEST(RefreshTest, TheObserverSeesEventsInTheDocumentedOrder) {
  world w;
  std::vector<std::string> seen;
  w.observer_function = [&](const refresh_event& event) {
    const char* what = event.what == refresh_event::kind::subscribe ? "+"
                       : event.what == refresh_event::kind::unsubscribe
                           ? "-"
                           : "reclaim ";
    seen.push_back(std::string(event.system_name) + what +
                   to_string(event.entity));
  };
  const entity_id a = w.create(true);
  const entity_id b = w.create(false);
  w.refresh();
  // Entity-major: each entity's events in system id order.
  EXPECT_EQ(seen, (std::vector<std::string>{"movers+0@0", "medics+0@0",
                                            "movers+1@0"}));
  EXPECT_EQ(w.log, (std::vector<std::string>{"movers+0@0", "medics+0@0",
                                             "movers+1@0"}));
  seen.clear();
  w.queue.queue_kill(w.entity_storage, b);
  w.queue.queue_kill(w.entity_storage, a);
  w.create(true);  // reuses no index yet: kills come first, then matches
  w.parallel_requests.clear();
  w.refresh();
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "movers-0@0", "medics-0@0", "reclaim 0@0", "movers-1@0",
                      "reclaim 1@0", "movers+2@0", "medics+2@0"}));
  // While observed, nothing runs in parallel.
  for (bool parallel : w.parallel_requests) EXPECT_FALSE(parallel);
}

}  // namespace
}  // namespace strata
