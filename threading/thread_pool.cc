#include "threading/thread_pool.h"

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
#include "threading/internal/task_queue.h"

// How the pool sleeps without losing a wake-up
// ============================================
// Two kinds of sleepers: parked workers (each on a condition variable of its
// own, listed in state::sleepers) and helpers (threads in help_until_zero,
// all on state::helper_cv). Both follow "register, then look for work, then
// sleep"; post() does "publish, then look for sleepers". For one of the two
// to see the other, the look of each must be ordered after the other's
// write. The existing discipline avoids fences (ThreadSanitizer cannot model
// them and GCC rejects std::atomic_thread_fence under -fsanitize=thread
// with -Werror); here the queue's mutex does the ordering:
//
//   * A sleeper registers with a read-modify-write R (the idle word or
//     sleeping_helpers), then looks at every queue UNDER ITS LOCK
//     (has_task_now()).
//   * A poster pushes under the queue's lock, then loads the word (relaxed).
//
// Take the queue q the task went to. The two lock sections on q are ordered.
// If the sleeper's comes second, it sees the task and does not sleep. If the
// poster's comes second, then R -> sleeper's unlock of q -> poster's lock of
// q -> poster's load is a happens-before chain, so the load returns R's value
// or a later one (write-read coherence): the poster sees the sleeper
// registered (it stays counted until it is woken) and wakes it. Either way
// the task is not left behind with a sleeper that missed it. The price is
// paid by the sleeper (one lock per queue before it sleeps), not by post(),
// which stays free of pool-wide read-modify-writes.
//
// For parked workers post() wakes one only if none is searching. That is
// safe because a searching worker counted in the value post() read changes
// the idle word only after that value: it either parks (and its R plus
// has_task_now() are ordered as above, so it sees the task) or finds work,
// and a searcher that finds work while being the last one wakes a parked
// worker in its place (stop_searching), which then searches or parks in turn.
// This is the protocol of Go's and Tokio's schedulers, with a mutex in place
// of their sequentially consistent operations.

namespace strata {

namespace {

using ::strata::threading_internal::task_queue;

// How long a worker that ran dry keeps polling for work before it parks.
// Long enough that back-to-back systems of one step, and the parallel_for
// right after a post, reach a worker that is still awake (a futex wake-up
// costs the poster a system call and the task a scheduler wake-up); short
// enough that the CPU burnt after the last task of a step is
// noise. Measured in thread_pool_benchmark (HandOff/*, Idle/*).
constexpr std::chrono::microseconds kSpinTime{20};

// One poll per this many pause instructions. A pause is long on recent x86
// cores, so many pauses per poll delay the moment a spinning worker sees a
// posted task (HandOff_Pool_Spinning in thread_pool_benchmark). A poll only
// reads queue hints that stay in cache until someone posts.
constexpr int kPausesPerPoll = 2;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The idle word: how many workers are searching (spinning for work, low 32
// bits) and how many are parked (high 32 bits). Parked equals
// state::sleepers.size() whenever idle_mutex is free; the copy here is what
// post() reads without the mutex.
constexpr std::uint64_t kOneSearching = 1;
constexpr std::uint64_t kOneParked = std::uint64_t{1} << 32;

constexpr std::uint32_t searching_of(std::uint64_t idle) noexcept {
  return static_cast<std::uint32_t>(idle);
}
constexpr std::uint32_t parked_of(std::uint64_t idle) noexcept {
  return static_cast<std::uint32_t>(idle >> 32);
}

// xorshift32: the first victim a thief tries. Seeded per worker (from its
// index, so runs are repeatable) and per non-worker thread.
inline std::uint32_t next_random(std::uint32_t& x) noexcept {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

// Where one worker sleeps: a flag under a mutex and a condition variable of
// its own, so a wake-up reaches exactly the worker chosen.
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

// One worker's state. Its queue and its parker are each aligned to their own
// cache lines: thieves touch the queue, wakers the parker, and no two workers
// share a line.
struct alignas(64) worker_slot {
  task_queue queue;
  alignas(64) parker sleep;
};

// Runs t and releases its captures right away (they may own resources the
// poster waits for, and a worker may otherwise sit on them until its next
// task).
void run_task(thread_pool::task& t) noexcept {
  try {
    t();
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "strata::thread_pool: a task passed to post() threw: %s "
                 "(use task_group to propagate exceptions); terminating\n",
                 e.what());
    std::terminate();
  } catch (...) {
    std::fprintf(stderr,
                 "strata::thread_pool: a task passed to post() threw a "
                 "non-std::exception (use task_group to propagate "
                 "exceptions); terminating\n");
    std::terminate();
  }
  t = nullptr;
}

}  // namespace

// Per-worker-thread state, found through current_worker_.
struct thread_pool::worker_context {
  thread_pool* pool;
  std::size_t index;
  std::uint32_t random;  // Victim choice (next_random).
};

thread_local thread_pool::worker_context* thread_pool::current_worker_ =
    nullptr;

namespace {

// Victim choice of threads that are not workers of the pool they steal from.
thread_local std::uint32_t non_worker_random = 0x9e3779b9u;

}  // namespace

struct thread_pool::state {
  using task = thread_pool::task;
  enum class park_result { woken, work, stop };

