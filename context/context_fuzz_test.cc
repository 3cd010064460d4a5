// Model-based fuzz test of the context.
//
// Random steps of critical operations (create, create_entities, kill,
// kill_entities, kill through a handle, add/remove components one at a time
// and in batches, remove-then-add of one component several times in a step,
// stale ids and handles, system runs whose systems kill and defer more work)
// are applied both to a context and to a plain model written the obvious way
// (maps and sets, linear scans). After every step everything is compared:
// entities and every component value, component counts, every system's
// subscribed set against the model's matching set (required components
// present, excluded ones absent), the deferred work (what ran, in which
// order, with which result), the on_subscribe / on_unsubscribe hooks of
// every system and, in some variants, the context-wide refresh observer
// (subscribe / unsubscribe / reclaim, in the order context/refresh.h gives).
//
// The world: position and velocity in one contiguous SoA chunk, health in a
// sparse set, frozen in a hash map; five systems:
//   movement  write position, read velocity, exclude frozen: for_each(p&, v)
//   damage    write health, read_optional velocity (try_read); kills at hp<=0
//   freezer   read position, write_optional frozen (try_get, writes n);
//             defers freeze (add frozen, maybe remove velocity), refreeze
//             (remove then add frozen) and thaw (remove); kills at n>=8
//   spawner   read health, exclude frozen: defers creations (create_entity,
//             create_entities) and kill_entities of itself, by its health
//   census    read velocity, read_optional health, exclude position: an
//             output per subtask, and try_get/alive on stale ids
// Every decision a system makes is a function of component values (the
// rules below), which the model applies to its own copy in system id order
// (a valid order of the dependency graph; independent systems share no
// written component).
//
// The timing rules the model follows (context/context.h, refresh.h):
// creations are alive at once and in no system until the refresh; kills
// take effect at the refresh; add_component joins (or leaves, for an
// excluding system) at the refresh; remove_component leaves every system
// requiring the component at once; a remove and a re-add in one step leave
// the entity where it was, without events; deferred functions run first in
// the refresh (system id, subtask, deferral order), then the kills (those of
// the proxies and those the systems requested, in index order), then the
// matching of every changed entity, in the order it was first changed.
//
// Exceptions (the exceptions variants; context/context.h's contract): in a
// run, some systems throw for some entities: movement, damage and freezer
// inside for_each, after their writes (every entity is still visited, so
// the writes stay), spawner and census outside it, after for_each (they
// write no component, so where their subtask stops changes nothing the
// throw does not discard). The model drops a throwing run's kills, deferred
// functions and outputs, skips its dependents, and predicts the exception:
// the lowest system id's, for its lowest triggered entity. Some deferred
// functions throw after their work (the others still run; step() rethrows
// the first in deferral order unless the step threw); add_component of
// frozen from `poison` throws in its constructor (the entity stays as it
// was); the step function throws at a random point (its work so far takes
// effect). System and constructor exceptions are caught in the step
// function or left to reach step()'s caller.
//
// Variants: the sequential scheduler on one thread; atomic_counter on four
// threads with inner parallelism (systems split by several strategies) and a
// parallel refresh; checked_access (for_each by id); a small fixed entity
// limit that fills up (refusals in a step and in deferred functions); two
// with exceptions (sequential and atomic_counter); and three with the
// refresh observer on.
//
// Length: a short fixed-seed run by default. Longer or other runs from the
// environment (tools/fuzz_context.sh wraps this):
//   STRATA_FUZZ_SEED=S   base seed; 0 picks a random one (printed). Variant
//                        k uses S + k.
//   STRATA_FUZZ_STEPS=N  steps per variant.
// The default run is base seed 1000 with the steps each TEST gives. A
// failure names the step and the base seed that replays it.
//
// The fuzz test found one bug, fixed in context/refresh.h: a kill skipped
// the unsubscribe hook of a system whose subscription had become empty
// (KillAfterRemoveUnsubscribesFromEmptiedSystem at the end is its repro).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "component_storage/hash_map_chunk.h"
#include "context/context.h"
#include "gtest/gtest.h"
#include "testing/components.h"
#include "testing/timeout.h"

namespace {

using strata::entity_handle;
using strata::entity_id;
using strata::testing::health;
using strata::testing::position;
using strata::testing::velocity;

// The argument of a frozen constructor that throws.
struct poison {};

[[noreturn]] void throw_constructor_error();  // a fuzz_error, defined below

struct frozen {
  int n = 0;
  frozen() = default;
  frozen(int value) : n(value) {}  // NOLINT: frozen{0} reads as a value
  explicit frozen(poison) { throw_constructor_error(); }
  friend bool operator==(const frozen&, const frozen&) = default;
};

namespace ct {
using strata::testing::ct::health;
using strata::testing::ct::position;
using strata::testing::ct::velocity;
inline constexpr auto frozen = strata::tag<::frozen>;
}  // namespace ct

// ---------------------------------------------------------------------------
// The rules systems follow, shared by the systems and the model.

constexpr float kDt = 0.5f;

// Positions stay small multiples of 0.25, so float arithmetic is exact.
float wrap(float v) { return v > 40 || v < -40 ? 0.f : v; }
int key(float v) { return static_cast<int>(std::floor(v)); }

void move(position& p, const velocity& v) {
  p.x = wrap(p.x + v.x * kDt);
  p.y = wrap(p.y + v.y * kDt);
}

// damage: true if the entity dies.
bool hurt(health& h, bool has_velocity) {
  h.hp -= has_velocity ? 2 : 1;
  return h.hp <= 0;
}

enum class op_kind { freeze, refreeze, thaw, spawn_one, spawn_two, self_kill };
constexpr int kOpKinds = 6;

struct freeze_decision {
  bool kill = false;
  std::optional<op_kind> defer;
  bool strip_velocity = false;
};

// freezer: counts frozen entities up (writing through try_get); freezes
// others at some positions.
freeze_decision freeze_rule(const position& p, frozen* f) {
  if (f != nullptr) {
    ++f->n;
    if (f->n == 2) return {false, op_kind::refreeze, false};
    if (f->n == 5) return {false, op_kind::thaw, false};
    if (f->n >= 8) return {true, std::nullopt, false};
    return {};
  }
  if (key(p.x) % 4 == 0) return {false, op_kind::freeze, key(p.y) % 2 == 0};
  return {};
}

// spawner. Spawned entities have health 5 or 7 and no velocity, so they
// reach 4 (self_kill) before 3 or 2: spawning never cascades.
std::optional<op_kind> spawn_rule(const health& h) {
  switch (h.hp) {
    case 2:
      return op_kind::spawn_one;
    case 3:
      return op_kind::spawn_two;
    case 4:
      return op_kind::self_kill;
    default:
      return std::nullopt;
  }
}

// ---------------------------------------------------------------------------
// Exceptions (variants with `exceptions`): what was thrown, by whom. A
// system throws for the entities `triggers` picks (salt < 0: never); the
// exception names the lowest such entity, which is what step() promises to
// rethrow whatever the split (context/context.h).

struct fuzz_error {
  enum class source { system, deferred, constructor, step_function };
  source from;
  std::size_t system = 0;
  entity_id entity;
  friend bool operator==(const fuzz_error&, const fuzz_error&) = default;
};

std::ostream& operator<<(std::ostream& os, const fuzz_error& e) {
  static constexpr const char* kSources[] = {"system", "deferred",
                                             "constructor", "step function"};
  return os << "{" << kSources[static_cast<int>(e.from)] << " system "
            << e.system << " entity " << e.entity << "}";
}

void throw_constructor_error() {
  throw fuzz_error{fuzz_error::source::constructor, 0, strata::null_entity};
}

bool triggers(int salt, entity_id e) {
  return salt >= 0 && (e.index() + static_cast<unsigned>(salt)) % 7 == 0;
}

// ---------------------------------------------------------------------------
// Deferred work: each deferred function performs one op and logs what it
// saw; the model replays the log.

struct deferred_op {
  op_kind kind;
  std::size_t system;
  entity_id source;
  int run;      // which execute_systems() of the step deferred it
  position at;  // where spawns go
  bool strip_velocity;
  bool throws = false;  // after its work
  friend bool operator==(const deferred_op&, const deferred_op&) = default;
  auto order_key() const {
    return std::make_tuple(system, run, source.index(), static_cast<int>(kind));
  }
};

std::ostream& operator<<(std::ostream& os, const deferred_op& op) {
  return os << "{op " << static_cast<int>(op.kind) << " system " << op.system
            << " source " << op.source << " run " << op.run << "}";
}

struct deferred_record {
  deferred_op op;
  bool source_alive = false;
  bool removed = false;  // what remove_component returned
  std::size_t killed = 0;
  std::vector<entity_id> created;  // spawn_one: the id, null if refused
  bool null_probes_ok = true;      // a refused creation's null id is dead
};

struct deferred_log {
  std::vector<deferred_record> records;
};

template <typename Proxy>
deferred_record apply_op(Proxy& proxy, const deferred_op& op) {
  deferred_record r{op, false, false, 0, {}, true};
  r.source_alive = proxy.alive(op.source);
  switch (op.kind) {
    case op_kind::freeze:
      proxy.add_component(ct::frozen, op.source, frozen{0});
      if (op.strip_velocity) {
        r.removed = proxy.remove_component(ct::velocity, op.source);
      }
      break;
    case op_kind::refreeze:
      r.removed = proxy.remove_component(ct::frozen, op.source);
      proxy.add_component(ct::frozen, op.source, frozen{3});
      break;
    case op_kind::thaw:
      r.removed = proxy.remove_component(ct::frozen, op.source);
      break;
    case op_kind::spawn_one: {
      const entity_id id = proxy.create_entity();
      r.created.push_back(id);
      // On a refused creation's null id: a scratch object, discarded.
      proxy.add_component(ct::position, id, op.at);
      proxy.add_component(ct::health, id, health{5});
      if (id.is_null()) {
        r.null_probes_ok = !proxy.alive(id) && !proxy.kill_entity(id) &&
                           !proxy.remove_component(ct::position, id) &&
                           !proxy.has_component(ct::health, id);
      }
      break;
    }
    case op_kind::spawn_two:
      proxy.create_entities(2, [&](entity_id id, health& h, position& p) {
        h.hp = 7;
        p = op.at;
        r.created.push_back(id);
      });
      break;
    case op_kind::self_kill:
      r.killed = proxy.kill_entities(std::array{op.source, op.source});
      break;
  }
  return r;
}

// ---------------------------------------------------------------------------
// The systems.

struct hook_event {
  bool subscribe;
  entity_id id;
  friend bool operator==(const hook_event&, const hook_event&) = default;
};
std::ostream& operator<<(std::ostream& os, const hook_event& e) {
  return os << (e.subscribe ? "+" : "-") << e.id;
}

// Records the refresh hooks (one system's hooks run on one thread at a time).
struct hooks {
  std::vector<hook_event> events;
  int throw_salt = -1;  // set by the test before each execute_systems()
  // Throws for the lowest triggered entity of `ids` (ascending), if any.
  void throw_for_first(const std::vector<entity_id>& ids,
                       std::size_t system) const {
    for (entity_id e : ids) {
      if (triggers(throw_salt, e)) {
        throw fuzz_error{fuzz_error::source::system, system, e};
      }
    }
  }
  void throw_if_triggered(entity_id e, std::size_t system) const {
    if (triggers(throw_salt, e)) {
      throw fuzz_error{fuzz_error::source::system, system, e};
    }
  }
  void on_subscribe(entity_id e) { events.push_back({true, e}); }
  void on_unsubscribe(entity_id e) { events.push_back({false, e}); }
};

struct deferring : hooks {
  deferred_log* log = nullptr;
  int run = 0;                // set by the test before each execute_systems()
  int defer_throw_salt = -1;  // deferred functions that throw
  template <typename Data>
  void defer_op(Data& data, deferred_op op) const {
    op.throws = triggers(defer_throw_salt, op.source);
    data.defer([log = log, op](auto& proxy) {
      log->records.push_back(apply_op(proxy, op));
      if (op.throws) {
        throw fuzz_error{fuzz_error::source::deferred, op.system, op.source};
      }
    });
  }
};

struct movement : hooks {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, position& p, const velocity& v) {
      move(p, v);
      throw_if_triggered(e, 0);  // inside for_each, after the write
    });
  }
};

