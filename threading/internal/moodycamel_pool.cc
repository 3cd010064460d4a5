// moodycamel's queue orders some of its own accesses with
// std::atomic_thread_fence, which ThreadSanitizer does not model, and GCC
// warns wherever it inlines one under -fsanitize=thread. Before every
// include, so that it covers the headers that the fences are inlined from
// (see "How the pool sleeps" and moodycamel_tsan_suppressions.cc).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

#include "threading/internal/moodycamel_pool.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "base/check.h"
#include "concurrentqueue/concurrentqueue.h"

// How the pool sleeps without losing a wake-up
// ============================================
// strata::thread_pool's protocol (thread_pool.cc): a sleeper registers with
// a read-modify-write R on the idle word (or sleeping_helpers), then looks
// for work; a poster publishes its task, then loads the word. There the
// queue's mutex orders the two sides. A lock-free queue orders nothing that
// the other side reads, so here both sides use sequentially consistent
// operations on atomics the pool owns:
//
//   poster:  enqueue; P = count.fetch_add(1, seq_cst); L = idle.load(seq_cst)
//   sleeper: R = idle RMW (seq_cst); C = count.load(seq_cst) for every queue
//
// All four are in the single total order S of seq_cst operations. If C reads
// a value of the count older than P's, C is coherence-ordered before P, so
// R < C < P < L in S, and L reads R's value or a later one: the poster sees
// the sleeper registered and wakes it (or a searching worker that, as in
// thread_pool.cc, will itself park with this same re-check, or wake one).
// Otherwise C reads P's value or a later one. The count only drops by claims,
// each of which is followed by the dequeue of one task, and a claim needs a
// non-zero count, so the number of claims in the value C read never exceeds
// the number of increments in it. If C reads zero while a task sits in the
// queue, more tasks were enqueued than C's value counts, so some poster's P
// follows C, and that poster sees the sleeper as above. Either the sleeper
// finds work, or a poster wakes a thread for it.
//
// The protocol uses only atomic loads and read-modify-writes, no fences.
// ThreadSanitizer does not check the seq_cst reasoning itself (a lost
// wake-up shows up as a hang in the stress tests, not as a report); what it
// checks is that every task is handed over with a happens-before edge, which
// moodycamel provides with release stores and acquire loads of its indices.
// moodycamel does use fences of its own to order a block's reuse after its
// last dequeue; ThreadSanitizer misreads those as races, which the tests
// suppress (moodycamel_tsan_suppressions.cc).
//
// After a claim some task is always in the queue for the claimer (claims
// never outnumber the increments, each of which follows a completed
// enqueue), but moodycamel's dequeue may still fail
// while its view of the producer's tail is stale, so takers retry; that
// wait is bounded by the enqueue that is already complete becoming visible.

namespace strata::threading_internal {

namespace {

using task = moodycamel_pool::task;

// The same spin limit and poll spacing as strata::thread_pool
// (thread_pool.cc), so that the benchmark compares queues, not sleep
// policies.
constexpr std::chrono::microseconds kSpinTime{20};
constexpr int kPausesPerPoll = 2;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The idle word, as in thread_pool.cc: searching workers in the low 32 bits,
// parked workers in the high 32 bits.
constexpr std::uint64_t kOneSearching = 1;
constexpr std::uint64_t kOneParked = std::uint64_t{1} << 32;

constexpr std::uint32_t searching_of(std::uint64_t idle) noexcept {
  return static_cast<std::uint32_t>(idle);
}
constexpr std::uint32_t parked_of(std::uint64_t idle) noexcept {
  return static_cast<std::uint32_t>(idle >> 32);
}

inline std::uint32_t next_random(std::uint32_t& x) noexcept {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

class parker {
 public:
  void park() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return notified_; });
    notified_ = false;
  }
  void unpark() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      notified_ = true;
    }
    cv_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool notified_ = false;
};

// A moodycamel queue and the count of its unclaimed tasks ("How the pool
// sleeps"). The count sits on a line of its own: takers write it, while the
// queue's producer side is written by posters.
class counted_queue {
 public:
  // `producer` is the explicit producer's token, or null for the implicit
  // producer of the calling thread.
  void push(task&& t, moodycamel::ProducerToken* producer) {
    const bool queued = producer != nullptr
                            ? queue_.enqueue(*producer, std::move(t))
                            : queue_.enqueue(std::move(t));
    STRATA_CHECK(queued, "moodycamel_pool: out of memory for a queue block");
    unclaimed_.fetch_add(1, std::memory_order_seq_cst);
  }

