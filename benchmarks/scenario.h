// The ecs_benchmark scenarios (github.com/abeimler/ecs_benchmark), for Strata
// and for a hand-written baseline, in one place so both do the same work.
//
// Components (our reading of ecs_benchmark's structs, kept simple):
//   position {float x, y}            velocity {float x, y}
//   data     {int thingy; double dingy; bool mingy; uint32 seed, numgy}
//   player   {uint32 rng; player_type type}    (npc / monster / hero)
//   health   {int hp, maxhp; status_effect status}  (spawn / dead / alive)
//   damage   {int atk, def}          sprite {char character}
//
// Per-entity work (the same inline kernels are called by Strata's systems and
// by the baseline loops, so only the iteration machinery differs):
//   movement      position += velocity * dt
//   data          thingy = (thingy + 1) % 1e6; dingy += 1e-4 * dt;
//                 mingy = !mingy; numgy = xorshift32(seed)
//   more_complex  (position, velocity, data): every 10th thingy, pick a new
//                 random velocity depending on position.x > position.y
//   health        clamp hp, die at hp <= 0, respawn dead ones (ecs_benchmark)
//   damage        hp -= max(atk - def, 0)  (reads damage)
//   sprite        character from health.status and player.type
//   render        draw sprite.character at (int)position into a 320x240 char
//                 frame buffer (bounds-checked)
//
// Entity mixes (entity i, 0-based):
//   pos_vel       position, velocity                    (create, destroy,
//                                                        remove/add)
//   half_data     position, velocity; data if i % 2 == 0 (unpack)
//   full          position, velocity, data               (SystemsUpdate)
//   mixed         position; velocity if i % 3 != 0; data if i % 2 == 0
//                                                        (SystemsUpdateMixed)
//   complex       all seven components                   (ComplexSystemsUpdate)
//   complex_mixed position; velocity if i % 4 != 3; data if i % 2 == 0;
//                 player, health, sprite if i % 3 != 2; damage if i % 3 == 0
//                                                   (ComplexSystemsUpdateMixed)
#ifndef STRATA_BENCHMARKS_SCENARIO_H_
#define STRATA_BENCHMARKS_SCENARIO_H_

#include <array>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <typeinfo>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "strata.h"