struct damage : hooks {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, health& h) {
      if (hurt(h, data.try_read(ct::velocity, e) != nullptr)) {
        data.kill_entity(e);
      }
      throw_if_triggered(e, 1);  // inside for_each, after the kill
    });
  }
};

struct freezer : deferring {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id e, const position& p) {
      frozen* f = data.try_get(ct::frozen, e);
      const freeze_decision d = freeze_rule(p, f);
      if (d.kill) data.kill_entity(e);
      if (d.defer) defer_op(data, {*d.defer, 2, e, run, p, d.strip_velocity});
      throw_if_triggered(e, 2);
    });
  }
};

position spawn_position(const health& h) {
  return {static_cast<float>(h.hp), -static_cast<float>(h.hp)};
}

struct spawner : deferring {
  template <typename Data>
  void process(Data& data) const {
    std::vector<entity_id> visited;
    data.for_each([&](entity_id e, const health& h) {
      if (auto kind = spawn_rule(h)) {
        defer_op(data, {*kind, 3, e, run, spawn_position(h), false});
      }
      if (throw_salt >= 0) visited.push_back(e);
    });
    // Outside for_each: spawner writes no component, so where its subtask
    // stops changes nothing the throw does not discard.
    throw_for_first(visited, 3);
  }
};

struct census_output {
  long count = 0;
  long hp_sum = 0;
  long vx_sum = 0;
  long stale_seen = 0;  // stale ids that try_read or alive took for alive
};

struct census : hooks {
  std::vector<entity_id> stale;  // set by the test before a run; read only
  template <typename Data>
  void process(Data& data) const {
    auto& out = data.output();
    std::vector<entity_id> visited;
    data.for_each([&](entity_id e, const velocity& v) {
      ++out.count;
      out.vx_sum += key(v.x);
      if (const health* h = data.try_read(ct::health, e)) out.hp_sum += h->hp;
      if (throw_salt >= 0) visited.push_back(e);
    });
    throw_for_first(visited, 4);  // outside for_each; census writes nothing
    if (data.subtask_index() == 0) {
      for (entity_id id : stale) {
        out.stale_seen += data.alive(id) ||
                          data.try_read(ct::health, id) != nullptr ||
                          data.try_read(ct::velocity, id) != nullptr ||
                          data.has(ct::frozen, id);
      }
    }
  }
};

namespace st {
inline constexpr auto movement = strata::tag<::movement>;
inline constexpr auto damage = strata::tag<::damage>;
inline constexpr auto freezer = strata::tag<::freezer>;
inline constexpr auto spawner = strata::tag<::spawner>;
inline constexpr auto census = strata::tag<::census>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position,
                                      ct::velocity),  // contiguous, SoA
    strata::component_signature::make(ct::health).sparse(),
    strata::component_signature::make(ct::frozen).hash_map());

constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::movement)
        .read(ct::velocity)
        .write(ct::position)
        .exclude(ct::frozen)
        .parallelism(strata::inner_parallelism::split_evenly(3)),
    strata::system_signature::make(st::damage)
        .write(ct::health)
        .read_optional(ct::velocity)
        .parallelism(strata::inner_parallelism::split_every_n(5)),
    strata::system_signature::make(st::freezer)
        .read(ct::position)
        .write_optional(ct::frozen)
        .dependencies(st::movement)
        // It writes frozen through try_get (an optional component), which
        // only a system that never splits may (data_proxy.h).
        .parallelism(strata::inner_parallelism::none()),
    strata::system_signature::make(st::spawner)
        .read(ct::health)
        .exclude(ct::frozen)
        .dependencies(st::damage)
        .parallelism(strata::inner_parallelism::split_every_n(4)),
    strata::system_signature::make(st::census)
        .read(ct::velocity)
        .read_optional(ct::health)
        .exclude(ct::position)
        .dependencies(st::damage)
        .parallelism(strata::inner_parallelism::split_evenly(2))
        .output<census_output>());

// The same signatures, by hand, for the model.
constexpr std::size_t kSystems = 5;
constexpr int kComponents = 4;
enum component_index { kPosition, kVelocity, kHealth, kFrozen };
constexpr bool kRequired[kSystems][kComponents] = {
    {true, true, false, false},   // movement
    {false, false, true, false},  // damage
    {true, false, false, false},  // freezer
    {false, false, true, false},  // spawner
    {false, true, false, false},  // census
};
constexpr bool kExcluded[kSystems][kComponents] = {
    {false, false, false, true},   // movement
    {false, false, false, false},  // damage
    {false, false, false, false},  // freezer
    {false, false, false, true},   // spawner
    {true, false, false, false},   // census
};

constexpr const char* kSystemNames[kSystems] = {"movement", "damage", "freezer",
                                                "spawner", "census"};

