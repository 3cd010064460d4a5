// ctx.save / ctx.load (context/save_load.h) on worlds with every storage
// kind (snapshot_testing.h):
//   * property: random worlds (creates, kills with index reuse, adds,
//     removes, deferred spawns) saved, then loaded into a fresh context
//     (also one at another thread count and scheduler): the same state
//     hash, the same ids alive, the same query results, and the next 100
//     steps give the same hashes as the original's;
//   * bad input: every truncation, a flip of every byte, a file of a
//     program with other components, intact bytes that are no world: each
//     refused with its error, the context loaded into unchanged.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "context/save_load_testing.h"
#include "context/snapshot_testing.h"
#include "gtest/gtest.h"

namespace {

namespace sn = strata::snapshot_testing;
using strata::entity_id;
using strata::load_error;
using strata::save_load_testing::load_from_string;
using strata::save_load_testing::save_to_string;

template <typename Context>
void run_frames(Context& ctx, std::uint64_t first, std::uint64_t count) {
  for (std::uint64_t frame = first; frame < first + count; ++frame) {
    sn::run_frame(ctx, frame);
  }
}

// Every query result, as text: ids with the components they have.
template <typename Context>
std::string queries(const Context& ctx) {
  std::ostringstream out;
  ctx.for_each([&](entity_id e, const sn::position& p, const sn::velocity& v) {
    out << to_string(e) << " p " << p.x << "," << p.y << " v " << v.x << ","
        << v.y << "\n";
  });
  ctx.for_each([&](entity_id e, const sn::spin& s) {
    out << to_string(e) << " s " << s.angle << " " << int(s.turns) << "\n";
  });
  ctx.for_each([&](entity_id e, const sn::heat& h, const sn::health& hp) {
    out << to_string(e) << " h " << h.degrees << " " << hp.hp << "\n";
  });
  ctx.for_each([&](entity_id e, const sn::label& l) {
    out << to_string(e) << " l " << l.name << "\n";
  });
  ctx.for_each(
      [&](entity_id e, const sn::marked&) { out << to_string(e) << " m\n"; });
  return out.str();
}

template <typename Settings>
void expect_round_trip(std::uint64_t seed, const Settings& load_settings) {
  auto original = strata::make_context(sn::base_settings);
  const std::uint64_t first = seed * 1000;
  const std::uint64_t frames = 5 + sn::mix(seed) % 90;
  run_frames(original, first, frames);
  original.template resource<sn::tally>().spawns += seed;

  const std::string bytes = save_to_string(original);
  auto loaded = strata::make_context(load_settings);
  ASSERT_EQ(load_from_string(loaded, bytes), load_error::none);

  EXPECT_EQ(loaded.state_hash(), original.state_hash());
  EXPECT_EQ(loaded.entity_count(), original.entity_count());
  EXPECT_EQ(queries(loaded), queries(original));
  EXPECT_EQ(loaded.template resource<sn::tally>().spawns,
            original.template resource<sn::tally>().spawns);
  original.for_each([&](entity_id e, const sn::position&) {
    EXPECT_TRUE(loaded.alive(e)) << to_string(e);
  });
  for (std::uint64_t frame = first + frames; frame < first + frames + 100;
       ++frame) {
    sn::run_frame(original, frame);
    sn::run_frame(loaded, frame);
    ASSERT_EQ(loaded.state_hash(), original.state_hash())
        << "seed " << seed << ", frame " << frame;
  }
  EXPECT_EQ(queries(loaded), queries(original));
}

TEST(SaveLoadTest, RandomWorldsRoundTrip) {
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    expect_round_trip(seed, sn::base_settings);
  }
}

TEST(SaveLoadTest, RandomWorldsRoundTripAtOtherThreadCounts) {
  for (std::uint64_t seed = 20; seed < 24; ++seed) {
    expect_round_trip(
        seed, sn::base_settings.scheduler(strata::scheduler::atomic_counter)
                  .threads(2 + seed % 2 * 6));
  }
}

// A world to load into, with its fingerprint before any attempt.
struct target {
  decltype(strata::make_context(sn::base_settings)) ctx =
      strata::make_context(sn::base_settings);
  std::uint64_t hash = 0;
  std::size_t entities = 0;
  target() {
    run_frames(ctx, 500, 12);
    hash = ctx.state_hash();
    entities = ctx.entity_count();
  }
  void expect_unchanged(const std::string& what) {
    EXPECT_EQ(ctx.state_hash(), hash) << what;
    EXPECT_EQ(ctx.entity_count(), entities) << what;
  }
};

std::string small_world_file() {
  auto ctx = strata::make_context(sn::base_settings);
  run_frames(ctx, 0, 8);
  return save_to_string(ctx);
}