  explicit state(std::size_t worker_count)
      : slots(std::make_unique<worker_slot[]>(worker_count)),
        slot_count(worker_count),
        max_searching(searching_cap(worker_count)),
        yield_while_spinning(worker_count + 1 > cores()) {
    sleepers.reserve(worker_count);  // No allocation when a worker parks.
  }

  // Go's and Tokio's rule of half the workers, and never more than half the
  // cores: a spinner beyond the cores only delays the threads with work.
  static std::uint32_t searching_cap(std::size_t workers) noexcept {
    return static_cast<std::uint32_t>(
        std::max<std::size_t>(1, std::min(workers, cores()) / 2));
  }

  static std::size_t cores() noexcept {
    return std::max(1u, std::thread::hardware_concurrency());
  }

  // ---- Finding work. -------------------------------------------------------

  // Own queue, then the injection queue, then the other workers' queues.
  // Not `patient`: queues that look empty or are busy are skipped (a
  // searching worker polls again soon). `patient`: every queue that may
  // hold a task is locked, so false means each was empty when looked at.
  bool find_task(worker_context* self, task& out, bool patient) {
    if (self != nullptr) {
      task_queue& own = slots[self->index].queue;
      // Only this thread pushes here, so an empty hint is exact for it.
      if (!own.looks_empty() && own.pop(out)) return true;
    }
    if ((patient || !injection.looks_empty()) && injection.pop(out)) {
      return true;
    }
    return self != nullptr ? steal(self->index, self->random, out, patient)
                           : steal(slot_count, non_worker_random, out, patient);
  }

  // Takes the oldest task of another worker's queue, trying victims from a
  // random start. A busy victim is skipped at first (its owner is pushing or
  // another thief is in it); when `patient`, the busy ones are then waited
  // for and looked at again.
  bool steal(std::size_t self, std::uint32_t& random, task& out, bool patient) {
    if (slot_count == 0) return false;
    const std::size_t start = next_random(random) % slot_count;
    bool contended = false;
    for (std::size_t k = 0; k < slot_count; ++k) {
      task_queue& victim = slots[(start + k) % slot_count].queue;
      if ((start + k) % slot_count == self || victim.looks_empty()) continue;
      switch (victim.try_pop(out)) {
        case task_queue::pop_result::taken:
          return true;
        case task_queue::pop_result::contended:
          contended = true;
          break;
        case task_queue::pop_result::empty:
          break;
      }
    }
    if (!patient || !contended) return false;
    for (std::size_t k = 0; k < slot_count; ++k) {
      task_queue& victim = slots[(start + k) % slot_count].queue;
      if ((start + k) % slot_count != self && !victim.looks_empty() &&
          victim.pop(out)) {
        return true;
      }
    }
    return false;
  }

  // Exact at some moment during the call: every queue is locked in turn.
  // The re-check of every sleeper ("How the pool sleeps").
  bool has_task_now() const {
    if (!injection.empty_now()) return true;
    for (std::size_t i = 0; i < slot_count; ++i) {
      if (!slots[i].queue.empty_now()) return true;
    }
    return false;
  }

  // Cheap and possibly stale: each queue's hint.
  bool has_task_hint() const noexcept {
    if (!injection.looks_empty()) return true;
    for (std::size_t i = 0; i < slot_count; ++i) {
      if (!slots[i].queue.looks_empty()) return true;
    }
    return false;
  }