// f(s, st::x) for every system, in id order.
template <typename F>
void for_each_system(F&& f) {
  f(std::size_t{0}, st::movement);
  f(std::size_t{1}, st::damage);
  f(std::size_t{2}, st::freezer);
  f(std::size_t{3}, st::spawner);
  f(std::size_t{4}, st::census);
}

// ---------------------------------------------------------------------------
// The model.

struct model_entity {
  entity_id id;
  std::optional<position> pos;
  std::optional<velocity> vel;
  std::optional<health> hp;
  std::optional<frozen> fr;
  bool has(int c) const {
    switch (c) {
      case kPosition:
        return pos.has_value();
      case kVelocity:
        return vel.has_value();
      case kHealth:
        return hp.has_value();
      default:
        return fr.has_value();
    }
  }
};

// f(ct::x, &model_entity::x) for component c.
template <typename F>
void with_component(int c, F&& f) {
  switch (c) {
    case kPosition:
      f(ct::position, &model_entity::pos);
      break;
    case kVelocity:
      f(ct::velocity, &model_entity::vel);
      break;
    case kHealth:
      f(ct::health, &model_entity::hp);
      break;
    default:
      f(ct::frozen, &model_entity::fr);
      break;
  }
}
template <typename F>
void for_each_component(F&& f) {
  for (int c = 0; c < kComponents; ++c) with_component(c, f);
}

bool matches(std::size_t s, const model_entity& e) {
  for (int c = 0; c < kComponents; ++c) {
    if (kRequired[s][c] && !e.has(c)) return false;
    if (kExcluded[s][c] && e.has(c)) return false;
  }
  return true;
}

struct model_event {
  strata::refresh_event::kind what;
  entity_id id;
  std::size_t system;  // refresh_event::no_system for reclaim
  friend bool operator==(const model_event&, const model_event&) = default;
};
std::ostream& operator<<(std::ostream& os, const model_event& e) {
  static constexpr const char* kNames[] = {"subscribe", "unsubscribe",
                                           "reclaim"};
  os << kNames[static_cast<int>(e.what)] << " " << e.id;
  if (e.system != strata::refresh_event::no_system) {
    os << " " << kSystemNames[e.system];
  }
  return os;
}

struct fuzz_stats {
  long steps = 0, creates = 0, batch_creates = 0, kills = 0, handle_kills = 0,
       batch_kills = 0, adds = 0, batch_adds = 0, removes = 0,
       batch_removes = 0, readds = 0, readds_in_system = 0, runs = 0,
       stale_probes = 0, refused_in_step = 0, refused_deferred = 0,
       system_kills = 0, subscribes = 0, unsubscribes = 0, reclaims = 0,
       max_alive = 0, culls = 0, system_throws = 0, caught_in_step = 0,
       deferred_throws = 0, constructor_throws = 0, step_throws = 0,
       escaped = 0;
  std::array<long, kOpKinds> deferred{};
};

class model {
 public:
  explicit model(std::size_t limit) : limit_(limit) {}

  std::size_t limit() const { return limit_; }
  bool full() const { return limit_ != 0 && alive_.size() >= limit_; }
  std::size_t room() const {
    return limit_ == 0 ? ~std::size_t{0} : limit_ - alive_.size();
  }
  const std::map<std::uint32_t, model_entity>& alive() const { return alive_; }
  // The system's subscription (after the last refresh, less the entities
  // that lost a required component since).
  const std::set<std::uint32_t>& subscribed(std::size_t s) const {
    return now_[s];
  }
  bool marked(entity_id id) const { return marked_.count(id.index()) != 0; }
  std::size_t refused() const { return refused_; }
  fuzz_stats& stats() { return stats_; }

  model_entity* find(entity_id id) {
    auto it = alive_.find(id.index());
    return it != alive_.end() && it->second.id == id ? &it->second : nullptr;
  }
  bool is_alive(entity_id id) { return find(id) != nullptr; }
  bool in_system(std::size_t s, entity_id id) {
    return is_alive(id) && now_[s].count(id.index()) != 0;
  }

  // A random live entity (marked ones included), if any.
  std::optional<entity_id> pick(std::mt19937& rng) const {
    if (alive_.empty()) return std::nullopt;
    auto it = alive_.begin();
    std::advance(it, std::uniform_int_distribution<std::size_t>(
                         0, alive_.size() - 1)(rng));
    return it->second.id;
  }
  std::optional<entity_id> pick_stale(std::mt19937& rng) const {
    if (stale_.empty()) return std::nullopt;
    return stale_[std::uniform_int_distribution<std::size_t>(
        0, stale_.size() - 1)(rng)];
  }
  const std::deque<entity_id>& stale() const { return stale_; }
  const std::deque<entity_handle>& stale_handles() const {
    return stale_handles_;
  }
  const std::map<std::uint32_t, entity_handle>& handles() const {
    return handles_;
  }

  void begin_step() { refused_ = 0; }

  // Critical operations, as the step and defer proxies do them.
  void create(entity_id id) {
    EXPECT_FALSE(id.is_null());
    EXPECT_EQ(alive_.count(id.index()), 0u)
        << "index handed out while alive: " << id;
    alive_[id.index()] = model_entity{id, {}, {}, {}, {}};
    note(id);
    // After 1023 reuses of an index its version wraps (entity_storage.h):
    // a stale copy equal to the new id is alive again, as documented.
    std::erase(stale_, id);
    std::erase_if(stale_handles_, [&](entity_handle h) {
      return h.index() == id.index() && h.counter() == id.version();
    });
    stats_.max_alive =
        std::max<long>(stats_.max_alive, static_cast<long>(alive_.size()));
  }
  bool kill(entity_id id) {
    if (!is_alive(id) || marked(id)) return false;
    marked_.insert(id.index());
    return true;
  }
  template <typename Member, typename Value>
  void add(Member member, entity_id id, const Value& value) {
    model_entity* e = find(id);
    ASSERT_NE(e, nullptr) << "add to a dead entity " << id;
    e->*member = value;
    note(id);
  }
  // add_component whose constructor threw: nothing changes, but the entity
  // is matched again at the refresh like any entity given a component, so
  // it takes its place in the matching order.
  void add_failed(entity_id id) { note(id); }
  bool remove(int c, entity_id id) {
    model_entity* e = find(id);
    if (e == nullptr || !e->has(c)) return false;
    with_component(c, [&](auto, auto member) { (e->*member).reset(); });
    note(id);
    for (std::size_t s = 0; s < kSystems; ++s) {
      if (kRequired[s][c]) now_[s].erase(id.index());
    }
    return true;
  }
  void handle_made(entity_id id, entity_handle h) { handles_[id.index()] = h; }

  // Which systems throw in one run, and which deferred functions.
  struct throw_plan {
    std::array<int, kSystems> salt = {-1, -1, -1, -1, -1};
    int deferred_salt = -1;
  };
  struct run_result {
    census_output out;
    std::optional<fuzz_error> error;  // what execute_systems() throws
  };

  // One execute_systems(): the systems in id order. A system that throws
  // keeps its component writes (for_each visits every entity) and loses its
  // kills, deferred functions and outputs; its dependents do not run.
  run_result run_systems(int run, const throw_plan& plan) {
    ++stats_.runs;
    run_result result;
    std::array<bool, kSystems> threw{};
    const auto visit = [&](std::size_t s, const model_entity& e) {
      if (!triggers(plan.salt[s], e.id) || threw[s]) return;
      threw[s] = true;  // the first visit is the lowest index
      ++stats_.system_throws;
      if (!result.error) {
        result.error = fuzz_error{fuzz_error::source::system, s, e.id};
      }
    };
    const auto op = [&](deferred_op o) {
      o.throws = triggers(plan.deferred_salt, o.source);
      return o;
    };
    for (std::uint32_t i : now_[0]) {
      model_entity& e = alive_.at(i);
      move(*e.pos, *e.vel);
      visit(0, e);
    }
    std::vector<entity_id> kills;
    for (std::uint32_t i : now_[1]) {
      model_entity& e = alive_.at(i);
      if (hurt(*e.hp, e.vel.has_value())) kills.push_back(e.id);
      visit(1, e);
    }
    if (!threw[1])
      system_kills_.insert(system_kills_.end(), kills.begin(), kills.end());
    if (!threw[0]) {  // freezer depends on movement
      kills.clear();
      std::vector<deferred_op> ops;
      for (std::uint32_t i : now_[2]) {
        model_entity& e = alive_.at(i);
        const freeze_decision d = freeze_rule(*e.pos, e.fr ? &*e.fr : nullptr);
        if (d.kill) kills.push_back(e.id);
        if (d.defer) {
          ops.push_back(op({*d.defer, 2, e.id, run, *e.pos, d.strip_velocity}));
        }
        visit(2, e);
      }
      if (!threw[2]) {
        system_kills_.insert(system_kills_.end(), kills.begin(), kills.end());
        expected_ops_.insert(expected_ops_.end(), ops.begin(), ops.end());
      }
    }
    if (threw[1]) return result;  // spawner and census depend on damage
    std::vector<deferred_op> ops;
    for (std::uint32_t i : now_[3]) {
      model_entity& e = alive_.at(i);
      if (auto kind = spawn_rule(*e.hp)) {
        ops.push_back(op({*kind, 3, e.id, run, spawn_position(*e.hp), false}));
      }
      visit(3, e);
    }
    if (!threw[3]) {
      expected_ops_.insert(expected_ops_.end(), ops.begin(), ops.end());
    }
    for (std::uint32_t i : now_[4]) {
      const model_entity& e = alive_.at(i);
      ++result.out.count;
      result.out.vx_sum += key(e.vel->x);
      if (e.hp) result.out.hp_sum += e.hp->hp;
      visit(4, e);
    }
    return result;
  }