TEST(SaveLoadTest, EveryTruncationIsRefused) {
  const std::string bytes = small_world_file();
  target into;
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_EQ(load_from_string(into.ctx, bytes.substr(0, length)),
              load_error::truncated)
        << "length " << length;
  }
  into.expect_unchanged("after truncations");
  EXPECT_EQ(load_from_string(into.ctx, bytes), load_error::none);
}

// The error a flip at `offset` must give (the header layout of
// context/save_load.h).
load_error expected_for_flip(std::size_t offset, const std::string& original,
                             const std::string& flipped) {
  if (offset < 8) return load_error::not_a_world_file;
  if (offset < 12) return load_error::unsupported_version;
  if (offset < 16) return load_error::different_byte_order;
  if (offset < 24) return load_error::different_components;
  if (offset < 32) {
    std::uint64_t before = 0, after = 0;
    std::memcpy(&before, original.data() + 24, 8);
    std::memcpy(&after, flipped.data() + 24, 8);
    return after > before ? load_error::truncated
                          : load_error::checksum_mismatch;
  }
  return load_error::checksum_mismatch;
}

TEST(SaveLoadTest, EverySingleByteFlipIsRefused) {
  const std::string bytes = small_world_file();
  target into;
  std::uint64_t random = 7;
  for (std::size_t offset = 0; offset < bytes.size(); ++offset) {
    std::string flipped = bytes;
    random = sn::mix(random);
    flipped[offset] = static_cast<char>(flipped[offset] ^ (1 + random % 255));
    const load_error error = load_from_string(into.ctx, flipped);
    EXPECT_EQ(error, expected_for_flip(offset, bytes, flipped))
        << "offset " << offset << ": " << strata::to_string(error);
  }
  into.expect_unchanged("after flips");
}

// The same components, but health in a contiguous buffer, not sparse.
constexpr auto other_components = strata::component_signatures(
    strata::component_signature::make(sn::ct::position, sn::ct::velocity),
    strata::component_signature::make(sn::ct::spin, sn::ct::heat).aos(),
    strata::component_signature::make(sn::ct::health),
    strata::component_signature::make(sn::ct::label)
        .hash_map()
        .serialize_with(strata::cereal_io{}),
    strata::component_signature::make(sn::ct::marked));
constexpr auto other_settings =
    strata::settings()
        .resources(strata::resources(strata::resource<sn::world_rng>,
                                     strata::resource<sn::tally>))
        .component_signatures(other_components)
        .system_signatures(sn::systems);

TEST(SaveLoadTest, AFileOfOtherComponentsIsRefused) {
  auto other = strata::make_context(other_settings);
  run_frames(other, 0, 8);
  const std::string bytes = save_to_string(other);
  target into;
  EXPECT_EQ(load_from_string(into.ctx, bytes),
            load_error::different_components);
  into.expect_unchanged("other components");
  // And the other way round.
  const std::uint64_t other_hash = other.state_hash();
  EXPECT_EQ(load_from_string(other, small_world_file()),
            load_error::different_components);
  EXPECT_EQ(other.state_hash(), other_hash);
}

// Intact (the checksum matches) but not a world: a free list that does not
// hold together, or a cereal value cut short.
TEST(SaveLoadTest, IntactBytesThatAreNoWorldAreRefused) {
  auto source = strata::make_context(sn::base_settings);
  run_frames(source, 0, 30);
  source.step([](auto& proxy) {
    proxy.add_component(sn::ct::label, proxy.create_entity(), "last");
  });
  const std::string bytes = save_to_string(source);
  const auto with_payload_change = [&](std::size_t at, const void* data,
                                       std::size_t size) {
    std::string changed = bytes;
    std::memcpy(changed.data() + 40 + at, data, size);
    const std::uint64_t checksum =
        XXH3_64bits(changed.data() + 40, changed.size() - 40);
    std::memcpy(changed.data() + 32, &checksum, 8);
    return changed;
  };
  target into;
  const std::uint32_t bad_head = 0x00fffffe;
  EXPECT_EQ(load_from_string(into.ctx, with_payload_change(8, &bad_head, 4)),
            load_error::malformed);
  // The last label is the file's last component value before the
  // resources: its cereal size prefix (8 bytes) precedes "last".
  const std::size_t last_label = bytes.rfind("last") - 40;
  const std::uint64_t too_long = 100;
  EXPECT_EQ(load_from_string(into.ctx,
                             with_payload_change(last_label - 8, &too_long, 8)),
            load_error::malformed);
  into.expect_unchanged("malformed");
}

TEST(SaveLoadTest, ErrorsHaveNames) {
  EXPECT_EQ(strata::to_string(load_error::checksum_mismatch),
            "checksum mismatch");
  EXPECT_EQ(strata::to_string(load_error::different_components),
            "written by a program with different components or resources");
}

}  // namespace