namespace bench {

// ---------------------------------------------------------------- components

struct position {
  float x = 0, y = 0;
};
struct velocity {
  float x = 0, y = 0;
};
struct data {
  int thingy = 0;
  double dingy = 0.0;
  bool mingy = false;
  std::uint32_t seed = 1;
  std::uint32_t numgy = 0;
};
enum class player_type : std::uint8_t { npc, monster, hero };
struct player {
  std::uint32_t rng = 1;
  player_type type = player_type::npc;
};
enum class status_effect : std::uint8_t { spawn, dead, alive };
struct health {
  int hp = 0;
  int maxhp = 0;
  status_effect status = status_effect::spawn;
};
struct damage {
  int atk = 0;
  int def = 0;
};
struct sprite {
  char character = ' ';
};

inline constexpr float kDt = 1.0f / 60.0f;

inline std::uint32_t xorshift32(std::uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}
inline int random_range(std::uint32_t& s, int lo, int hi) {
  return lo + static_cast<int>(xorshift32(s) %
                               static_cast<std::uint32_t>(hi - lo + 1));
}

// ------------------------------------------------------------------- kernels

inline void update_movement(position& p, const velocity& v, float dt) {
  p.x += v.x * dt;
  p.y += v.y * dt;
}
inline void update_data(data& d, float dt) {
  d.thingy = (d.thingy + 1) % 1'000'000;
  d.dingy += 0.0001 * static_cast<double>(dt);
  d.mingy = !d.mingy;
  d.numgy = xorshift32(d.seed);
}
inline void update_more_complex(const position& p, velocity& v, data& d) {
  if ((d.thingy % 10) == 0) {
    if (p.x > p.y) {
      v.x = static_cast<float>(random_range(d.seed, 3, 19) - 10);
      v.y = static_cast<float>(random_range(d.seed, 0, 5));
    } else {
      v.x = static_cast<float>(random_range(d.seed, 0, 5));
      v.y = static_cast<float>(random_range(d.seed, 3, 19) - 10);
    }
  }
}
inline void update_health(health& h) {
  if (h.hp <= 0 && h.status != status_effect::dead) {
    h.hp = 0;
    h.status = status_effect::dead;
  } else if (h.status == status_effect::dead && h.hp == 0) {
    h.hp = h.maxhp;
    h.status = status_effect::spawn;
  } else if (h.hp >= h.maxhp && h.status != status_effect::dead) {
    h.hp = h.maxhp;
    h.status = status_effect::alive;
  } else {
    h.status = status_effect::alive;
  }
}
inline void update_damage(health& h, const damage& d) {
  const int total = d.atk - d.def;
  if (h.hp > 0 && total > 0) h.hp -= total;
}
inline void update_sprite(sprite& s, const player& p, const health& h) {
  char c = ' ';
  switch (h.status) {
    case status_effect::alive:
      c = p.type == player_type::hero      ? '@'
          : p.type == player_type::monster ? 'k'
                                           : 'h';
      break;
    case status_effect::dead:
      c = '|';
      break;
    case status_effect::spawn:
      c = '_';
      break;
  }
  s.character = c;
}

struct frame_buffer {
  static constexpr int kWidth = 320;
  static constexpr int kHeight = 240;
  std::array<char, kWidth * kHeight> pixels{};
  void draw(int x, int y, char c) {
    if (x >= 0 && x < kWidth && y >= 0 && y < kHeight)
      pixels[static_cast<std::size_t>(y * kWidth + x)] = c;
  }
};
inline void render(frame_buffer& fb, const position& p, const sprite& s) {
  fb.draw(static_cast<int>(p.x), static_cast<int>(p.y), s.character);
}

// --------------------------------------------------------------- entity mixes

enum class mix { pos_vel, half_data, full, mixed, complex, complex_mixed };

struct entity_init {
  position pos;
  std::optional<velocity> vel;
  std::optional<data> dat;
  std::optional<player> pla;
  std::optional<health> hea;
  std::optional<damage> dam;
  std::optional<sprite> spr;
};

inline entity_init make_init(std::size_t i, mix m) {
  entity_init e;
  std::uint32_t seed = static_cast<std::uint32_t>(i) * 2654435761u + 1u;
  if (seed == 0) seed = 1;
  e.pos = {static_cast<float>(i % 320), static_cast<float>(i % 240)};
  const velocity v{1.0f, 1.0f};
  data d;
  d.seed = seed;
  switch (m) {
    case mix::pos_vel:
      e.vel = v;
      break;
    case mix::half_data:
      e.vel = v;
      if (i % 2 == 0) e.dat = d;
      break;
    case mix::full:
      e.vel = v;
      e.dat = d;
      break;
    case mix::mixed:
      if (i % 3 != 0) e.vel = v;
      if (i % 2 == 0) e.dat = d;
      break;
    case mix::complex:
    case mix::complex_mixed: {
      const bool mixed = m == mix::complex_mixed;
      if (!mixed || i % 4 != 3) e.vel = v;
      if (!mixed || i % 2 == 0) e.dat = d;
      if (!mixed || i % 3 != 2) {
        player p;
        p.rng = seed ^ 0x9e3779b9u;
        if (p.rng == 0) p.rng = 1;
        const int rate = random_range(p.rng, 1, 100);
        p.type = rate <= 3    ? player_type::npc
                 : rate <= 30 ? player_type::hero
                              : player_type::monster;
        health h;
        damage dm;
        switch (p.type) {
          case player_type::hero:
            h.maxhp = random_range(p.rng, 5, 15);
            dm.def = random_range(p.rng, 2, 6);
            dm.atk = random_range(p.rng, 4, 10);
            break;
          case player_type::monster:
            h.maxhp = random_range(p.rng, 4, 12);
            dm.def = random_range(p.rng, 2, 8);
            dm.atk = random_range(p.rng, 3, 9);
            break;
          case player_type::npc:
            h.maxhp = random_range(p.rng, 6, 12);
            dm.def = random_range(p.rng, 3, 8);
            dm.atk = 0;
            break;
        }
        h.hp = h.maxhp;
        e.pla = p;
        e.hea = h;
        e.spr = sprite{' '};
        if (!mixed || i % 3 == 0) e.dam = dm;
      }
      break;
    }
  }
  return e;
}

// ----------------------------------------------------------------- strata side

namespace ct {
inline constexpr auto position = strata::tag<bench::position>;
inline constexpr auto velocity = strata::tag<bench::velocity>;
inline constexpr auto data = strata::tag<bench::data>;
inline constexpr auto player = strata::tag<bench::player>;
inline constexpr auto health = strata::tag<bench::health>;
inline constexpr auto damage = strata::tag<bench::damage>;
inline constexpr auto sprite = strata::tag<bench::sprite>;
}  // namespace ct

// How a system reaches its components: typed data.for_each (the contiguous
// fast path), or for_entities + data.get by id (the way systems were written
// before for_each; kept so the tables show the difference).
enum class access { typed, by_id };

template <access A>
struct movement_system {
  template <typename Data>
  void process(float dt, Data& d) const {
    if constexpr (A == access::typed) {
      d.for_each(
          [dt](position& p, const velocity& v) { update_movement(p, v, dt); });
    } else {
      d.for_entities([&](strata::entity_id e) {
        update_movement(d.get(ct::position, e), d.read(ct::velocity, e), dt);
      });
    }
  }
};
template <access A>
struct data_system {
  template <typename Data>
  void process(float dt, Data& d) const {
    if constexpr (A == access::typed) {
      d.for_each([dt](data& x) { update_data(x, dt); });
    } else {
      d.for_entities(
          [&](strata::entity_id e) { update_data(d.get(ct::data, e), dt); });
    }
  }
};
template <access A>
struct more_complex_system {
  template <typename Data>
  void process(float, Data& d) const {
    if constexpr (A == access::typed) {
      d.for_each([](const position& p, velocity& v, data& x) {
        update_more_complex(p, v, x);
      });
    } else {
      d.for_entities([&](strata::entity_id e) {
        update_more_complex(d.read(ct::position, e), d.get(ct::velocity, e),
                            d.get(ct::data, e));
      });
    }
  }
};
template <access A>
struct health_system {
  template <typename Data>
  void process(float, Data& d) const {
    if constexpr (A == access::typed) {
      d.for_each([](health& h) { update_health(h); });
    } else {
      d.for_entities(
          [&](strata::entity_id e) { update_health(d.get(ct::health, e)); });
    }
  }
};
template <access A>
struct damage_system {
  template <typename Data>
  void process(float, Data& d) const {
    if constexpr (A == access::typed) {
      d.for_each([](health& h, const damage& x) { update_damage(h, x); });
    } else {
      d.for_entities([&](strata::entity_id e) {
        update_damage(d.get(ct::health, e), d.read(ct::damage, e));
      });
    }
  }
};
template <access A>
struct sprite_system {
  template <typename Data>
  void process(float, Data& d) const {
    if constexpr (A == access::typed) {
      d.for_each([](sprite& s, const player& p, const health& h) {
        update_sprite(s, p, h);
      });
    } else {
      d.for_entities([&](strata::entity_id e) {
        update_sprite(d.get(ct::sprite, e), d.read(ct::player, e),
                      d.read(ct::health, e));
      });
    }
  }
};
template <access A>
struct render_system {
  frame_buffer fb;
  template <typename Data>
  void process(float, Data& d) {
    if constexpr (A == access::typed) {
      d.for_each(
          [this](const position& p, const sprite& s) { render(fb, p, s); });
    } else {
      d.for_entities([&](strata::entity_id e) {
        render(fb, d.read(ct::position, e), d.read(ct::sprite, e));
      });
    }
  }
};

namespace st {
template <access A>
inline constexpr auto movement = strata::tag<movement_system<A>>;
template <access A>
inline constexpr auto data = strata::tag<data_system<A>>;
template <access A>
inline constexpr auto more_complex = strata::tag<more_complex_system<A>>;
template <access A>
inline constexpr auto health = strata::tag<health_system<A>>;
template <access A>
inline constexpr auto damage = strata::tag<damage_system<A>>;
template <access A>
inline constexpr auto sprite = strata::tag<sprite_system<A>>;
template <access A>
inline constexpr auto render = strata::tag<render_system<A>>;
}  // namespace st

// Every component in its own SoA contiguous buffer (the default storage).
inline constexpr auto kComponents = strata::component_signatures(
    strata::component_signature::make(ct::position),
    strata::component_signature::make(ct::velocity),
    strata::component_signature::make(ct::data),
    strata::component_signature::make(ct::player),
    strata::component_signature::make(ct::health),
    strata::component_signature::make(ct::damage),
    strata::component_signature::make(ct::sprite));

// Threaded runs split a system as the context's default strategy does: by
// its measured cost, up to one subtask per thread, large work in several
// slices per thread (inner_parallelism::automatic()).
inline constexpr auto kSplit = strata::inner_parallelism::automatic();

// SystemsUpdate: movement and data (independent: they run concurrently).
template <access A = access::typed>
inline constexpr auto kUpdateSystems =
    strata::system_signatures(strata::system_signature::make(st::movement<A>)
                                  .read(ct::velocity)
                                  .write(ct::position)
                                  .parallelism(kSplit),
                              strata::system_signature::make(st::data<A>)
                                  .write(ct::data)
                                  .parallelism(kSplit));

// ComplexSystemsUpdate: seven systems. The race check forces the order
// {movement, data} -> more_complex -> render and health -> damage -> sprite
// -> render. Render draws into one frame buffer, so it is never split.
template <access A = access::typed>
inline constexpr auto kComplexSystems = strata::system_signatures(
    strata::system_signature::make(st::movement<A>)
        .read(ct::velocity)
        .write(ct::position)
        .parallelism(kSplit),
    strata::system_signature::make(st::data<A>)
        .write(ct::data)
        .parallelism(kSplit),
    strata::system_signature::make(st::more_complex<A>)
        .read(ct::position)
        .write(ct::velocity, ct::data)
        .dependencies(st::movement<A>, st::data<A>)
        .parallelism(kSplit),
    strata::system_signature::make(st::health<A>)
        .write(ct::health)
        .parallelism(kSplit),
    strata::system_signature::make(st::damage<A>)
        .read(ct::damage)
        .write(ct::health)
        .dependencies(st::health<A>)
        .parallelism(kSplit),
    strata::system_signature::make(st::sprite<A>)
        .read(ct::player, ct::health)
        .write(ct::sprite)
        .dependencies(st::damage<A>)
        .parallelism(kSplit),
    // One frame buffer, a member of the system: never split (the default,
    // inner_parallelism::automatic(), would run two subtasks on it at once).
    strata::system_signature::make(st::render<A>)
        .read(ct::position, ct::sprite)
        .dependencies(st::sprite<A>, st::more_complex<A>)
        .parallelism(strata::inner_parallelism::none()));

// One thread: the sequential scheduler, no pool, no subtask splitting.
template <typename Systems>
constexpr auto settings_1t(Systems systems) {
  return strata::settings()
      .dynamic_entity_limit(0)
      .component_signatures(kComponents)
      .system_signatures(systems)
      .scheduler(strata::scheduler::sequential)
      .threads(1);
}
// All hardware threads: atomic-counter scheduler plus inner parallelism.
template <typename Systems>
constexpr auto settings_mt(Systems systems) {
  return strata::settings()
      .dynamic_entity_limit(0)
      .allow_inner_parallelism()
      .component_signatures(kComponents)
      .system_signatures(systems)
      .scheduler(strata::scheduler::atomic_counter)
      .threads(0);
}

template <typename Settings>
using context_of =
    decltype(strata::make_context(std::declval<const Settings&>()));

// Adds the components of `init` to `e` through a step or defer proxy.
template <typename Proxy>
void add_components(Proxy& proxy, strata::entity_id e, const entity_init& in) {
  proxy.add_component(ct::position, e, in.pos);
  if (in.vel) proxy.add_component(ct::velocity, e, *in.vel);
  if (in.dat) proxy.add_component(ct::data, e, *in.dat);
  if (in.pla) proxy.add_component(ct::player, e, *in.pla);
  if (in.hea) proxy.add_component(ct::health, e, *in.hea);
  if (in.dam) proxy.add_component(ct::damage, e, *in.dam);
  if (in.spr) proxy.add_component(ct::sprite, e, *in.spr);
}

template <typename Settings>
struct strata_world {
  context_of<Settings> ctx;
  std::vector<strata::entity_id> ids;