  // The exception of the step's deferred functions: the first to throw in
  // the order they run (system, run, subtask, deferral: for one system and
  // run, ascending source index).
  std::optional<fuzz_error> deferred_error() const {
    std::optional<deferred_op> first;
    for (const deferred_op& op : expected_ops_) {
      if (op.throws && (!first || op.order_key() < first->order_key())) {
        first = op;
      }
    }
    if (!first) return std::nullopt;
    return fuzz_error{fuzz_error::source::deferred, first->system,
                      first->source};
  }

  // The refresh: replays the deferred log, applies the kills and the
  // matches; returns the refresh events it expects, in order (`events`),
  // and those the systems' hooks should see (`hooked`; see below).
  struct expected_events {
    std::vector<model_event> events;
    std::vector<model_event> hooked;
  };
  expected_events refresh(const std::vector<deferred_record>& log) {
    check_deferred_order(log);
    for (const deferred_record& r : log) replay(r);
    expected_ops_.clear();

    expected_events expected;
    std::vector<model_event>& events = expected.events;
    // Phase 2: kills in index order.
    std::set<std::uint32_t> kills = marked_;
    for (entity_id id : system_kills_) {
      if (is_alive(id)) kills.insert(id.index());
    }
    stats_.system_kills += static_cast<long>(system_kills_.size());
    for (std::uint32_t i : kills) {
      const entity_id id = alive_.at(i).id;
      for (std::size_t s = 0; s < kSystems; ++s) {
        if (prev_[s].count(i)) {
          events.push_back({strata::refresh_event::kind::unsubscribe, id, s});
          expected.hooked.push_back(events.back());
        }
      }
      events.push_back({strata::refresh_event::kind::reclaim, id,
                        strata::refresh_event::no_system});
      alive_.erase(i);
      stale_.push_back(id);
      if (auto h = handles_.find(i); h != handles_.end()) {
        stale_handles_.push_back(h->second);
        handles_.erase(h);
      }
    }
    while (stale_.size() > 256) stale_.pop_front();
    while (stale_handles_.size() > 64) stale_handles_.pop_front();
    // Phase 3: changed entities in the order of their first change.
    for (entity_id id : change_order_) {
      const model_entity* e = find(id);
      if (e == nullptr) continue;
      for (std::size_t s = 0; s < kSystems; ++s) {
        const bool was = prev_[s].count(id.index()) != 0;
        const bool is = matches(s, *e);
        if (is && !was) {
          events.push_back({strata::refresh_event::kind::subscribe, id, s});
          expected.hooked.push_back(events.back());
        } else if (was && !is) {
          events.push_back({strata::refresh_event::kind::unsubscribe, id, s});
          expected.hooked.push_back(events.back());
        }
      }
    }
    // The plain definition: members are the live entities that match. The
    // events must turn the old membership into exactly that.
    std::array<std::set<std::uint32_t>, kSystems> fresh;
    for (const auto& [i, e] : alive_) {
      for (std::size_t s = 0; s < kSystems; ++s) {
        if (matches(s, e)) fresh[s].insert(i);
      }
    }
    for (const model_event& ev : events) {
      if (ev.system == strata::refresh_event::no_system) {
        ++stats_.reclaims;
        continue;
      }
      if (ev.what == strata::refresh_event::kind::subscribe) {
        ++stats_.subscribes;
        EXPECT_TRUE(prev_[ev.system].insert(ev.id.index()).second);
      } else {
        ++stats_.unsubscribes;
        EXPECT_EQ(prev_[ev.system].erase(ev.id.index()), 1u);
      }
    }
    for (std::size_t s = 0; s < kSystems; ++s) {
      EXPECT_EQ(prev_[s], fresh[s])
          << "model events inconsistent, system " << kSystemNames[s];
    }
    prev_ = fresh;
    now_ = fresh;
    marked_.clear();
    system_kills_.clear();
    change_order_.clear();
    changed_.clear();
    return expected;
  }

 private:
  void note(entity_id id) {
    if (changed_.insert(id.index()).second) change_order_.push_back(id);
  }

  // Deferred functions run in system id, subtask, then deferral order.
  // Subtasks are consecutive slices in index order, so one run's functions
  // of one system come in ascending index order; when a step ran the
  // systems more than once, runs share subtask states, so only each run's
  // own order is fixed.
  void check_deferred_order(const std::vector<deferred_record>& log) {
    std::map<std::pair<std::size_t, int>, std::uint32_t> last;
    for (std::size_t k = 0; k < log.size(); ++k) {
      const deferred_op& op = log[k].op;
      if (k > 0) {
        EXPECT_LE(log[k - 1].op.system, op.system)
            << "deferred functions out of system order at " << k;
      }
      auto [it, fresh] =
          last.try_emplace({op.system, op.run}, op.source.index());
      if (!fresh) {
        EXPECT_LT(it->second, op.source.index())
            << "deferred functions of one run out of subtask order: " << op;
        it->second = op.source.index();
      }
    }
    std::vector<deferred_op> actual, expected = expected_ops_;
    for (const deferred_record& r : log) actual.push_back(r.op);
    const auto by_key = [](const deferred_op& a, const deferred_op& b) {
      return a.order_key() < b.order_key();
    };
    std::sort(actual.begin(), actual.end(), by_key);
    std::sort(expected.begin(), expected.end(), by_key);
    EXPECT_EQ(actual, expected) << "deferred functions that ran";
  }

  void replay(const deferred_record& r) {
    const deferred_op& op = r.op;
    ++stats_.deferred[static_cast<int>(op.kind)];
    stats_.deferred_throws += op.throws;
    EXPECT_TRUE(r.source_alive) << "source of " << op << " dead in phase 1";
    switch (op.kind) {
      case op_kind::freeze: {
        add(&model_entity::fr, op.source, frozen{0});
        const bool had = op.strip_velocity && remove(kVelocity, op.source);
        EXPECT_EQ(r.removed, had) << op;
        break;
      }
      case op_kind::refreeze:
        EXPECT_EQ(r.removed, remove(kFrozen, op.source)) << op;
        add(&model_entity::fr, op.source, frozen{3});
        break;
      case op_kind::thaw:
        EXPECT_EQ(r.removed, remove(kFrozen, op.source)) << op;
        break;
      case op_kind::spawn_one:
        ASSERT_EQ(r.created.size(), 1u);
        if (full()) {
          EXPECT_TRUE(r.created[0].is_null()) << "limit full, yet created";
          EXPECT_TRUE(r.null_probes_ok) << "null id of a refused creation";
          ++refused_;
          ++stats_.refused_deferred;
        } else {
          ASSERT_FALSE(r.created[0].is_null()) << "refused below the limit";
          create(r.created[0]);
          add(&model_entity::pos, r.created[0], op.at);
          add(&model_entity::hp, r.created[0], health{5});
        }
        break;
      case op_kind::spawn_two: {
        const std::size_t n = std::min<std::size_t>(2, room());
        ASSERT_EQ(r.created.size(), n) << op;
        refused_ += 2 - n;
        stats_.refused_deferred += static_cast<long>(2 - n);
        for (entity_id id : r.created) {
          create(id);
          add(&model_entity::hp, id, health{7});
          add(&model_entity::pos, id, op.at);
        }
        break;
      }
      case op_kind::self_kill:
        EXPECT_EQ(r.killed, kill(op.source) ? 1u : 0u) << op;
        break;
    }
  }

