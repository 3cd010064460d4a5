#include "context/deferred_queue.h"

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/allocation_counter.h"

namespace strata {
namespace {

struct log {
  std::vector<std::string> calls;
};

TEST(DeferredQueueTest, RunsInPushOrderThenEmpties) {
  deferred_queue<log> queue;
  log l;
  queue.push([](log& into) { into.calls.push_back("a"); });
  std::array<double, 16> big{};  // a 128-byte capture
  big[3] = 3;
  queue.push([big](log& into) {
    into.calls.push_back("big " + std::to_string(static_cast<int>(big[3])));
  });
  queue.push([s = std::string("c")](log& into) { into.calls.push_back(s); });
  EXPECT_EQ(queue.size(), 3u);
  EXPECT_EQ(queue.run_all(l), nullptr);
  EXPECT_EQ(l.calls, (std::vector<std::string>{"a", "big 3", "c"}));
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.run_all(l), nullptr);  // nothing left
  EXPECT_EQ(l.calls.size(), 3u);
}

// Counts live copies, so the test sees every callable destroyed once.
struct counted {
  std::shared_ptr<int> live;
  void operator()(log& l) const { l.calls.push_back("counted"); }
};

TEST(DeferredQueueTest, EveryCallRunsAfterAThrowAndTheFirstThrowIsReturned) {
  deferred_queue<log> queue;
  auto token = std::make_shared<int>(0);
  log l;
  queue.push(counted{token});
  queue.push([](log&) { throw std::runtime_error("deferred failed"); });
  queue.push(counted{token});
  queue.push([](log&) { throw std::logic_error("second failure"); });
  EXPECT_EQ(token.use_count(), 3);
  std::exception_ptr error = queue.run_all(l);
  ASSERT_NE(error, nullptr);
  EXPECT_THROW(std::rethrow_exception(error), std::runtime_error);
  EXPECT_EQ(l.calls, (std::vector<std::string>{"counted", "counted"}));
  EXPECT_EQ(token.use_count(), 1);
  EXPECT_TRUE(queue.empty());
}

TEST(DeferredQueueTest, ClearAndDestructionDestroyWithoutRunning) {
  auto token = std::make_shared<int>(0);
  log l;
  {
    deferred_queue<log> queue;
    queue.push(counted{token});
    queue.clear();
    EXPECT_EQ(token.use_count(), 1);
    queue.push(counted{token});
    queue.push(counted{token});
  }
  EXPECT_EQ(token.use_count(), 1);
  EXPECT_TRUE(l.calls.empty());
}

TEST(DeferredQueueTest, CallablesLargerThanABlockGetOneOfTheirOwn) {
  deferred_queue<log> queue;
  log l;
  std::array<char, 3 * deferred_queue<log>::block_size> huge{};
  huge[0] = 'h';
  queue.push([](log& into) { into.calls.push_back("small"); });
  queue.push(
      [huge](log& into) { into.calls.push_back(std::string(1, huge[0])); });
  queue.push([](log& into) { into.calls.push_back("after"); });
  queue.run_all(l);
  EXPECT_EQ(l.calls, (std::vector<std::string>{"small", "h", "after"}));
}

// After one warm-up round, a round of the same shape allocates nothing, even
// with captures far beyond AnyInvocable's 16 inline bytes.
TEST(DeferredQueueTest, SteadyStateAllocatesNothing) {
  deferred_queue<log> queue;
  log l;
  l.calls.reserve(10'000);
  auto round = [&] {
    for (int i = 0; i < 100; ++i) {
      std::array<std::byte, 64> capture{};
      queue.push([capture](log&) { (void)capture; });
    }
    queue.run_all(l);
  };
  round();
  const std::size_t before = testing::allocation_count();
  for (int r = 0; r < 50; ++r) round();
  EXPECT_EQ(testing::allocation_count() - before, 0u);
}

}  // namespace
}  // namespace strata