  strata_world(const Settings& settings, std::size_t n, mix m)
      : ctx(strata::make_context(settings)) {
    ids.reserve(n);
    ctx.step([&](auto& proxy) {
      for (std::size_t i = 0; i < n; ++i) {
        const strata::entity_id e = proxy.create_entity();
        add_components(proxy, e, make_init(i, m));
        ids.push_back(e);
      }
    });
  }

  // One update: every system once, then the (empty) refresh.
  void update() {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& d) { system.process(kDt, d); }));
    });
  }
};

// --------------------------------------------------------------- baseline side

// Plain SoA std::vectors indexed by entity index, one presence bit per
// component, and, for the mixed worlds, one index list per system (the
// entities that have all its components), built once at set-up.
enum : std::uint8_t {
  kHasPos = 1,
  kHasVel = 2,
  kHasData = 4,
  kHasPlayer = 8,
  kHasHealth = 16,
  kHasDamage = 32,
  kHasSprite = 64,
};

struct baseline_world {
  std::vector<position> pos;
  std::vector<velocity> vel;
  std::vector<data> dat;
  std::vector<player> pla;
  std::vector<health> hea;
  std::vector<damage> dam;
  std::vector<sprite> spr;
  std::vector<std::uint8_t> mask;
  frame_buffer fb;
  bool dense = true;  // every entity has every component the systems use
  std::vector<std::uint32_t> movement_ids, data_ids, more_complex_ids,
      health_ids, damage_ids, sprite_ids, render_ids;