  std::size_t limit_;
  std::map<std::uint32_t, model_entity> alive_;  // by index
  // Per system: members at the last refresh, and now.
  std::array<std::set<std::uint32_t>, kSystems> prev_, now_;
  std::set<std::uint32_t> marked_;  // kills of the step and defer proxies
  std::vector<entity_id> system_kills_;
  std::vector<entity_id> change_order_;
  std::set<std::uint32_t> changed_;
  std::vector<deferred_op> expected_ops_;
  std::size_t refused_ = 0;
  std::deque<entity_id> stale_;  // ids of killed entities (the latest)
  std::map<std::uint32_t, entity_handle> handles_;  // of live entities
  std::deque<entity_handle> stale_handles_;
  fuzz_stats stats_;
};

// ---------------------------------------------------------------------------
// Random values.

void randomize(position& p, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-24, 24);
  p = {d(rng) * 0.5f, d(rng) * 0.5f};
}
void randomize(velocity& v, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-3, 3);
  v = {static_cast<float>(d(rng)), static_cast<float>(d(rng))};
}
void randomize(health& h, std::mt19937& rng) {
  h.hp = std::uniform_int_distribution<int>(1, 9)(rng);
}
void randomize(frozen& f, std::mt19937& rng) {
  f.n = std::uniform_int_distribution<int>(0, 9)(rng);
}
template <typename T>
T random_value(std::mt19937& rng) {
  T value;
  randomize(value, rng);
  return value;
}

template <typename Member>
using member_value_t =
    typename std::remove_cvref_t<decltype(std::declval<model_entity&>().*
                                          std::declval<Member>())>::value_type;

// ---------------------------------------------------------------------------
// The run.

struct variant {
  unsigned number;  // seed offset
  int steps;
  bool observe = false;
  std::size_t limit = 0;     // fixed_entity_limit<limit>, 0 for dynamic
  std::size_t target = 120;  // population above which kills get likelier
  bool exceptions = false;   // systems, deferred functions, constructors
                             // and the step function throw
};

struct run_length {
  unsigned seed;
  int steps;
  bool from_environment;
};

// The seed and step count of a variant: fixed unless the environment says.
run_length length_of(const variant& v) {
  run_length r{1000 + v.number, v.steps, false};
  if (const char* steps = std::getenv("STRATA_FUZZ_STEPS");
      steps != nullptr && *steps != '\0') {
    r.steps = std::atoi(steps);
    r.from_environment = true;
  }
  if (const char* seed = std::getenv("STRATA_FUZZ_SEED");
      seed != nullptr && *seed != '\0') {
    static const unsigned long base = [&] {
      unsigned long b = std::strtoul(seed, nullptr, 10);
      if (b == 0) b = std::random_device{}() % 1'000'000'000 + 1;
      std::printf("context_fuzz_test: STRATA_FUZZ_SEED=%lu\n", b);
      return b;
    }();
    r.seed = static_cast<unsigned>(base + v.number);
    r.from_environment = true;
  }
  std::printf("context_fuzz_test: variant %u: seed %u, %d steps\n", v.number,
              r.seed, r.steps);
  std::fflush(stdout);
  return r;
}

template <typename Settings>
class fuzzer {
 public:
  fuzzer(const Settings& settings, const variant& v, unsigned seed)
      : ctx_(strata::make_context(settings)),
        variant_(v),
        model_(v.limit),
        rng_(seed) {
    if (v.observe) {
      ctx_.observe_refresh([this](const strata::refresh_event& e) {
        if (e.what == strata::refresh_event::kind::refused_creations) {
          EXPECT_EQ(observed_refused_, 0u) << "one refusal event per refresh";
          observed_refused_ = e.count;
          return;
        }
        observed_.push_back({e.what, e.entity, e.system_id});
        if (e.what == strata::refresh_event::kind::reclaim) {
          EXPECT_TRUE(e.system_name.empty());
        } else if (e.system_id < kSystems) {
          EXPECT_NE(e.system_name.find(kSystemNames[e.system_id]),
                    std::string_view::npos)
              << e.system_name;
        }
      });
    }
    ctx_.step([&](auto& proxy) {
      proxy.system(st::freezer).log = &log_;
      proxy.system(st::spawner).log = &log_;
    });
  }

  void run(int steps) {
    for (int step = 0; step < steps; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      model_.begin_step();
      runs_ = 0;
      escaped_.reset();
      std::optional<fuzz_error> thrown;
      try {
        ctx_.step([&](auto& proxy) {
          try {
            random_step(proxy);
          } catch (const fuzz_error& e) {
            escaped_ = e;
            throw;
          }
        });
      } catch (const fuzz_error& e) {
        thrown = e;
        ++model_.stats().escaped;
      }
      // The step's own exception wins over the deferred functions' first.
      const std::optional<fuzz_error> expected_error =
          escaped_ ? escaped_ : model_.deferred_error();
      EXPECT_EQ(thrown, expected_error) << "what step() rethrew";
      const auto expected = model_.refresh(log_.records);
      log_.records.clear();
      ++model_.stats().steps;
      compare(expected);
      if (::testing::Test::HasFailure()) return;
    }
  }

  const fuzz_stats& stats() { return model_.stats(); }

 private:
  using rng_type = std::mt19937;

  int uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  bool coin(int percent) { return uniform(1, 100) <= percent; }

  template <typename Proxy>
  void random_step(Proxy& proxy) {
    if (model_.alive().size() > 2 * variant_.target) cull(proxy);
    const int ops = uniform(1, 10);
    for (int k = 0; k < ops && !::testing::Test::HasFailure(); ++k) {
      const bool crowded = model_.alive().size() > variant_.target;
      // A fixed limit is meant to fill up: create more there.
      const int create = crowded ? 1 : variant_.limit != 0 ? 12 : 5;
      // create, create_entities, kill, kill(handle), kill_entities, add,
      // add_components, remove, remove_components, remove+add, run
      // systems, stale probes, make a handle; with exceptions: a throwing
      // constructor, a throw from the step function
      const int throws = variant_.exceptions ? 1 : 0;
      const std::array<int, 15> weights = {create,
                                           crowded ? 0 : create / 4 + 1,
                                           crowded ? 4 : 1,
                                           1,
                                           crowded ? 3 : 1,
                                           4,
                                           1,
                                           2,
                                           1,
                                           2,
                                           3,
                                           1,
                                           1,
                                           2 * throws,
                                           throws};
      std::discrete_distribution<int> pick(weights.begin(), weights.end());
      switch (pick(rng_)) {
        case 0:
          create_one(proxy);
          break;
        case 1:
          create_batch(proxy);
          break;
        case 2:
          kill_one(proxy);
          break;
        case 3:
          kill_by_handle(proxy);
          break;
        case 4:
          kill_batch(proxy);
          break;
        case 5:
          add_one(proxy);
          break;
        case 6:
          add_batch(proxy);
          break;
        case 7:
          remove_one(proxy);
          break;
        case 8:
          remove_batch(proxy);
          break;
        case 9:
          remove_and_readd(proxy);
          break;
        case 10:
          run_systems(proxy);
          break;
        case 11:
          stale_probes(proxy);
          break;
        case 12:
          make_handle(proxy);
          break;
        case 13:
          add_poisoned(proxy);
          break;
        default:
          ++model_.stats().step_throws;
          throw fuzz_error{fuzz_error::source::step_function, 0,
                           strata::null_entity};
      }
    }
  }

  // What the proxy says about one entity right now matches the model.
  template <typename Proxy>
  void expect_now(Proxy& proxy, entity_id id) {
    ASSERT_EQ(proxy.alive(id), model_.is_alive(id)) << id;
    model_entity* e = model_.find(id);
    for_each_component([&](auto tag, auto member) {
      const bool has = e != nullptr && (e->*member).has_value();
      ASSERT_EQ(proxy.has_component(tag, id), has) << id;
      if (has) {
        ASSERT_EQ(proxy.get_component(tag, id), *(e->*member)) << id;
      }
    });
    for_each_system([&](std::size_t s, auto system) {
      EXPECT_EQ(proxy.is_in_system(system, id), model_.in_system(s, id))
          << id << " in " << kSystemNames[s];
    });
  }

  template <typename Proxy>
  void add_random_components(Proxy& proxy, entity_id id) {
    for_each_component([&](auto tag, auto member) {
      if (!coin(50)) return;
      const auto value = random_value<member_value_t<decltype(member)>>(rng_);
      proxy.add_component(tag, id, value);
      model_.add(member, id, value);
    });
  }