  // ---- Posting. ------------------------------------------------------------

  // Called right after a push: the publication, done under the queue's
  // lock, comes first, so plain loads suffice ("How the pool sleeps").
  void wake_for_new_task() {
    const std::uint64_t now = idle.load(std::memory_order_relaxed);
    if (searching_of(now) == 0 && parked_of(now) != 0) wake_one_worker();
    if (sleeping_helpers.load(std::memory_order_relaxed) != 0) {
      notify_helpers();
    }
  }

  // Wakes the most recently parked worker (the likeliest to be cache-warm),
  // counting it as searching, unless a worker is searching by now: the
  // check is repeated under the mutex, so a burst of posts wakes one worker,
  // not one per post. Skipping is safe for the reason given at the top of
  // this file.
  void wake_one_worker() {
    std::uint32_t worker;
    {
      std::lock_guard<std::mutex> lock(idle_mutex);
      const std::uint64_t now = idle.load(std::memory_order_relaxed);
      if (searching_of(now) != 0 || sleepers.empty()) return;
      worker = sleepers.back();
      sleepers.pop_back();
      idle.fetch_add(kOneSearching - kOneParked, std::memory_order_acq_rel);
    }
    slots[worker].sleep.unpark();
  }

  void notify_helpers() {
    // A registered helper holds the mutex from registering until it sleeps,
    // so taking it here guarantees the helper is asleep (or already gone)
    // before the notification.
    { std::lock_guard<std::mutex> lock(helper_mutex); }
    helper_cv.notify_all();
  }

  // ---- A worker running dry. -----------------------------------------------

  bool try_start_searching() {
    std::uint64_t now = idle.load(std::memory_order_relaxed);
    do {
      if (searching_of(now) >= max_searching) return false;
    } while (!idle.compare_exchange_weak(now, now + kOneSearching,
                                         std::memory_order_acq_rel,
                                         std::memory_order_relaxed));
    return true;
  }

  // A searcher stops searching (it found work, or is leaving). If it was
  // the last one, posts that counted on it (they woke nobody) may have left
  // tasks: a parked worker searches in its place.
  void stop_searching() {
    const std::uint64_t before =
        idle.fetch_sub(kOneSearching, std::memory_order_acq_rel);
    if (searching_of(before) == 1 && parked_of(before) != 0) {
      wake_one_worker();
    }
  }

  // Polls `found` every kPausesPerPoll pauses until it returns true, the
  // pool stops, or kSpinTime has passed (measured on the steady clock, so
  // the bound holds whatever the machine's speed). True if found.
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

  // A worker that ran dry polls for a task.
  bool spin_for_task(worker_context& self, task& out) {
    return spin_until([&] { return find_task(&self, out, /*patient=*/false); });
  }

  // A helper's spin (help_until_zero): polls until the group is done or a
  // task is queued. The last subtask of a split system usually finishes
  // within microseconds of the caller's own; sleeping on the condition
  // variable instead costs the finishing thread a futex wake and the
  // caller a wake-up latency on the step's critical path (JoinLatency/* in
  // thread_pool_benchmark). (A task still running while the pool stops
  // that waits on a group skips the spin and sleeps.)
  bool spin_until_done_or_task(
      const base_internal::atomic_value<std::size_t>& pending) {
    return spin_until([&] {
      return pending.load(base_internal::memory_order::acquire) == 0 ||
             has_task_hint();
    });
  }

  // Registers as parked, re-checks every queue under its lock and sleeps if
  // all are empty. `searching` is this worker's searching flag, updated to
  // match the idle word on return.
  park_result park(worker_context& self, bool& searching) {
    const auto index = static_cast<std::uint32_t>(self.index);
    {
      // R of "How the pool sleeps": register, then look (has_task_now).
      std::lock_guard<std::mutex> lock(idle_mutex);
      sleepers.push_back(index);
      idle.fetch_add(kOneParked - (searching ? kOneSearching : 0),
                     std::memory_order_acq_rel);
    }
    searching = false;
    const bool work = has_task_now();
    if (!work && !stopping.load(std::memory_order_acquire)) {
      slots[index].sleep.park();
      searching = true;  // wake_one_worker counted this worker searching.
      return park_result::woken;
    }
    if (!unregister_sleeper(index)) {
      // A waker took this worker off the list (and counted it searching)
      // first: take its wake-up, which is on its way.
      slots[index].sleep.park();
      searching = true;
    }
    if (work) return park_result::work;
    if (searching) {
      searching = false;
      stop_searching();
    }
    return park_result::stop;
  }