  baseline_world(std::size_t n, mix m)
      : pos(n), vel(n), dat(n), pla(n), hea(n), dam(n), spr(n), mask(n, 0) {
    dense = m == mix::full || m == mix::complex || m == mix::pos_vel;
    for (std::size_t i = 0; i < n; ++i) {
      const entity_init in = make_init(i, m);
      std::uint8_t bits = kHasPos;
      pos[i] = in.pos;
      if (in.vel) vel[i] = *in.vel, bits |= kHasVel;
      if (in.dat) dat[i] = *in.dat, bits |= kHasData;
      if (in.pla) pla[i] = *in.pla, bits |= kHasPlayer;
      if (in.hea) hea[i] = *in.hea, bits |= kHasHealth;
      if (in.dam) dam[i] = *in.dam, bits |= kHasDamage;
      if (in.spr) spr[i] = *in.spr, bits |= kHasSprite;
      mask[i] = bits;
      const auto idx = static_cast<std::uint32_t>(i);
      auto has = [bits](std::uint8_t need) { return (bits & need) == need; };
      if (has(kHasPos | kHasVel)) movement_ids.push_back(idx);
      if (has(kHasData)) data_ids.push_back(idx);
      if (has(kHasPos | kHasVel | kHasData)) more_complex_ids.push_back(idx);
      if (has(kHasHealth)) health_ids.push_back(idx);
      if (has(kHasHealth | kHasDamage)) damage_ids.push_back(idx);
      if (has(kHasSprite | kHasPlayer | kHasHealth)) sprite_ids.push_back(idx);
      if (has(kHasPos | kHasSprite)) render_ids.push_back(idx);
    }
  }