  template <typename Proxy>
  void create_one(Proxy& proxy) {
    ++model_.stats().creates;
    entity_id id;
    if (model_.full()) {
      const std::optional<entity_id> refused = proxy.try_create_entity();
      ASSERT_FALSE(refused.has_value()) << "created beyond the limit";
      ++model_.stats().refused_in_step;
      return;
    }
    if (coin(50)) {
      const std::optional<entity_id> created = proxy.try_create_entity();
      ASSERT_TRUE(created.has_value()) << "refused below the limit";
      id = *created;
    } else {
      id = proxy.create_entity();
    }
    model_.create(id);
    add_random_components(proxy, id);
    expect_now(proxy, id);  // alive, in no system yet
  }

  template <typename Proxy>
  void create_batch(Proxy& proxy) {
    const std::size_t n = static_cast<std::size_t>(uniform(1, 4));
    if (n > model_.room()) return;  // in a step a full limit check-fails
    ++model_.stats().batch_creates;
    std::vector<entity_id> ids;
    switch (uniform(0, 2)) {
      case 0:
        proxy.create_entities(n, [&](entity_id id, position& p, velocity& v) {
          EXPECT_TRUE(p == position{} && v == velocity{}) << "not zeroed";
          model_.create(id);
          randomize(p, rng_);
          randomize(v, rng_);
          model_.add(&model_entity::pos, id, p);
          model_.add(&model_entity::vel, id, v);
          ids.push_back(id);
        });
        break;
      case 1: {
        // No id given: distinct health values tell the new entities apart.
        std::array<int, 9> values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        std::shuffle(values.begin(), values.end(), rng_);
        std::size_t next = 0;
        proxy.create_entities(n, [&](health& h) { h.hp = values[next++]; });
        ASSERT_EQ(next, n);
        adopt_unseen(proxy,
                     std::vector<int>(values.begin(), values.begin() + n));
        break;
      }
      default:
        proxy.create_entities(
            n, [&](entity_id id, velocity& v, health& h, frozen& f) {
              EXPECT_TRUE(v == velocity{} && h == health{} && f == frozen{});
              model_.create(id);
              randomize(v, rng_);
              randomize(h, rng_);
              randomize(f, rng_);
              model_.add(&model_entity::vel, id, v);
              model_.add(&model_entity::hp, id, h);
              model_.add(&model_entity::fr, id, f);
              ids.push_back(id);
            });
        break;
    }
    for (entity_id id : ids) expect_now(proxy, id);
  }

  // create_entities(n, f) where f took no id: the entities with health the
  // model does not know, found through for_each, in creation order (by the
  // distinct values f gave them, in that order).
  template <typename Proxy>
  void adopt_unseen(Proxy& proxy, const std::vector<int>& given) {
    std::map<int, entity_id> unseen;
    proxy.for_each([&](entity_id id, const health& h) {
      if (!model_.is_alive(id)) {
        EXPECT_TRUE(unseen.emplace(h.hp, id).second) << "value given twice";
      }
    });
    ASSERT_EQ(unseen.size(), given.size()) << "create_entities: wrong count";
    for (int hp : given) {
      ASSERT_EQ(unseen.count(hp), 1u) << "no new entity with health " << hp;
      const entity_id id = unseen.at(hp);
      model_.create(id);
      model_.add(&model_entity::hp, id, health{hp});
      expect_now(proxy, id);
    }
  }

  // A live entity (70%), a stale id (20%) or the null id.
  std::optional<entity_id> any_id() {
    const int r = uniform(1, 100);
    if (r <= 70) return model_.pick(rng_);
    if (r <= 90) return model_.pick_stale(rng_);
    return strata::null_entity;
  }

  template <typename Proxy>
  void kill_one(Proxy& proxy) {
    const std::optional<entity_id> id = any_id();
    if (!id) return;
    ++model_.stats().kills;
    EXPECT_EQ(proxy.kill_entity(*id), model_.kill(*id)) << *id;
    expect_now(proxy, *id);  // still alive, still in its systems
  }

  template <typename Proxy>
  void kill_by_handle(Proxy& proxy) {
    const auto& handles = model_.handles();
    if (handles.empty()) return;
    auto it = handles.begin();
    std::advance(it, uniform(0, static_cast<int>(handles.size()) - 1));
    const entity_handle h = it->second;
    const entity_id id = model_.alive().at(it->first).id;
    ASSERT_TRUE(proxy.valid(h)) << h;
    ++model_.stats().handle_kills;
    EXPECT_EQ(proxy.kill_entity(h), model_.kill(id)) << h;
    EXPECT_TRUE(proxy.valid(h));  // until the refresh
  }

  template <typename Proxy>
  void kill_batch(Proxy& proxy) {
    std::vector<entity_id> ids;
    const int n = uniform(1, 6);
    for (int k = 0; k < n; ++k) {
      if (auto id = any_id()) ids.push_back(*id);
      if (!ids.empty() && coin(15)) ids.push_back(ids.back());  // twice
    }
    ++model_.stats().batch_kills;
    std::size_t expected = 0;
    for (entity_id id : ids) expected += model_.kill(id);
    EXPECT_EQ(proxy.kill_entities(ids), expected);
  }

  // A large kill_entities that keeps the population bounded in long runs.
  template <typename Proxy>
  void cull(Proxy& proxy) {
    ++model_.stats().culls;
    std::vector<entity_id> ids;
    for (const auto& [index, e] : model_.alive()) {
      if (coin(50)) ids.push_back(e.id);
    }
    std::size_t expected = 0;
    for (entity_id id : ids) expected += model_.kill(id);
    EXPECT_EQ(proxy.kill_entities(ids), expected);
  }

  template <typename Proxy>
  void add_one(Proxy& proxy) {
    const std::optional<entity_id> id = model_.pick(rng_);
    if (!id) return;
    ++model_.stats().adds;
    with_component(uniform(0, kComponents - 1), [&](auto tag, auto member) {
      const auto value = random_value<member_value_t<decltype(member)>>(rng_);
      proxy.add_component(tag, *id, value);
      model_.add(member, *id, value);
    });
    expect_now(proxy, *id);
  }

  template <typename Proxy>
  void add_batch(Proxy& proxy) {
    std::vector<entity_id> ids;
    const int n = uniform(1, 6);
    for (int k = 0; k < n; ++k) {
      if (auto id = model_.pick(rng_)) ids.push_back(*id);
    }
    if (ids.empty()) return;
    ++model_.stats().batch_adds;
    with_component(uniform(0, kComponents - 1), [&](auto tag, auto member) {
      const auto value = random_value<member_value_t<decltype(member)>>(rng_);
      proxy.add_components(tag, ids, value);
      for (entity_id id : ids) model_.add(member, id, value);
    });
    for (entity_id id : ids) expect_now(proxy, id);
  }

  template <typename Proxy>
  void remove_one(Proxy& proxy) {
    const std::optional<entity_id> id = any_id();
    if (!id) return;
    ++model_.stats().removes;
    const int c = uniform(0, kComponents - 1);
    with_component(c, [&](auto tag, auto) {
      EXPECT_EQ(proxy.remove_component(tag, *id), model_.remove(c, *id)) << *id;
    });
    expect_now(proxy, *id);  // out of the systems requiring it at once
  }

  template <typename Proxy>
  void remove_batch(Proxy& proxy) {
    std::vector<entity_id> ids;
    const int n = uniform(1, 6);
    for (int k = 0; k < n; ++k) {
      if (auto id = any_id()) ids.push_back(*id);
      if (!ids.empty() && coin(15)) ids.push_back(ids.back());
    }
    ++model_.stats().batch_removes;
    const int c = uniform(0, kComponents - 1);
    std::size_t expected = 0;
    for (entity_id id : ids) expected += model_.remove(c, id);
    with_component(c, [&](auto tag, auto) {
      EXPECT_EQ(proxy.remove_components(tag, ids), expected);
    });
    for (entity_id id : ids) expect_now(proxy, id);
  }

  // remove -> add of one component, one to three times: the
  // entity leaves the requiring systems at once and is back at the refresh
  // without events.
  template <typename Proxy>
  void remove_and_readd(Proxy& proxy) {
    const std::optional<entity_id> id = model_.pick(rng_);
    if (!id) return;
    ++model_.stats().readds;
    // Prefer a component the entity has.
    int c = uniform(0, kComponents - 1);
    for (int k = 0; k < kComponents; ++k) {
      if (model_.find(*id)->has((c + k) % kComponents)) {
        c = (c + k) % kComponents;
        break;
      }
    }
    for (std::size_t s = 0; s < kSystems; ++s) {
      if (kRequired[s][c] && model_.in_system(s, *id)) {
        ++model_.stats().readds_in_system;
        break;
      }
    }
    const int times = uniform(1, 3);
    with_component(c, [&](auto tag, auto member) {
      for (int k = 0; k < times; ++k) {
        EXPECT_EQ(proxy.remove_component(tag, *id), model_.remove(c, *id));
        expect_now(proxy, *id);
        const auto value = random_value<member_value_t<decltype(member)>>(rng_);
        proxy.add_component(tag, *id, value);
        model_.add(member, *id, value);
        expect_now(proxy, *id);
      }
    });
  }