  // Claims one task and dequeues it (through `producer` if not null, the
  // queue's only producer). False if no task was unclaimed.
  bool pop(task& out, const moodycamel::ProducerToken* producer) {
    if (!try_claim()) return false;
    while (!(producer != nullptr
                 ? queue_.try_dequeue_from_producer(*producer, out)
                 : queue_.try_dequeue(out))) {
      cpu_relax();
    }
    return true;
  }

  bool looks_empty() const noexcept {
    return unclaimed_.load(std::memory_order_relaxed) == 0;
  }

  // The sleepers' re-check (C in "How the pool sleeps").
  bool empty_now() const noexcept {
    return unclaimed_.load(std::memory_order_seq_cst) == 0;
  }

  moodycamel::ConcurrentQueue<task>& queue() noexcept { return queue_; }

 private:
  bool try_claim() noexcept {
    std::size_t n = unclaimed_.load(std::memory_order_relaxed);
    while (n != 0) {
      // Acquire: the increment consumed follows an enqueue, which this
      // thread's dequeue must see.
      if (unclaimed_.compare_exchange_weak(n, n - 1, std::memory_order_acq_rel,
                                           std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

  moodycamel::ConcurrentQueue<task> queue_;
  alignas(64) std::atomic<std::size_t> unclaimed_{0};
};

// One worker's queue, its producer token (made here, before the worker
// starts, then used for enqueues by the worker alone and read by every
// taker) and its parker, each on lines of its own.
struct alignas(64) worker_slot {
  worker_slot() : producer(tasks.queue()) {}
  counted_queue tasks;
  moodycamel::ProducerToken producer;
  alignas(64) parker sleep;
};

void run_task(task& t) noexcept {
  try {
    t();
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "strata::threading_internal::moodycamel_pool: a posted task "
                 "threw: %s; terminating\n",
                 e.what());
    std::terminate();
  } catch (...) {
    std::fprintf(stderr,
                 "strata::threading_internal::moodycamel_pool: a posted task "
                 "threw a non-std::exception; terminating\n");
    std::terminate();
  }
  t = nullptr;
}

thread_local std::uint32_t non_worker_random = 0x9e3779b9u;

}  // namespace

struct moodycamel_pool::worker_context {
  moodycamel_pool* pool;
  std::size_t index;
  std::uint32_t random;
};

thread_local moodycamel_pool::worker_context* moodycamel_pool::current_worker_ =
    nullptr;

struct moodycamel_pool::state {
  enum class park_result { woken, work, stop };

  explicit state(std::size_t worker_count)
      : slots(std::make_unique<worker_slot[]>(worker_count)),
        slot_count(worker_count),
        max_searching(static_cast<std::uint32_t>(
            std::max<std::size_t>(1, std::min(worker_count, cores()) / 2))),
        yield_while_spinning(worker_count + 1 > cores()) {
    sleepers.reserve(worker_count);
  }

  static std::size_t cores() noexcept {
    return std::max(1u, std::thread::hardware_concurrency());
  }

  // ---- Finding work. -------------------------------------------------------

  bool find_task(worker_context* self, task& out) {
    if (self != nullptr) {
      worker_slot& own = slots[self->index];
      if (own.tasks.pop(out, &own.producer)) return true;
    }
    if (injection.pop(out, nullptr)) return true;
    return self != nullptr ? steal(self->index, self->random, out)
                           : steal(slot_count, non_worker_random, out);
  }

  bool steal(std::size_t self, std::uint32_t& random, task& out) {
    if (slot_count == 0) return false;
    const std::size_t start = next_random(random) % slot_count;
    for (std::size_t k = 0; k < slot_count; ++k) {
      const std::size_t v = (start + k) % slot_count;
      worker_slot& victim = slots[v];
      if (v != self && !victim.tasks.looks_empty() &&
          victim.tasks.pop(out, &victim.producer)) {
        return true;
      }
    }
    return false;
  }

  bool has_task_now() const noexcept {
    if (!injection.empty_now()) return true;
    for (std::size_t i = 0; i < slot_count; ++i) {
      if (!slots[i].tasks.empty_now()) return true;
    }
    return false;
  }

  bool has_task_hint() const noexcept {
    if (!injection.looks_empty()) return true;
    for (std::size_t i = 0; i < slot_count; ++i) {
      if (!slots[i].tasks.looks_empty()) return true;
    }
    return false;
  }

  // ---- Posting. ------------------------------------------------------------

  // L of "How the pool sleeps", for both kinds of sleepers.
  void wake_for_new_task() {
    const std::uint64_t now = idle.load(std::memory_order_seq_cst);
    if (searching_of(now) == 0 && parked_of(now) != 0) wake_one_worker();
    if (sleeping_helpers.load(std::memory_order_seq_cst) != 0) {
      notify_helpers();
    }
  }

  void wake_one_worker() {
    std::uint32_t worker;
    {
      std::lock_guard<std::mutex> lock(idle_mutex);
      const std::uint64_t now = idle.load(std::memory_order_relaxed);
      if (searching_of(now) != 0 || sleepers.empty()) return;
      worker = sleepers.back();
      sleepers.pop_back();
      idle.fetch_add(kOneSearching - kOneParked, std::memory_order_seq_cst);
    }
    slots[worker].sleep.unpark();
  }

  void notify_helpers() {
    { std::lock_guard<std::mutex> lock(helper_mutex); }
    helper_cv.notify_all();
  }

  // ---- A worker running dry (thread_pool.cc's rules). ----------------------

  bool try_start_searching() {
    std::uint64_t now = idle.load(std::memory_order_relaxed);
    do {
      if (searching_of(now) >= max_searching) return false;
    } while (!idle.compare_exchange_weak(now, now + kOneSearching,
                                         std::memory_order_seq_cst,
                                         std::memory_order_relaxed));
    return true;
  }

  void stop_searching() {
    const std::uint64_t before =
        idle.fetch_sub(kOneSearching, std::memory_order_seq_cst);
    if (searching_of(before) == 1 && parked_of(before) != 0) {
      wake_one_worker();
    }
  }

  template <typename Found>
  bool spin_until(Found found) {
    const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
    for (;;) {
      for (int i = 0; i < kPausesPerPoll; ++i) cpu_relax();
      if (yield_while_spinning) std::this_thread::yield();
      if (found()) return true;
      if (stopping.load(std::memory_order_relaxed) ||
          std::chrono::steady_clock::now() >= deadline) {
        return false;
      }
    }
  }

  park_result park(worker_context& self, bool& searching) {
    const auto index = static_cast<std::uint32_t>(self.index);
    {
      // R of "How the pool sleeps".
      std::lock_guard<std::mutex> lock(idle_mutex);
      sleepers.push_back(index);
      idle.fetch_add(kOneParked - (searching ? kOneSearching : 0),
                     std::memory_order_seq_cst);
    }
    searching = false;
    const bool work = has_task_now();
    if (!work && !stopping.load(std::memory_order_acquire)) {
      slots[index].sleep.park();
      searching = true;  // wake_one_worker counted this worker searching.
      return park_result::woken;
    }
    if (!unregister_sleeper(index)) {
      slots[index].sleep.park();  // A waker's unpark is on its way.
      searching = true;
    }
    if (work) return park_result::work;
    if (searching) {
      searching = false;
      stop_searching();
    }
    return park_result::stop;
  }

  bool unregister_sleeper(std::uint32_t index) {
    std::lock_guard<std::mutex> lock(idle_mutex);
    const auto it = std::find(sleepers.begin(), sleepers.end(), index);
    if (it == sleepers.end()) return false;
    *it = sleepers.back();
    sleepers.pop_back();
    idle.fetch_sub(kOneParked, std::memory_order_seq_cst);
    return true;
  }

  void stop_workers() {
    stopping.store(true, std::memory_order_release);
    std::vector<std::uint32_t> woken;
    {
      std::lock_guard<std::mutex> lock(idle_mutex);
      woken.swap(sleepers);
      idle.fetch_add((kOneSearching - kOneParked) * woken.size(),
                     std::memory_order_seq_cst);
    }
    for (std::uint32_t w : woken) slots[w].sleep.unpark();
  }

  std::unique_ptr<worker_slot[]> slots;
  const std::size_t slot_count;
  const std::uint32_t max_searching;
  const bool yield_while_spinning;
  counted_queue injection;

  alignas(64) std::atomic<std::uint64_t> idle{0};
  alignas(64) std::atomic<std::size_t> sleeping_helpers{0};
  std::atomic<bool> stopping{false};

  alignas(64) std::mutex idle_mutex;
  std::vector<std::uint32_t> sleepers;

  std::mutex helper_mutex;
  std::condition_variable helper_cv;
  std::vector<std::thread> workers;
};

moodycamel_pool::moodycamel_pool(std::size_t workers)
    : state_(std::make_unique<state>(workers)), worker_count_(workers) {
  state_->workers.reserve(workers);
  try {
    for (std::size_t i = 0; i < workers; ++i) {
      state_->workers.emplace_back([this, i] { worker_main(i); });
    }
  } catch (...) {
    stop_and_join_workers();
    throw;
  }
}

moodycamel_pool::~moodycamel_pool() {
  STRATA_CHECK(!on_worker_thread(),
               "a moodycamel_pool must not be destroyed by one of its tasks");
  stop_and_join_workers();
  // Workers leave only after finding every count zero; what tasks run here
  // post goes to the injection queue and is run by this same loop.
  while (try_run_one()) {
  }
}

void moodycamel_pool::stop_and_join_workers() noexcept {
  state_->stop_workers();
  for (std::thread& worker : state_->workers) worker.join();
  state_->workers.clear();
}

moodycamel_pool::worker_context* moodycamel_pool::own_worker() const noexcept {
  worker_context* const self = current_worker_;
  return self != nullptr && self->pool == this ? self : nullptr;
}

bool moodycamel_pool::on_worker_thread() const noexcept {
  return own_worker() != nullptr;
}

void moodycamel_pool::worker_main(std::size_t index) {
  state& s = *state_;
  worker_context self{this, index, static_cast<std::uint32_t>(index) + 1};
  current_worker_ = &self;
  bool searching = false;
  task t;
  for (;;) {
    if (!s.find_task(&self, t)) {
      if (!searching) searching = s.try_start_searching();
      if (!searching || !s.spin_until([&] { return s.find_task(&self, t); })) {
        if (s.park(self, searching) == state::park_result::stop) break;
        continue;
      }
    }
    if (searching) {
      searching = false;
      s.stop_searching();
    }
    run_task(t);
  }
  current_worker_ = nullptr;
}

void moodycamel_pool::post(task t) {
  STRATA_CHECK(t != nullptr, "moodycamel_pool::post needs a non-empty task");
  state& s = *state_;
  if (worker_context* const self = own_worker(); self != nullptr) {
    worker_slot& own = s.slots[self->index];
    own.tasks.push(std::move(t), &own.producer);
  } else {
    s.injection.push(std::move(t), nullptr);
  }
  s.wake_for_new_task();
}

bool moodycamel_pool::try_run_one() {
  task t;
  if (!state_->find_task(own_worker(), t)) return false;
  run_task(t);
  return true;
}

void moodycamel_pool::wake_helpers() {
  // As in thread_pool.cc: a read-modify-write, so that the count reaching
  // zero and a helper's registration are totally ordered.
  if (state_->sleeping_helpers.fetch_add(0, std::memory_order_seq_cst) == 0) {
    return;
  }
  state_->notify_helpers();
}

void moodycamel_pool::help_until_zero(const std::atomic<std::size_t>& pending) {
  state& s = *state_;
  while (pending.load(std::memory_order_acquire) != 0) {
    if (try_run_one()) continue;
    if (s.spin_until([&] {
          return pending.load(std::memory_order_acquire) == 0 ||
                 s.has_task_hint();
        })) {
      continue;
    }
    std::unique_lock<std::mutex> lock(s.helper_mutex);
    // R of "How the pool sleeps" for a helper; the wait's predicate is C.
    s.sleeping_helpers.fetch_add(1, std::memory_order_seq_cst);
    s.helper_cv.wait(lock, [&] {
      return pending.load(std::memory_order_acquire) == 0 || s.has_task_now();
    });
    s.sleeping_helpers.fetch_sub(1, std::memory_order_relaxed);
  }
}

}  // namespace strata::threading_internal