  // f(i) for i in [0, n) (dense) or for each i in the list.
  template <typename F>
  void each(const std::vector<std::uint32_t>& ids, F f) {
    if (dense) {
      const std::size_t n = pos.size();
      for (std::size_t i = 0; i < n; ++i) f(i);
    } else {
      for (const std::uint32_t i : ids) f(i);
    }
  }

  // SystemsUpdate: movement, data. Raw pointers hoisted, as one writes by hand.
  void update_systems() {
    position* const p = pos.data();
    velocity* const v = vel.data();
    data* const d = dat.data();
    each(movement_ids,
         [=](std::size_t i) { update_movement(p[i], v[i], kDt); });
    each(data_ids, [=](std::size_t i) { update_data(d[i], kDt); });
  }

  // ComplexSystemsUpdate: the seven systems in a valid order.
  void update_complex() {
    position* const p = pos.data();
    velocity* const v = vel.data();
    data* const d = dat.data();
    player* const pl = pla.data();
    health* const h = hea.data();
    damage* const dm = dam.data();
    sprite* const s = spr.data();
    frame_buffer* const f = &fb;
    each(movement_ids,
         [=](std::size_t i) { update_movement(p[i], v[i], kDt); });
    each(data_ids, [=](std::size_t i) { update_data(d[i], kDt); });
    each(more_complex_ids,
         [=](std::size_t i) { update_more_complex(p[i], v[i], d[i]); });
    each(health_ids, [=](std::size_t i) { update_health(h[i]); });
    each(damage_ids, [=](std::size_t i) { update_damage(h[i], dm[i]); });
    each(sprite_ids, [=](std::size_t i) { update_sprite(s[i], pl[i], h[i]); });
    each(render_ids, [=](std::size_t i) { render(*f, p[i], s[i]); });
  }
};