  // add_component whose constructor throws: the entity stays as it was (a
  // frozen being replaced is kept). Caught here, or left to reach step()'s
  // caller.
  template <typename Proxy>
  void add_poisoned(Proxy& proxy) {
    const std::optional<entity_id> id = model_.pick(rng_);
    if (!id) return;
    ++model_.stats().constructor_throws;
    const bool catch_in_step = coin(70);
    try {
      proxy.add_component(ct::frozen, *id, poison{});
      ADD_FAILURE() << "a poisoned frozen was built";
    } catch (const fuzz_error& e) {
      EXPECT_EQ(e, (fuzz_error{fuzz_error::source::constructor, 0,
                               strata::null_entity}));
      model_.add_failed(*id);
      expect_now(proxy, *id);
      if (!catch_in_step) throw;
      ++model_.stats().caught_in_step;
    }
  }

  // Which systems and deferred functions of the next run throw.
  model::throw_plan random_throw_plan() {
    model::throw_plan plan;
    if (!variant_.exceptions) return plan;
    for (int& salt : plan.salt) {
      if (coin(20)) salt = uniform(0, 6);
    }
    if (coin(25)) plan.deferred_salt = uniform(0, 6);
    return plan;
  }

  template <typename Proxy>
  void run_systems(Proxy& proxy) {
    if (runs_ >= 3) return;
    ++runs_;
    const model::throw_plan plan = random_throw_plan();
    for_each_system([&](std::size_t s, auto system) {
      proxy.system(system).throw_salt = plan.salt[s];
    });
    proxy.system(st::freezer).defer_throw_salt = plan.deferred_salt;
    proxy.system(st::spawner).defer_throw_salt = plan.deferred_salt;
    proxy.system(st::freezer).run = runs_;
    proxy.system(st::spawner).run = runs_;
    auto& census_stale = proxy.system(st::census).stale;
    census_stale.assign(model_.stale().begin(), model_.stale().end());
    if (census_stale.size() > 32) {
      census_stale.erase(census_stale.begin(), census_stale.end() - 32);
    }
    const model::run_result result = model_.run_systems(runs_, plan);
    const bool catch_in_step = coin(60);
    try {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    } catch (const fuzz_error& e) {
      EXPECT_EQ(std::optional<fuzz_error>(e), result.error)
          << "what execute_systems() threw";
      if (!catch_in_step) throw;
      ++model_.stats().caught_in_step;
      return;
    }
    EXPECT_FALSE(result.error.has_value())
        << "execute_systems() did not throw " << *result.error;
    const census_output& expected = result.out;
    census_output total;
    proxy.for_system_outputs(st::census, [&](auto&, census_output& out) {
      total.count += out.count;
      total.hp_sum += out.hp_sum;
      total.vx_sum += out.vx_sum;
      total.stale_seen += out.stale_seen;
    });
    EXPECT_EQ(total.count, expected.count);
    EXPECT_EQ(total.hp_sum, expected.hp_sum);
    EXPECT_EQ(total.vx_sum, expected.vx_sum);
    EXPECT_EQ(total.stale_seen, 0) << "data.try_read/alive: a stale id alive";
  }

  // Stale ids are dead everywhere; misuse on them is a no-op returning
  // false; stale handles are invalid.
  template <typename Proxy>
  void stale_probes(Proxy& proxy) {
    ++model_.stats().stale_probes;
    for (int k = 0; k < 4; ++k) {
      const std::optional<entity_id> id = model_.pick_stale(rng_);
      if (!id) break;
      EXPECT_FALSE(proxy.alive(*id)) << *id;
      EXPECT_FALSE(proxy.kill_entity(*id)) << *id;
      for_each_component([&](auto tag, auto) {
        EXPECT_FALSE(proxy.has_component(tag, *id)) << *id;
        EXPECT_FALSE(proxy.remove_component(tag, *id)) << *id;
      });
      for_each_system([&](std::size_t, auto system) {
        EXPECT_FALSE(proxy.is_in_system(system, *id)) << *id;
      });
    }
    for (entity_handle h : model_.stale_handles()) {
      EXPECT_FALSE(proxy.valid(h)) << h;
    }
  }

  template <typename Proxy>
  void make_handle(Proxy& proxy) {
    const std::optional<entity_id> id = model_.pick(rng_);
    if (!id) return;
    const entity_handle h = proxy.make_handle(*id);
    EXPECT_TRUE(proxy.valid(h));
    model_.handle_made(*id, h);
  }

  // After a step: everything the context says against the model.
  void compare(const model::expected_events& refreshed) {
    EXPECT_EQ(ctx_.refused_creations(), model_.refused());
    if (variant_.observe) {
      EXPECT_EQ(observed_refused_, model_.refused()) << "refusal event";
    }
    observed_refused_ = 0;
    const auto& alive = model_.alive();
    ASSERT_EQ(ctx_.entity_count(), alive.size());
    std::array<std::size_t, kComponents> counts{};
    for (const auto& entry : alive) {
      const model_entity& e = entry.second;  // (Clang 14: no captured binding)
      ASSERT_TRUE(ctx_.alive(e.id)) << e.id;
      int c = 0;
      for_each_component([&](auto tag, auto member) {
        const bool has = (e.*member).has_value();
        counts[c++] += has;
        ASSERT_EQ(ctx_.has(tag, e.id), has) << e.id;
        if (has) {
          ASSERT_EQ(ctx_.get(tag, e.id), *(e.*member)) << e.id;
        }
      });
    }
    {
      int c = 0;
      for_each_component(
          [&](auto tag, auto) { EXPECT_EQ(ctx_.count(tag), counts[c++]); });
    }
    for (entity_id id : model_.stale()) {
      ASSERT_FALSE(ctx_.alive(id)) << id;
      ASSERT_FALSE(ctx_.has(ct::position, id)) << id;
    }
    // Queries: ctx.for_each, plain and with an exclusion.
    std::vector<entity_id> seen, want;
    ctx_.for_each([&](entity_id id, const position& p) {
      seen.push_back(id);
      const model_entity* e = model_.find(id);
      EXPECT_TRUE(e != nullptr && e->pos && *e->pos == p) << id;
    });
    for (const auto& [index, e] : alive) {
      if (e.pos) want.push_back(e.id);
    }
    EXPECT_EQ(seen, want) << "ctx.for_each(position)";
    seen.clear();
    want.clear();
    ctx_.for_each(strata::exclude<frozen>,
                  [&](entity_id id, const velocity&, const health&) {
                    seen.push_back(id);
                  });
    for (const auto& [index, e] : alive) {
      if (e.vel && e.hp && !e.fr) want.push_back(e.id);
    }
    EXPECT_EQ(seen, want) << "ctx.for_each(exclude<frozen>, velocity, health)";

    if (variant_.observe) {
      EXPECT_EQ(observed_, refreshed.events) << "refresh observer";
    }
    observed_.clear();

    ctx_.step([&](auto& proxy) {
      for_each_system([&](std::size_t s, auto system) {
        std::vector<entity_id> members, expected;
        for (entity_id id : proxy.instance(system).subscribed()) {
          members.push_back(id);
        }
        for (std::uint32_t i : model_.subscribed(s)) {
          expected.push_back(alive.at(i).id);
        }
        EXPECT_EQ(members, expected) << kSystemNames[s] << " subscription";
        EXPECT_EQ(proxy.count_entities_in(system), expected.size());
        std::vector<hook_event> hooked;
        for (const model_event& ev : refreshed.hooked) {
          if (ev.system == s) {
            hooked.push_back(
                {ev.what == strata::refresh_event::kind::subscribe, ev.id});
          }
        }
        auto& events = proxy.system(system).events;
        EXPECT_EQ(events, hooked) << kSystemNames[s] << " hooks";
        events.clear();
      });
      int c = 0;
      for_each_component(
          [&](auto tag, auto) { EXPECT_EQ(proxy.count(tag), counts[c++]); });
      for (const auto& [index, h] : model_.handles()) {
        EXPECT_TRUE(proxy.valid(h)) << h;
      }
      for (entity_handle h : model_.stale_handles()) {
        EXPECT_FALSE(proxy.valid(h)) << h;
      }
      // A proxy's for_each with write access and an exclusion.
      std::vector<entity_id> got, frozen_alone;
      proxy.for_each(strata::exclude<position>, [&](entity_id id, frozen& f) {
        got.push_back(id);
        EXPECT_EQ(f, *model_.find(id)->fr);
      });
      for (const auto& [index, e] : alive) {
        if (e.fr && !e.pos) frozen_alone.push_back(e.id);
      }
      EXPECT_EQ(got, frozen_alone) << "proxy.for_each(exclude<position>)";
    });
    // That check step changed nothing: its refresh has no events (hooks:
    // checked by the next compare).
    EXPECT_TRUE(observed_.empty());
  }

