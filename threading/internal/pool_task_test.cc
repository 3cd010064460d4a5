#include "threading/internal/pool_task.h"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include "gtest/gtest.h"
#include "testing/allocation_counter.h"

namespace strata::threading_internal {
namespace {

// Counts live copies of a callable, to see each one destroyed exactly once.
struct tracked {
  static inline int alive = 0;
  int* calls;
  explicit tracked(int* c) : calls(c) { ++alive; }
  tracked(const tracked& other) : calls(other.calls) { ++alive; }
  tracked(tracked&& other) noexcept : calls(other.calls) { ++alive; }
  ~tracked() { --alive; }
  void operator()() const { ++*calls; }
};
// Too big for the inline buffer.
struct tracked_big : tracked {
  using tracked::tracked;
  std::array<char, 64> padding{};
};
// Small, but its move may throw: stored on the heap, like a big one.
struct throwing_move {
  int* calls;
  explicit throwing_move(int* c) : calls(c) {}
  throwing_move(throwing_move&& other) noexcept(false) : calls(other.calls) {}
  void operator()() const { ++*calls; }
};

class PoolTaskTest : public ::testing::Test {
 protected:
  void SetUp() override { tracked::alive = 0; }
};

TEST_F(PoolTaskTest, EmptyUntilGivenACallable) {
  pool_task a;
  pool_task b = nullptr;
  EXPECT_TRUE(a == nullptr);
  EXPECT_TRUE(b == nullptr);
  int calls = 0;
  pool_task c([&calls] { ++calls; });
  EXPECT_FALSE(c == nullptr);
  c();
  c();
  EXPECT_EQ(calls, 2);
}

template <typename Callable>
void runs_moves_and_destroys_once() {
  int calls = 0;
  {
    pool_task a{Callable(&calls)};
    pool_task b(std::move(a));
    EXPECT_TRUE(a == nullptr);  // NOLINT(bugprone-use-after-move): promised
    b();
    pool_task c;
    c = std::move(b);
    EXPECT_TRUE(b == nullptr);  // NOLINT(bugprone-use-after-move): promised
    c();
    pool_task d{Callable(&calls)};
    d = std::move(c);  // destroys d's own callable first
    d();
    EXPECT_EQ(tracked::alive, 1);
  }
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(tracked::alive, 0);
}

TEST_F(PoolTaskTest, InlineCallableRunsMovesAndIsDestroyedOnce) {
  runs_moves_and_destroys_once<tracked>();
}

TEST_F(PoolTaskTest, HeapCallableRunsMovesAndIsDestroyedOnce) {
  runs_moves_and_destroys_once<tracked_big>();
}

TEST_F(PoolTaskTest, TwoPointersAreStoredInlineAndMoreAreNot) {
  int calls = 0;
  int* other = &calls;
  const std::size_t before = testing::allocation_count();
  {
    pool_task small([&calls, other] { ++calls, (void)other; });
    pool_task moved(std::move(small));
    moved();
  }
  EXPECT_EQ(testing::allocation_count(), before);
  {
    pool_task big(tracked_big{&calls});
    big();
  }
  EXPECT_EQ(testing::allocation_count(), before + 1);
  {
    pool_task risky(throwing_move{&calls});
    risky();
  }
  EXPECT_EQ(testing::allocation_count(), before + 2);
  EXPECT_EQ(calls, 3);
}

TEST_F(PoolTaskTest, AnExceptionFromTheCallableReachesTheCaller) {
  pool_task t([] { throw std::runtime_error("from the task"); });
  EXPECT_THROW(t(), std::runtime_error);
  EXPECT_FALSE(t == nullptr);
}

}  // namespace
}  // namespace strata::threading_internal