// The hand-written baseline split over threads, as careful parallel code
// does it by hand: `threads` persistent threads (the caller is thread 0)
// each run their slice of every system and meet at a std::barrier only where
// the systems' dependencies need it. SystemsUpdate: {movement, data} in one
// phase. ComplexSystemsUpdate: {movement, data, health}, {more_complex,
// damage}, {sprite}, then render on thread 0 alone (one frame buffer).
// Between updates the workers sleep in the barrier.
class baseline_mt_world {
 public:
  baseline_mt_world(std::size_t n, mix m, std::size_t threads)
      : world_(n, m),
        threads_(threads < 1 ? 1 : threads),
        start_(static_cast<std::ptrdiff_t>(threads_)),
        phase_(static_cast<std::ptrdiff_t>(threads_)) {
    for (std::size_t t = 1; t < threads_; ++t) {
      workers_.emplace_back([this, t] { worker(t); });
    }
  }
  ~baseline_mt_world() {
    stop_ = true;
    start_.arrive_and_wait();
    for (std::thread& w : workers_) w.join();
  }
  baseline_mt_world(const baseline_mt_world&) = delete;
  baseline_mt_world& operator=(const baseline_mt_world&) = delete;

  std::size_t thread_count() const { return threads_; }

  void update_systems() { run(&baseline_mt_world::systems_job); }
  void update_complex() { run(&baseline_mt_world::complex_job); }

 private:
  using job = void (baseline_mt_world::*)(std::size_t);

  void run(job j) {
    job_ = j;
    start_.arrive_and_wait();  // publishes job_ to the workers
    (this->*j)(0);
    phase_.arrive_and_wait();  // everyone done
  }
  void worker(std::size_t t) {
    for (;;) {
      start_.arrive_and_wait();
      if (stop_) return;
      (this->*job_)(t);
      phase_.arrive_and_wait();
    }
  }