  decltype(strata::make_context(std::declval<const Settings&>())) ctx_;
  variant variant_;
  model model_;
  rng_type rng_;
  deferred_log log_;
  std::vector<model_event> observed_;
  std::size_t observed_refused_ = 0;  // the count of a refusal event
  int runs_ = 0;
  std::optional<fuzz_error> escaped_;  // what left the step function
};

void print_stats(const fuzz_stats& s) {
  std::printf(
      "  steps %ld, max alive %ld (culls %ld); creates %ld (batches %ld), "
      "kills %ld "
      "(handles %ld, batches %ld), adds %ld (batches %ld), removes %ld "
      "(batches %ld), remove+add %ld (%ld in a requiring system), system "
      "runs %ld, stale probes %ld\n"
      "  refused: %ld in steps, %ld deferred; system kills %ld; events: "
      "%ld subscribes, %ld unsubscribes, %ld reclaims\n"
      "  deferred: freeze %ld, refreeze %ld, thaw %ld, spawn_one %ld, "
      "spawn_two %ld, self_kill %ld\n"
      "  exceptions: systems %ld (%ld caught in the step), deferred %ld, "
      "constructors %ld, step functions %ld; %ld reached step()'s caller\n",
      s.steps, s.max_alive, s.culls, s.creates, s.batch_creates, s.kills,
      s.handle_kills, s.batch_kills, s.adds, s.batch_adds, s.removes,
      s.batch_removes, s.readds, s.readds_in_system, s.runs, s.stale_probes,
      s.refused_in_step, s.refused_deferred, s.system_kills, s.subscribes,
      s.unsubscribes, s.reclaims, s.deferred[0], s.deferred[1], s.deferred[2],
      s.deferred[3], s.deferred[4], s.deferred[5], s.system_throws,
      s.caught_in_step, s.deferred_throws, s.constructor_throws, s.step_throws,
      s.escaped);
  std::fflush(stdout);
}

template <typename Settings>
void run_variant(const Settings& settings, const variant& v) {
  const run_length length = length_of(v);
  fuzz_stats stats;
  strata::testing::run_with_timeout(
      std::chrono::seconds(length.from_environment ? 86400 : 240),
      "context fuzz", [&] {
        SCOPED_TRACE("seed " + std::to_string(length.seed) +
                     " (replay: STRATA_FUZZ_SEED=" +
                     std::to_string(length.seed - v.number) + ")");
        fuzzer<Settings> f(settings, v, length.seed);
        f.run(length.steps);
        stats = f.stats();
      });
  print_stats(stats);
  if (!length.from_environment && !::testing::Test::HasFailure()) {
    // The default run covers what it is meant to.
    EXPECT_GT(stats.readds_in_system, 0);
    EXPECT_GT(stats.system_kills, 0);
    EXPECT_GT(stats.unsubscribes, 0);
    for (int k = 0; k < kOpKinds; ++k) {
      EXPECT_GT(stats.deferred[k], 0) << "deferred op " << k;
    }
    if (v.limit != 0) {
      EXPECT_GT(stats.refused_in_step, 0);
      EXPECT_GT(stats.refused_deferred, 0);
    }
    if (v.exceptions) {
      EXPECT_GT(stats.system_throws, 0);
      EXPECT_GT(stats.caught_in_step, 0);
      EXPECT_GT(stats.deferred_throws, 0);
      EXPECT_GT(stats.constructor_throws, 0);
      EXPECT_GT(stats.step_throws, 0);
      EXPECT_GT(stats.escaped, 0);
    }
  }
}

// Each test target compiles one part (STRATA_FUZZ_PART, from the BUILD
// file): a context type is slow to compile under sanitizers, so the parts'
// contexts live in separate translation units, each within the per-unit
// budget (tools/unit_cost.py). //context:context_fuzz_test is the suite of
// all parts.
#ifndef STRATA_FUZZ_PART
#error "build this file through //context:context_fuzz_test's parts"
#endif

constexpr auto base = strata::settings()
                          .allow_inner_parallelism()
                          .component_signatures(components)
                          .system_signatures(systems);

#if STRATA_FUZZ_PART == 1  // sequential
TEST(ContextFuzzTest, SequentialOneThread) {
  run_variant(base.dynamic_entity_limit().threads(1), {1, 3000});
}
#endif

#if STRATA_FUZZ_PART == 2  // atomic_counter
TEST(ContextFuzzTest, AtomicCounterFourThreads) {
  run_variant(base.dynamic_entity_limit()
                  .scheduler(strata::scheduler::atomic_counter)
                  .refresh_parallelism(true)
                  .threads(4),
              {2, 2000});
}

TEST(ContextFuzzTest, AtomicCounterFourThreadsObserved) {
  run_variant(base.dynamic_entity_limit()
                  .scheduler(strata::scheduler::atomic_counter)
                  .refresh_parallelism(true)
                  .threads(4),
              {3, 2000, /*observe=*/true});
}
#endif

#if STRATA_FUZZ_PART == 3  // checked_access
TEST(ContextFuzzTest, CheckedAccess) {
  run_variant(base.dynamic_entity_limit()
                  .checked_access()
                  .scheduler(strata::scheduler::atomic_counter)
                  .threads(2),
              {4, 1500});
}
#endif

#if STRATA_FUZZ_PART == 4  // fixed_limit
constexpr std::size_t kLimit = 48;

TEST(ContextFuzzTest, FixedLimitFillsUp) {
  run_variant(base.fixed_entity_limit<kLimit>()
                  .scheduler(strata::scheduler::atomic_counter)
                  .threads(4),
              {5, 2000, /*observe=*/false, kLimit, /*target=*/kLimit + 16});
}

TEST(ContextFuzzTest, FixedLimitSequentialObserved) {
  run_variant(base.fixed_entity_limit<kLimit>().threads(1),
              {6, 2000, /*observe=*/true, kLimit, /*target=*/kLimit + 16});
}
#endif

#if STRATA_FUZZ_PART == 5  // exceptions
TEST(ContextFuzzTest, ExceptionsSequentialObserved) {
  run_variant(
      base.dynamic_entity_limit().threads(1),
      {.number = 7, .steps = 1500, .observe = true, .exceptions = true});
}

TEST(ContextFuzzTest, ExceptionsAtomicCounterFourThreads) {
  run_variant(base.dynamic_entity_limit()
                  .scheduler(strata::scheduler::atomic_counter)
                  .refresh_parallelism(true)
                  .threads(4),
              {.number = 8, .steps = 1500, .exceptions = true});
}
#endif

#if STRATA_FUZZ_PART == 1  // sequential
// Regression (found by this fuzz test): an entity that lost a required
// component in the step and is then killed must be unsubscribed from the
// system it was in at the last refresh, also when that system's
// subscription became empty and no observer is set.
struct solo : hooks {
  template <typename Data>
  void process(Data&) const {}
};

TEST(ContextFuzzTest, KillAfterRemoveUnsubscribesFromEmptiedSystem) {
  constexpr auto solo_systems = strata::system_signatures(
      strata::system_signature::make(strata::tag<solo>)
          .read(ct::position, ct::velocity));
  for (bool observe : {true, false}) {
    SCOPED_TRACE(observe ? "observed" : "not observed");
    auto ctx = strata::make_context(strata::settings()
                                        .component_signatures(components)
                                        .system_signatures(solo_systems)
                                        .threads(1));
    int unsubscribes = 0;
    if (observe) ctx.observe_refresh([](const strata::refresh_event&) {});
    entity_id e;
    ctx.step([&](auto& proxy) {
      e = proxy.create_entity();
      proxy.add_component(ct::position, e);
      proxy.add_component(ct::velocity, e);
    });
    ctx.step([&](auto& proxy) {
      EXPECT_TRUE(proxy.is_in_system(strata::tag<solo>, e));
      proxy.remove_component(ct::velocity, e);  // leaves solo at once
      proxy.kill_entity(e);
    });
    ctx.step([&](auto& proxy) {
      for (const hook_event& ev : proxy.system(strata::tag<solo>).events) {
        unsubscribes += !ev.subscribe;
      }
    });
    EXPECT_EQ(unsubscribes, 1);
  }
}
#endif

}  // namespace