  // Takes a worker that found work during its re-check off the sleepers;
  // false if a waker already did (and will unpark it).
  bool unregister_sleeper(std::uint32_t index) {
    std::lock_guard<std::mutex> lock(idle_mutex);
    const auto it = std::find(sleepers.begin(), sleepers.end(), index);
    if (it == sleepers.end()) return false;
    *it = sleepers.back();
    sleepers.pop_back();
    idle.fetch_sub(kOneParked, std::memory_order_acq_rel);
    return true;
  }

  // A worker that registers as parked after this took the sleepers does so
  // under idle_mutex, after this thread released it, so it reads `stopping`
  // as true in its re-check and leaves instead of sleeping.
  void stop_workers() {
    stopping.store(true, std::memory_order_release);
    std::vector<std::uint32_t> woken;
    {
      std::lock_guard<std::mutex> lock(idle_mutex);
      woken.swap(sleepers);
      idle.fetch_add((kOneSearching - kOneParked) * woken.size(),
                     std::memory_order_acq_rel);
    }
    for (std::uint32_t w : woken) slots[w].sleep.unpark();
  }

  std::unique_ptr<worker_slot[]> slots;
  const std::size_t slot_count;
  const std::uint32_t max_searching;
  // True when the pool has more threads (workers and one caller) than the
  // machine has cores: then the core a spinner holds may be wanted by one of
  // the pool's own threads with work, and each poll ends in a sched_yield.
  // Not otherwise: a yield after every poll hands the core to whatever else
  // is runnable (the spinning poster, another process) for up to a time
  // slice, which makes a hand-off to a spinning worker take a time slice
  // instead of a poll (thread_pool_benchmark, HandOff/Pool_Spinning).
  const bool yield_while_spinning;
  task_queue injection;

  // Read by every post(); written when a worker starts or stops searching,
  // parks or is woken.
  alignas(64) std::atomic<std::uint64_t> idle{0};
  // Read by every post(); written when a helper goes to sleep or wakes.
  alignas(64) std::atomic<std::size_t> sleeping_helpers{0};
  std::atomic<bool> stopping{false};

  // Guards sleepers, and is held whenever the idle word's parked count
  // changes, so that the two agree.
  alignas(64) std::mutex idle_mutex;
  std::vector<std::uint32_t> sleepers;

  // Helpers (threads in help_until_zero) sleep on this condition variable.
  std::mutex helper_mutex;
  std::condition_variable helper_cv;