  // f(i) for thread t's slice of the system's entities.
  template <typename F>
  void slice(const std::vector<std::uint32_t>& ids, std::size_t t, F f) {
    const std::size_t count = world_.dense ? world_.pos.size() : ids.size();
    const std::size_t begin = t * count / threads_;
    const std::size_t end = (t + 1) * count / threads_;
    if (world_.dense) {
      for (std::size_t i = begin; i < end; ++i) f(i);
    } else {
      for (std::size_t k = begin; k < end; ++k) f(ids[k]);
    }
  }

  void systems_job(std::size_t t) {
    position* const p = world_.pos.data();
    velocity* const v = world_.vel.data();
    data* const d = world_.dat.data();
    slice(world_.movement_ids, t,
          [=](std::size_t i) { update_movement(p[i], v[i], kDt); });
    slice(world_.data_ids, t, [=](std::size_t i) { update_data(d[i], kDt); });
  }
  void complex_job(std::size_t t) {
    position* const p = world_.pos.data();
    velocity* const v = world_.vel.data();
    data* const d = world_.dat.data();
    player* const pl = world_.pla.data();
    health* const h = world_.hea.data();
    damage* const dm = world_.dam.data();
    sprite* const s = world_.spr.data();
    slice(world_.movement_ids, t,
          [=](std::size_t i) { update_movement(p[i], v[i], kDt); });
    slice(world_.data_ids, t, [=](std::size_t i) { update_data(d[i], kDt); });
    slice(world_.health_ids, t, [=](std::size_t i) { update_health(h[i]); });
    phase_.arrive_and_wait();
    slice(world_.more_complex_ids, t,
          [=](std::size_t i) { update_more_complex(p[i], v[i], d[i]); });
    slice(world_.damage_ids, t,
          [=](std::size_t i) { update_damage(h[i], dm[i]); });
    phase_.arrive_and_wait();
    slice(world_.sprite_ids, t,
          [=](std::size_t i) { update_sprite(s[i], pl[i], h[i]); });
    phase_.arrive_and_wait();
    if (t == 0) {
      frame_buffer* const f = &world_.fb;
      world_.each(world_.render_ids,
                  [=](std::size_t i) { render(*f, p[i], s[i]); });
    }
  }

  baseline_world world_;
  std::size_t threads_;
  std::barrier<> start_;
  std::barrier<> phase_;
  job job_ = nullptr;
  bool stop_ = false;  // written before start_'s phase completes
  std::vector<std::thread> workers_;
};

// ------------------------------------------------------------------ fixtures

// The world of the running benchmark, kept while Google Benchmark re-runs the
// same benchmark to size its iteration count (set-up at 2M entities costs
// far more than a run). One world at a time, so memory stays bounded.
struct world_cache {
  std::shared_ptr<void> world;
  const std::type_info* type = nullptr;
  std::size_t n = 0;
  mix m = mix::full;
  int tag = 0;
};
inline world_cache& cache() {
  static world_cache c;
  return c;
}
template <typename World, typename Make>
World& cached_world(std::size_t n, mix m, int tag, Make make) {
  world_cache& c = cache();
  if (c.type == nullptr || *c.type != typeid(World) || c.n != n || c.m != m ||
      c.tag != tag) {
    c.world.reset();  // free the old one first
    c.world = std::shared_ptr<World>(make());
    c.type = &typeid(World);
    c.n = n;
    c.m = m;
    c.tag = tag;
  }
  return *static_cast<World*>(c.world.get());
}
inline void drop_cached_world() {
  cache().world.reset();
  cache().type = nullptr;
}

// Entity counts of ecs_benchmark's plots: 1, 1k, 16k, 256k, 1M, 2M.
inline void entity_counts(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1, 1 << 10, 1 << 14, 1 << 18, 1 << 20, 1 << 21})
    b->Arg(n);
}

}  // namespace bench

#endif  // STRATA_BENCHMARKS_SCENARIO_H_
