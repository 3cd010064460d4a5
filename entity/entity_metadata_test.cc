#include "entity/entity_metadata.h"

#include <bitset>
#include <cstddef>
#include <random>

#include "gtest/gtest.h"

namespace strata {
namespace {

// Everything used to build signature bitsets must work at compile time.
constexpr auto kRequired = component_bitset<70>::of({1, 65});
constexpr auto kEntity = component_bitset<70>::of({1, 3, 65, 69});
static_assert(matches(kRequired, kEntity));
static_assert(!matches(kEntity, kRequired));
static_assert(kEntity.count() == 4);
static_assert((kRequired & kEntity) == kRequired);
static_assert((kRequired | kEntity) == kEntity);
static_assert(component_bitset<1>().none());
static_assert(component_bitset<65>().set().count() == 65);
static_assert((~component_bitset<65>()).all());
// The smallest word that holds N bits: with up to 16 component types an
// entity record (id slot + bitset + the refresh's one byte of flags,
// context/refresh_test.cc) is 8 bytes.
static_assert(sizeof(component_bitset<7>) == 1);
static_assert(sizeof(component_bitset<8>) == 1);
static_assert(sizeof(component_bitset<9>) == 2);
static_assert(sizeof(component_bitset<32>) == 4);
static_assert(sizeof(component_bitset<33>) == 8);
static_assert(sizeof(component_bitset<64>) == 8);
static_assert(sizeof(component_bitset<65>) == 16);
static_assert(component_bitset<8>().set().all());
static_assert((~component_bitset<8>()).count() == 8);
static_assert((~component_bitset<12>()).count() == 12);
static_assert(sizeof(entity_metadata<10>) == sizeof(component_bitset<10>),
              "an empty Extra must not cost space");

// Checks one size against std::bitset as the reference, on random operations.
template <std::size_t N>
void CheckAgainstStdBitset(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> bit(0, N - 1);
  component_bitset<N> a, b;
  std::bitset<N> ra, rb;
  for (int step = 0; step < 2000; ++step) {
    const std::size_t i = bit(rng);
    switch (rng() % 5) {
      case 0:
        a.set(i);
        ra.set(i);
        break;
      case 1:
        a.reset(i);
        ra.reset(i);
        break;
      case 2:
        b.set(i);
        rb.set(i);
        break;
      case 3:
        b.set(i, false);
        rb.reset(i);
        break;
      case 4:
        b.set(i, true);
        rb.set(i);
        break;
    }
    ASSERT_EQ(a.test(i), ra.test(i)) << "N=" << N << " bit " << i;
    ASSERT_EQ(a.count(), ra.count());
    ASSERT_EQ(a.any(), ra.any());
    ASSERT_EQ(a.none(), ra.none());
    ASSERT_EQ(a == b, ra == rb);
    ASSERT_EQ((a & b).count(), (ra & rb).count());
    ASSERT_EQ((a | b).count(), (ra | rb).count());
    ASSERT_EQ((a ^ b).count(), (ra ^ rb).count());
    ASSERT_EQ((~a).count(), (~ra).count());
    ASSERT_EQ(matches(a, b), (ra & rb) == ra);
    ASSERT_EQ(matches(b, a), (ra & rb) == rb);
  }
  for (std::size_t i = 0; i < N; ++i) ASSERT_EQ(a[i], ra[i]);
}

TEST(ComponentBitsetTest, AgreesWithStdBitsetSize1) {
  CheckAgainstStdBitset<1>(1);
}
TEST(ComponentBitsetTest, AgreesWithStdBitsetSmallWords) {
  CheckAgainstStdBitset<7>(7);
  CheckAgainstStdBitset<8>(8);
  CheckAgainstStdBitset<9>(9);
  CheckAgainstStdBitset<16>(16);
  CheckAgainstStdBitset<31>(31);
  CheckAgainstStdBitset<32>(32);
  CheckAgainstStdBitset<33>(33);
}
TEST(ComponentBitsetTest, AgreesWithStdBitsetSize64) {
  CheckAgainstStdBitset<64>(64);
}
TEST(ComponentBitsetTest, AgreesWithStdBitsetSize65) {
  CheckAgainstStdBitset<65>(65);
}
TEST(ComponentBitsetTest, AgreesWithStdBitsetSize200) {
  CheckAgainstStdBitset<200>(200);
}

TEST(ComponentBitsetTest, SetResetAtWordBoundaries) {
  component_bitset<200> bits;
  for (std::size_t i : {0, 63, 64, 127, 128, 199}) {
    EXPECT_FALSE(bits.test(i));
    bits.set(i);
    EXPECT_TRUE(bits.test(i)) << i;
  }
  EXPECT_EQ(bits.count(), 6u);
  bits.reset(64);
  EXPECT_FALSE(bits.test(64));
  EXPECT_TRUE(bits.test(63));
  EXPECT_TRUE(bits.test(127));
  EXPECT_EQ(bits.count(), 5u);
  bits.reset();
  EXPECT_TRUE(bits.none());
}

TEST(ComponentBitsetTest, AllOnlyWhenEveryBitIsSet) {
  component_bitset<65> bits;
  for (std::size_t i = 0; i < 64; ++i) bits.set(i);
  EXPECT_FALSE(bits.all());
  bits.set(64);
  EXPECT_TRUE(bits.all());
  EXPECT_EQ(bits, component_bitset<65>().set());
}

TEST(ComponentBitsetTest, Matches) {
  using bits = component_bitset<3>;
  const auto none = bits();
  const auto pos = bits::of({0});
  const auto pos_vel = bits::of({0, 1});
  EXPECT_TRUE(matches(none, none));  // a system needing nothing takes all
  EXPECT_TRUE(matches(none, pos_vel));
  EXPECT_TRUE(matches(pos, pos_vel));
  EXPECT_TRUE(matches(pos_vel, pos_vel));
  EXPECT_FALSE(matches(pos_vel, pos));
  EXPECT_FALSE(matches(bits::of({2}), pos_vel));
}

TEST(ComponentBitsetTest, MatchesAcrossWords) {
  const auto required = component_bitset<200>::of({5, 150});
  auto entity = component_bitset<200>::of({5});
  EXPECT_FALSE(matches(required, entity));  // missing bit in the third word
  entity.set(150);
  EXPECT_TRUE(matches(required, entity));
  entity.set(199);
  EXPECT_TRUE(matches(required, entity));
}

struct chunk_slot {
  int position = -1;
  friend bool operator==(chunk_slot, chunk_slot) = default;
};

TEST(EntityMetadataTest, DefaultIsFreshAndExtraIsInline) {
  entity_metadata<4, chunk_slot> m;
  EXPECT_TRUE(m.components.none());
  EXPECT_EQ(m.extra.position, -1);
  m.components.set(2);
  m.extra.position = 7;
  EXPECT_NE(m, (entity_metadata<4, chunk_slot>{}));
  m = {};
  EXPECT_EQ(m, (entity_metadata<4, chunk_slot>{}));
  static_assert(entity_metadata<4, chunk_slot>::component_count == 4);
}

}  // namespace
}  // namespace strata
