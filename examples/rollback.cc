// Rollback: snapshots, restore and the state hash, the way a networked game
// with rollback (GGPO-style) uses them.
//
// Two players steer ships and fire shots from a recorded input log. The
// game keeps a snapshot of every one of the last 64 frames, in a ring whose
// memory is reused frame after frame (ctx.snapshot_into). At frame 300 a
// late input arrives: player 1 fired at frame 250. The game restores its
// snapshot of frame 250, adds the input to the log, and re-simulates frames
// 250..299. It prints the state hash (ctx.state_hash()) at a few frames of
// the first run and of the re-simulation, at 1, 2 and 8 threads: every
// thread count prints the same hashes, and a re-simulation with the same
// inputs (the check at the end) reproduces the first run's hash exactly.
// Positions are integers (fixed point), so the hashes printed are the same
// with every compiler.
//
//   bazel run //examples:rollback
#include <array>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "context/state_hash.h"
#include "strata.h"

struct position {
  std::int32_t x = 0, y = 0;
};
struct velocity {
  std::int32_t dx = 0, dy = 0;
};
struct ship {
  std::int32_t player = 0;
};
struct lifetime {
  std::int32_t frames = 0;
};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto ship = strata::tag<::ship>;
inline constexpr auto lifetime = strata::tag<::lifetime>;
}  // namespace ct

struct move {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.dx;
      p.y += v.dy;
    });
  }
};
// Shots expire: killed at the refresh, their indices reused by later shots.
struct expire {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, lifetime& l) {
      if (--l.frames == 0) data.kill_entity(e);
    });
  }
};
namespace st {
inline constexpr auto move = strata::tag<::move>;
inline constexpr auto expire = strata::tag<::expire>;
}  // namespace st

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity),
    strata::component_signature::make(ct::ship).sparse(),
    strata::component_signature::make(ct::lifetime));
constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::move)
        .read(ct::velocity)
        .write(ct::position),
    strata::system_signature::make(st::expire).write(ct::lifetime));
constexpr auto base = strata::settings()
                          .allow_inner_parallelism()
                          .component_signatures(components)
                          .system_signatures(systems)
                          .scheduler(strata::scheduler::atomic_counter);

// One player's input in one frame.
struct input {
  std::int32_t frame, player, turn;
  bool fire;
};

// The recorded log: each player turns and fires on a fixed pattern.
std::vector<input> recorded_inputs() {
  std::vector<input> log;
  for (std::int32_t frame = 0; frame < 300; ++frame) {
    for (std::int32_t player = 0; player < 2; ++player) {
      const std::int32_t turn = (frame / 20 + player) % 3 - 1;
      log.push_back({frame, player, turn, (frame + 7 * player) % 9 == 0});
    }
  }
  return log;
}

// A frame: apply the frame's inputs to the ships (steer; a shot is a new
// entity), then run the systems.
template <typename Context>
void simulate(Context& ctx, const std::vector<input>& log, std::int32_t frame) {
  ctx.step([&](auto& proxy) {
    std::array<strata::entity_id, 2> ships{};
    proxy.for_each([&](strata::entity_id e, const ship& s) {
      ships[static_cast<std::size_t>(s.player)] = e;
    });
    for (const input& in : log) {
      if (in.frame != frame) continue;
      const strata::entity_id e = ships[static_cast<std::size_t>(in.player)];
      velocity& steered = proxy.get_component(ct::velocity, e);
      steered.dx += in.turn;
      steered.dy -= in.turn;
      if (in.fire) {  // copies: adding components may move the ship's own
        const velocity v = steered;
        const position at = proxy.get_component(ct::position, e);
        const strata::entity_id shot = proxy.create_entity();
        proxy.add_component(ct::position, shot, at);
        proxy.add_component(ct::velocity, shot, 4 * v.dx + 3, 4 * v.dy - 3);
        proxy.add_component(ct::lifetime, shot, 40);
      }
    }
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
}

// The game at `threads` threads; prints its hashes.
void play(std::size_t threads) {
  auto ctx = strata::make_context(base.threads(threads));
  ctx.step([](auto& proxy) {
    for (std::int32_t player = 0; player < 2; ++player) {
      const strata::entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, 100 * player, 0);
      proxy.add_component(ct::velocity, e, 1, 1 - 2 * player);
      proxy.add_component(ct::ship, e, player);
    }
  });
  std::vector<input> log = recorded_inputs();
  // ring[f % 64]: the world at the start of frame f.
  std::vector<decltype(ctx)::snapshot_type> ring(64);
  std::uint64_t first_run_at_300 = 0;
  std::printf("%zu threads:\n", threads);
  for (std::int32_t frame = 0; frame < 300; ++frame) {
    ctx.snapshot_into(ring[frame % 64]);
    simulate(ctx, log, frame);
    if (frame % 50 == 49) {
      std::printf("  frame %3d  %016" PRIx64 "\n", frame + 1, ctx.state_hash());
    }
  }
  first_run_at_300 = ctx.state_hash();

  // The same frames again from frame 250's snapshot: the same world.
  ctx.restore(ring[250 % 64]);
  for (std::int32_t frame = 250; frame < 300; ++frame)
    simulate(ctx, log, frame);
  std::printf("  replayed from 250 with the same inputs: %s\n",
              ctx.state_hash() == first_run_at_300 ? "identical" : "DIFFERENT");

  // Player 1 fired at frame 250 after all: roll back and re-simulate.
  log.push_back({250, 1, 0, true});
  ctx.restore(ring[250 % 64]);
  for (std::int32_t frame = 250; frame < 300; ++frame)
    simulate(ctx, log, frame);
  std::printf("  frame 300 after the late input  %016" PRIx64
              " (%zu entities)\n",
              ctx.state_hash(), ctx.entity_count());
}

int main() {
  for (const std::size_t threads : {1, 2, 8}) play(threads);
}
