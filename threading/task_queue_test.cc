// The ring behind each worker of the thread pool
// (threading/internal/task_queue.h): oldest first across wrap-around and
// growth, growth keeps its capacity (so a warm queue does not allocate), the
// hint and the exact check agree once the lock is free, and try_pop backs
// off from a held lock.
#include "threading/internal/task_queue.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "testing/allocation_counter.h"
#include "threading/latch.h"

namespace strata::threading_internal {
namespace {

using ::strata::testing::allocation_count;

TEST(TaskQueueTest, OldestFirstAcrossWrapAroundAndGrowth) {
  task_queue queue(4);
  std::vector<int> order;
  int next = 0;
  int expected = 0;
  // Push more than pop in each round so the head wraps and the ring grows
  // with a wrapped head.
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 3; ++i) {
      queue.push([&order, v = next++] { order.push_back(v); });
    }
    for (int i = 0; i < 2; ++i) {
      task_queue::task t;
      ASSERT_TRUE(queue.pop(t));
      t();
      ASSERT_EQ(order.back(), expected++);
    }
  }
  task_queue::task t;
  while (queue.pop(t)) {
    t();
    ASSERT_EQ(order.back(), expected++);
  }
  EXPECT_EQ(expected, next);
  EXPECT_TRUE(queue.looks_empty());
  EXPECT_TRUE(queue.empty_now());
}

TEST(TaskQueueTest, GrowthKeepsCapacitySoAWarmQueueDoesNotAllocate) {
  task_queue queue(2);
  int sink = 0;
  auto fill_and_drain = [&] {
    for (int i = 0; i < 1000; ++i) queue.push([&sink] { ++sink; });
    task_queue::task t;
    while (queue.pop(t)) t();
  };
  fill_and_drain();
  EXPECT_GE(queue.capacity(), 1000u);
  const std::size_t before = allocation_count();
  fill_and_drain();
  EXPECT_EQ(allocation_count() - before, 0u);
  EXPECT_EQ(sink, 2000);
}

TEST(TaskQueueTest, HintFollowsTheCount) {
  task_queue queue;
  EXPECT_TRUE(queue.looks_empty());
  queue.push([] {});
  EXPECT_FALSE(queue.looks_empty());
  EXPECT_FALSE(queue.empty_now());
  task_queue::task t;
  EXPECT_EQ(queue.try_pop(t), task_queue::pop_result::taken);
  EXPECT_TRUE(queue.looks_empty());
  EXPECT_EQ(queue.try_pop(t), task_queue::pop_result::empty);
}

// A popped task's captures leave the queue with it: the slot does not keep
// a moved-from copy alive.
TEST(TaskQueueTest, PopReleasesTheSlot) {
  task_queue queue;
  auto owned = std::make_shared<int>(1);
  queue.push([owned] {});
  EXPECT_EQ(owned.use_count(), 2);
  {
    task_queue::task t;
    ASSERT_TRUE(queue.pop(t));
  }
  EXPECT_EQ(owned.use_count(), 1);
}

// A callable whose second move (the one push() makes into the ring, under
// the queue's lock) waits until released: it holds the lock open for the
// test. Two pointers, nothrow-movable: stored inline, so moving the task
// moves it.
struct lock_holder {
  struct sync {
    std::atomic<int> moves{0};
    latch inside{1};
    latch release{1};
  };
  sync* s;
  void* unused = nullptr;
  explicit lock_holder(sync* state) : s(state) {}
  lock_holder(lock_holder&& other) noexcept : s(other.s) {
    if (s->moves.fetch_add(1) + 1 == 2) {
      s->inside.count_down();
      s->release.wait();
    }
  }
  void operator()() const {}
};

TEST(TaskQueueTest, TryPopBacksOffFromAHeldLock) {
  task_queue queue;
  queue.push([] {});
  lock_holder::sync sync;
  std::thread pusher([&] { queue.push(task_queue::task(lock_holder(&sync))); });
  sync.inside.wait();  // The pusher holds the lock now.
  task_queue::task t;
  EXPECT_EQ(queue.try_pop(t), task_queue::pop_result::contended);
  EXPECT_FALSE(t);
  sync.release.count_down();
  pusher.join();
  EXPECT_EQ(queue.try_pop(t), task_queue::pop_result::taken);
}

}  // namespace
}  // namespace strata::threading_internal