  std::mutex external_mutex;
  std::condition_variable external_cv;
  std::vector<std::thread> workers;
};

std::size_t thread_pool::default_worker_count() noexcept {
  return std::thread::hardware_concurrency();
}

thread_pool::thread_pool(std::size_t workers)
    : state_(base_internal::make_owned<state>(workers)),
      worker_count_(workers) {
  state_->workers.reserve(workers);
  try {
    for (std::size_t i = 0; i < workers; ++i) {
      state_->workers.emplace_back([this, i] { worker_main(i); });
    }
  } catch (...) {
    // The destructor will not run; stop the workers that did start.
    stop_and_join_workers();
    throw;
  }
}

thread_pool::thread_pool(executor& external) : thread_pool(0, &external) {}

thread_pool::thread_pool(std::size_t workers, executor* external)
    : thread_pool(external != nullptr ? 0 : workers) {
  if (external != nullptr) {
    external_ = external;
    worker_count_ = external->concurrency();
  }
}

thread_pool::~thread_pool() {
  STRATA_CHECK(!on_worker_thread(),
               "a thread_pool must not be destroyed by one of its own tasks");
  stop_and_join_workers();
  // Workers leave only after finding every queue empty, but tasks run here
  // may post (to the injection queue) or wait on groups; both end up in this
  // same loop. With an executor, its jobs may still be running tasks (which
  // may post more): repeat until no job is left and every queue is empty.
  for (;;) {
    while (try_run_one()) {
    }
    if (external_ == nullptr) break;
    wait_for_external_jobs();
    if (!state_->has_task_now()) break;
  }
}

void thread_pool::run_external_job(void* pool) {
  auto* self = static_cast<thread_pool*>(pool);
  self->try_run_one();
  // The decrement happens under the mutex so that the destructor, which
  // waits under it, cannot free the pool between the decrement and the
  // notification.
  std::lock_guard<std::mutex> lock(self->state_->external_mutex);
  if (self->external_jobs_.fetch_sub(1, base_internal::memory_order::acq_rel) ==
      1) {
    self->state_->external_cv.notify_all();
  }
}

void thread_pool::wait_for_external_jobs() {
  std::unique_lock<std::mutex> lock(state_->external_mutex);
  state_->external_cv.wait(lock, [&] {
    return external_jobs_.load(base_internal::memory_order::acquire) == 0;
  });
}

void thread_pool::stop_and_join_workers() noexcept {
  state_->stop_workers();
  for (std::thread& worker : state_->workers) worker.join();
  state_->workers.clear();
}

thread_pool::worker_context* thread_pool::own_worker() const noexcept {
  worker_context* const self = current_worker_;
  return self != nullptr && self->pool == this ? self : nullptr;
}

bool thread_pool::on_worker_thread() const noexcept {
  return own_worker() != nullptr;
}

void thread_pool::worker_main(std::size_t index) {
  state& s = *state_;
  worker_context self{this, index, static_cast<std::uint32_t>(index) + 1};
  current_worker_ = &self;
  // Whether this worker is counted in the idle word's searching field.
  bool searching = false;
  task t;
  for (;;) {
    if (!s.find_task(&self, t, /*patient=*/false)) {
      if (!searching) searching = s.try_start_searching();
      if (!searching || !s.spin_for_task(self, t)) {
        if (s.park(self, searching) == state::park_result::stop) break;
        continue;  // Woken (now searching), or work appeared: look again.
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

void thread_pool::post(task t) {
  STRATA_CHECK(t != nullptr, "thread_pool::post needs a non-empty task");
  state& s = *state_;
  worker_context* const self = own_worker();
  (self != nullptr ? s.slots[self->index].queue : s.injection)
      .push(std::move(t));
  s.wake_for_new_task();
  if (external_ != nullptr) {
    external_jobs_.fetch_add(1, base_internal::memory_order::relaxed);
    external_->post({&thread_pool::run_external_job, this}, 1);
  }
}

bool thread_pool::try_run_one() {
  task t;
  if (!state_->find_task(own_worker(), t, /*patient=*/true)) return false;
  run_task(t);
  return true;
}

void thread_pool::wake_helpers() {
  // A group's count reaching zero is not a push under a queue lock, so the
  // argument at the top of this file does not cover it. A read-modify-write
  // rather than a load: together with the one by which a helper registers,
  // it totally orders "publish, then look for sleepers" against "register,
  // then look at the count", so one of the two sides sees the other. (A
  // seq_cst fence would do the same, but ThreadSanitizer cannot model fences
  // and GCC rejects them under -fsanitize=thread.)
  if (state_->sleeping_helpers.fetch_add(0, std::memory_order_acq_rel) == 0) {
    return;
  }
  state_->notify_helpers();
}

void thread_pool::help_until_zero(
    const base_internal::atomic_value<std::size_t>& pending) {
  state& s = *state_;
  while (pending.load(base_internal::memory_order::acquire) != 0) {
    if (try_run_one()) continue;
    if (s.spin_until_done_or_task(pending)) continue;
    std::unique_lock<std::mutex> lock(s.helper_mutex);
    s.sleeping_helpers.fetch_add(1, std::memory_order_acq_rel);
    // Woken by post() and by wake_helpers(). A queue whose hint says it is
    // not empty is worth a try; otherwise every queue is locked
    // (has_task_now), the re-check that "How the pool sleeps" needs.
    s.helper_cv.wait(lock, [&] {
      return pending.load(base_internal::memory_order::acquire) == 0 ||
             s.has_task_hint() || s.has_task_now();
    });
    s.sleeping_helpers.fetch_sub(1, std::memory_order_relaxed);
  }
}

}  // namespace strata
