// Direct tests of the built-in chunks: the concept, layout details, growth,
// and concurrent access to distinct entities.
#include "component_storage/chunk.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "base/limit.h"
#include "component_storage/contiguous_buffer_chunk.h"
#include "component_storage/empty_chunk.h"
#include "component_storage/hash_map_chunk.h"
#include "component_storage/sparse_chunk.h"
#include "entity/entity_id.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace strata {
namespace {

using testing::position;
struct name {
  std::string value;
};
struct tag_only {};
struct move_only {
  explicit move_only(int v) : p(std::make_unique<int>(v)) {}
  std::unique_ptr<int> p;
};

entity_id id(std::uint32_t index, std::uint32_t version = 0) {
  return entity_id::combine(index, version);
}

// Every built-in chunk satisfies the concept for each of its components.
static_assert(
    component_chunk<contiguous_buffer_chunk<fixed_limit<8>, position, name>,
                    position>);
static_assert(component_chunk<
              contiguous_buffer_chunk<dynamic_limit, position, name>, name>);
static_assert(
    component_chunk<aos_contiguous_buffer_chunk<dynamic_limit, position, name>,
                    name>);
static_assert(
    component_chunk<sparse_chunk<dynamic_limit, move_only>, move_only>);
static_assert(
    component_chunk<hash_map_chunk<dynamic_limit, move_only>, move_only>);
static_assert(component_chunk<empty_chunk<tag_only>, tag_only>);
// ... and not for a component it does not hold.
static_assert(
    !component_chunk<contiguous_buffer_chunk<fixed_limit<8>, position>, name>);
static_assert(chunk_has_contains<sparse_chunk<fixed_limit<8>, name>, name>);
static_assert(!chunk_has_contains<empty_chunk<tag_only>, tag_only>);
static_assert(chunk_has_reserve<hash_map_chunk<dynamic_limit, name>>);
static_assert(std::is_void_v<chunk_entity_metadata_t<empty_chunk<tag_only>>>);
struct with_metadata {
  struct entity_metadata {
    int slot;
  };
};
static_assert(std::is_same_v<chunk_entity_metadata_t<with_metadata>,
                             with_metadata::entity_metadata>);

TEST(contiguous_buffer_chunk, fixed_limit_allocates_up_front) {
  contiguous_buffer_chunk<fixed_limit<100>, position> chunk;
  EXPECT_EQ(chunk.capacity(), 100u);
  position& p = chunk.create<position>(id(99), 1.f, 2.f);
  for (std::uint32_t i = 0; i < 99; ++i)
    chunk.create<position>(id(i), 0.f, 0.f);
  EXPECT_EQ(&p, &chunk.get<position>(id(99)));  // no growth, stable
  EXPECT_EQ(chunk.data<position>().size(), 100u);
  EXPECT_EQ(chunk.data<position>()[99].y, 2.f);
}

TEST(contiguous_buffer_chunk, dynamic_limit_grows_and_keeps_values) {
  contiguous_buffer_chunk<dynamic_limit, position, name> chunk;
  EXPECT_EQ(chunk.capacity(), 0u);
  for (std::uint32_t i = 0; i < 1000; i += 3) {
    chunk.create<position>(id(i), float(i), 0.f);
    chunk.create<name>(id(i), std::string(i % 50, 'n'));
  }
  EXPECT_GE(chunk.capacity(), 998u);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(chunk.contains<position>(id(i)), i % 3 == 0);
    if (i % 3 == 0) {
      EXPECT_EQ(chunk.get<position>(id(i)).x, float(i));
      EXPECT_EQ(chunk.get<name>(id(i)).value, std::string(i % 50, 'n'));
    }
  }
  chunk.reserve(5000);
  EXPECT_EQ(chunk.capacity(), 5000u);
  EXPECT_EQ(chunk.get<name>(id(999)).value, std::string(999 % 50, 'n'));
}

