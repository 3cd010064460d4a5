// Trivial strata::executor implementations (threading/executor.h) standing
// in for an engine's job system in tests:
//   * threads_executor: n threads of its own fed by one mutex-guarded
//     deque, the simplest job system there is;
//   * inline_executor: runs every job inside post(), on the posting thread,
//     while claiming concurrency() threads (so Strata plans for parallelism
//     that never happens: a legal, if useless, executor).
// Both count the jobs they ran, so a test can tell the executor was used. A
// job is counted before it is called: a pool's destructor waits only until
// every job's call has returned, so a count taken after the call could still
// be missing the last job when the test reads it.
#ifndef STRATA_TESTING_EXECUTORS_H_
#define STRATA_TESTING_EXECUTORS_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "threading/executor.h"

namespace strata::testing {

class threads_executor final : public executor {
 public:
  explicit threads_executor(std::size_t threads) {
    for (std::size_t i = 0; i < threads; ++i) {
      threads_.emplace_back([this] { work(); });
    }
  }
  ~threads_executor() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  std::size_t concurrency() const noexcept override { return threads_.size(); }

  void post(job j, std::size_t count) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (std::size_t i = 0; i < count; ++i) jobs_.push_back(j);
    }
    ready_.notify_all();
  }

  std::size_t jobs_run() const { return jobs_run_.load(); }

 private:
  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ready_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left
      const job j = jobs_.front();
      jobs_.pop_front();
      lock.unlock();
      jobs_run_.fetch_add(1);
      j();
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<job> jobs_;
  bool stopping_ = false;
  std::atomic<std::size_t> jobs_run_{0};
  std::vector<std::thread> threads_;
};

class inline_executor final : public executor {
 public:
  explicit inline_executor(std::size_t claimed) : claimed_(claimed) {}
  std::size_t concurrency() const noexcept override { return claimed_; }
  void post(job j, std::size_t count) override {
    for (std::size_t i = 0; i < count; ++i) {
      jobs_run_.fetch_add(1);
      j();
    }
  }
  std::size_t jobs_run() const { return jobs_run_.load(); }

 private:
  std::size_t claimed_;
  std::atomic<std::size_t> jobs_run_{0};
};

}  // namespace strata::testing

#endif  // STRATA_TESTING_EXECUTORS_H_
