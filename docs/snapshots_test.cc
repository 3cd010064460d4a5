// The snippets of docs/guide/08-snapshots.md, compiled and run. The text
// between `// --- snippet: NAME ---` and `// --- end snippet ---` is the
// page's code block NAME (docs:check_snippets_test).
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

// --- snippet: includes ---
#include "context/cereal_io.h"   // //context:cereal_io
#include "context/save_load.h"   // //context:save_load
#include "context/state_hash.h"  // //context:state_hash
#include "strata.h"
// --- end snippet ---
#include <cereal/types/string.hpp>

#include "gtest/gtest.h"

namespace {

struct position {
  float x = 0, y = 0;
};
struct velocity {
  float x = 0, y = 0;
};

// --- snippet: hash-state ---
// Not trivially copyable: hashed by the function the hash finds next to it,
// saved through cereal (its signature says so, below).
struct nickname {
  std::string text;
  template <typename Archive>
  void serialize(Archive& archive) {
    archive(text);
  }
};
void hash_state(strata::state_hasher& hasher, const nickname& value) {
  hasher.add(value.text.size());
  hasher.add_bytes(value.text.data(), value.text.size());
}
// --- end snippet ---

namespace ct {
inline constexpr auto position = strata::tag<::position>;
inline constexpr auto velocity = strata::tag<::velocity>;
inline constexpr auto nickname = strata::tag<::nickname>;
}  // namespace ct

struct move {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](position& p, const velocity& v) {
      p.x += v.x;
      p.y += v.y;
    });
  }
};
namespace st {
inline constexpr auto move = strata::tag<::move>;
}  // namespace st

// --- snippet: serialize-with ---
constexpr auto components = strata::component_signatures(
    strata::component_signature::make(ct::position, ct::velocity),
    strata::component_signature::make(ct::nickname)
        .sparse()
        .serialize_with(strata::cereal_io{}));
// --- end snippet ---
constexpr auto settings = strata::settings()
                              .allow_inner_parallelism()
                              .component_signatures(components)
                              .system_signatures(strata::system_signatures(
                                  strata::system_signature::make(st::move)
                                      .read(ct::velocity)
                                      .write(ct::position)));

void run_systems(auto& proxy) {
  proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
      [](auto& system, auto& data) { system.process(data); }));
}

template <typename Context>
void populate(Context& ctx) {
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 100; ++i) {
      const strata::entity_id e = proxy.create_entity();
      proxy.add_component(ct::position, e, float(i), 0.f);
      proxy.add_component(ct::velocity, e, 1.f, float(i % 3));
      if (i % 10 == 0)
        proxy.add_component(ct::nickname, e, "n" + std::to_string(i));
    }
  });
}

// An input: which entity to stop, per frame.
struct frame_input {
  int stop = -1;
};
template <typename Proxy>
void apply_input(Proxy& proxy, const frame_input& in) {
  int i = 0;
  proxy.for_each([&](strata::entity_id, velocity& v) {
    if (i++ == in.stop) v = {0, 0};
  });
}

TEST(SnapshotsGuideTest, Rollback) {
  auto ctx = strata::make_context(settings);
  populate(ctx);
  std::vector<frame_input> inputs(60);
  std::vector<std::uint64_t> hashes;
  // --- snippet: rollback ---
  // One snapshot per frame, in a ring: snapshot_into reuses each one's
  // memory, so the loop allocates nothing once the ring is warm.
  std::vector<decltype(ctx)::snapshot_type> ring(16);
  auto simulate = [&](int frame) {
    ctx.step([&](auto& proxy) {
      apply_input(proxy, inputs[frame]);
      run_systems(proxy);
    });
  };
  for (int frame = 0; frame < 40; ++frame) {
    ctx.snapshot_into(ring[frame % 16]);
    simulate(frame);
    hashes.push_back(ctx.state_hash());
  }
  // A late input for frame 30: back to the start of frame 30, re-simulate.
  inputs[30].stop = 5;
  ctx.restore(ring[30 % 16]);
  for (int frame = 30; frame < 40; ++frame) simulate(frame);
  // --- end snippet ---
  EXPECT_NE(ctx.state_hash(), hashes.back());
  inputs[30].stop = -1;
  ctx.restore(ring[30 % 16]);
  for (int frame = 30; frame < 40; ++frame) simulate(frame);
  EXPECT_EQ(ctx.state_hash(), hashes.back());
}

TEST(SnapshotsGuideTest, DeterminismCheck) {
  // --- snippet: state-hash ---
  auto hash_after = [](std::size_t threads) {
    auto ctx = strata::make_context(
        settings.scheduler(strata::scheduler::atomic_counter).threads(threads));
    populate(ctx);
    for (int frame = 0; frame < 50; ++frame) {
      ctx.step([](auto& proxy) { run_systems(proxy); });
    }
    return ctx.state_hash();
  };
  EXPECT_EQ(hash_after(1), hash_after(8));
  // --- end snippet ---
}

TEST(SnapshotsGuideTest, SaveAndLoad) {
  auto ctx = strata::make_context(settings);
  populate(ctx);
  auto other = strata::make_context(settings);
  // --- snippet: save-load ---
  std::stringstream file;  // or a std::ofstream / std::ifstream, binary
  if (ctx.save(file) != strata::save_error::none) {
    // the stream went bad: disk full, closed...
  }
  const strata::load_error error = other.load(file);
  if (error != strata::load_error::none) {
    // other is exactly as it was; strata::to_string(error) names the problem
  }
  // --- end snippet ---
  EXPECT_EQ(error, strata::load_error::none);
  EXPECT_EQ(other.state_hash(), ctx.state_hash());
  // --- snippet: bad-input ---
  std::string bytes = file.str();
  bytes.resize(bytes.size() / 2);
  std::istringstream half(bytes);
  EXPECT_EQ(other.load(half), strata::load_error::truncated);
  // --- end snippet ---
  EXPECT_EQ(other.state_hash(), ctx.state_hash());
}

}  // namespace