TEST(contiguous_buffer_chunk, components_of_a_group_are_independent) {
  aos_contiguous_buffer_chunk<fixed_limit<4>, position, name> chunk;
  chunk.create<name>(id(2), "two");
  EXPECT_TRUE(chunk.contains<name>(id(2)));
  EXPECT_FALSE(chunk.contains<position>(id(2)));
  chunk.create<position>(id(2), 1.f, 1.f);
  chunk.remove<name>(id(2));
  EXPECT_FALSE(chunk.contains<name>(id(2)));
  EXPECT_EQ(chunk.get<position>(id(2)).x, 1.f);
}

struct alignas(32) wide {
  double v[4];
};
TEST(contiguous_buffer_chunk, aos_rows_respect_alignment) {
  aos_contiguous_buffer_chunk<dynamic_limit, char, wide, std::int16_t> chunk;
  for (std::uint32_t i = 0; i < 100; ++i) {
    chunk.create<char>(id(i), 'a');
    chunk.create<wide>(id(i), wide{{double(i), 0, 0, 0}});
    chunk.create<std::int16_t>(id(i), std::int16_t(i));
  }
  for (std::uint32_t i = 0; i < 100; ++i) {
    const wide& w = chunk.get<wide>(id(i));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&w) % 32, 0u);
    EXPECT_EQ(w.v[0], double(i));
    EXPECT_EQ(chunk.get<std::int16_t>(id(i)), std::int16_t(i));
  }
}

TEST(contiguous_buffer_chunk, move_only_components_survive_growth) {
  aos_contiguous_buffer_chunk<dynamic_limit, move_only> aos;
  contiguous_buffer_chunk<dynamic_limit, move_only> soa;
  for (int i = 0; i < 300; ++i) {
    aos.create<move_only>(id(i * 7), i);
    soa.create<move_only>(id(i * 7), i);
  }
  for (int i = 0; i < 300; ++i) {
    EXPECT_EQ(*aos.get<move_only>(id(i * 7)).p, i);
    EXPECT_EQ(*soa.get<move_only>(id(i * 7)).p, i);
  }
  auto moved = std::move(soa);
  EXPECT_EQ(*moved.get<move_only>(id(7)).p, 1);
  EXPECT_EQ(soa.capacity(), 0u);  // NOLINT(bugprone-use-after-move)
}

// Two component types of one shape (size and alignment) share a column
// type in storage (base/internal/object_bytes.h); in one chunk they are
// still two columns, and chunks of either stay apart.
struct heading {
  float dx, dy;
};
struct scale {
  float sx, sy;
};
static_assert(sizeof(heading) == sizeof(position) &&
              sizeof(scale) == sizeof(position));
TEST(contiguous_buffer_chunk, components_of_one_shape_stay_distinct) {
  contiguous_buffer_chunk<dynamic_limit, position, heading> soa;
  aos_contiguous_buffer_chunk<dynamic_limit, position, heading> aos;
  contiguous_buffer_chunk<dynamic_limit, scale> alone;
  for (std::uint32_t i = 0; i < 500; i += 2) {  // grows several times
    soa.create<position>(id(i), float(i), 1.f);
    soa.create<heading>(id(i), -float(i), 2.f);
    aos.create<heading>(id(i + 1), float(i), 3.f);
    aos.create<position>(id(i + 1), -float(i), 4.f);
    alone.create<scale>(id(i), 5.f, float(i));
  }
  soa.remove<heading>(id(4));
  for (std::uint32_t i = 0; i < 500; i += 2) {
    EXPECT_EQ(soa.get<position>(id(i)).x, float(i));
    EXPECT_EQ(soa.get<position>(id(i)).y, 1.f);
    ASSERT_EQ(soa.contains<heading>(id(i)), i != 4);
    if (i != 4) {
      EXPECT_EQ(soa.get<heading>(id(i)).dx, -float(i));
    }
    EXPECT_EQ(aos.get<heading>(id(i + 1)).dy, 3.f);
    EXPECT_EQ(aos.index_accessor<position>()[i + 1].x, -float(i));
    EXPECT_EQ(alone.data<scale>()[i].sy, float(i));
  }
  EXPECT_FALSE(soa.contains<heading>(id(1)));
  EXPECT_EQ(soa.data<heading>()[2].dy, 2.f);
}

TEST(contiguous_buffer_chunk, version_is_ignored) {
  contiguous_buffer_chunk<fixed_limit<4>, int> chunk;
  chunk.create<int>(id(1, 3), 5);
  EXPECT_EQ(chunk.get<int>(id(1, 7)), 5);
}

TEST(sparse_chunk, uses_the_full_id) {
  sparse_chunk<dynamic_limit, name, move_only> chunk;
  chunk.create<name>(id(4, 1), "a");
  chunk.create<move_only>(id(4, 1), 3);
  EXPECT_TRUE(chunk.contains<name>(id(4, 1)));
  EXPECT_FALSE(chunk.contains<name>(id(4, 2)));
  EXPECT_EQ(chunk.set_for<name>().size(), 1u);
  chunk.remove<name>(id(4, 1));
  EXPECT_FALSE(chunk.contains<name>(id(4, 1)));
  EXPECT_EQ(*chunk.get<move_only>(id(4, 1)).p, 3);
}

TEST(hash_map_chunk, stores_aggregates_and_move_only_types) {
  hash_map_chunk<fixed_limit<1000>, position, move_only> chunk;
  chunk.create<position>(id(900), 1.f, 2.f);
  chunk.create<move_only>(id(900), 8);
  EXPECT_EQ(chunk.get<position>(id(900)).y, 2.f);
  EXPECT_EQ(*chunk.get<move_only>(id(900)).p, 8);
  EXPECT_EQ(chunk.size<position>(), 1u);
  chunk.clear();
  EXPECT_FALSE(chunk.contains<position>(id(900)));
}

TEST(empty_chunk, needs_no_memory) {
  empty_chunk<tag_only> chunk;
  tag_only& a = chunk.create<tag_only>(id(1));
  tag_only& b = chunk.get<tag_only>(id(2));
  EXPECT_EQ(&a, &b);
  chunk.remove<tag_only>(id(1));
  chunk.clear();
}

// Distinct entities may be created, read and written from different threads
// in a fixed contiguous buffer; gets of existing components in the others.
TEST(chunks, distinct_entities_from_several_threads) {
  constexpr std::uint32_t n = 4000;
  contiguous_buffer_chunk<fixed_limit<n>, position, name> buffer;
  sparse_chunk<fixed_limit<n>, position> sparse;
  hash_map_chunk<fixed_limit<n>, position> hash;
  for (std::uint32_t i = 0; i < n; ++i) {
    sparse.create<position>(id(i), 0.f, 0.f);
    hash.create<position>(id(i), 0.f, 0.f);
  }
  auto work = [&](std::uint32_t first) {
    for (std::uint32_t i = first; i < n; i += 2) {
      buffer.create<position>(id(i), float(i), 0.f);
      buffer.get<position>(id(i)).y += 1.f;
      sparse.get<position>(id(i)).x = float(i);
      hash.get<position>(id(i)).x = float(i);
      if (i % 4 == first) buffer.remove<position>(id(i));
    }
  };
  std::thread t0(work, 0), t1(work, 1);
  t0.join();
  t1.join();
  for (std::uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(buffer.contains<position>(id(i)), i % 4 >= 2);
    if (i % 4 >= 2) {
      EXPECT_EQ(buffer.get<position>(id(i)).y, 1.f);
    }
    EXPECT_EQ(sparse.get<position>(id(i)).x, float(i));
    EXPECT_EQ(hash.get<position>(id(i)).x, float(i));
  }
}

}  // namespace
}  // namespace strata
