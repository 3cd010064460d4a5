// Test-only: turns a hang into a failure. run_with_timeout(limit, what, f)
// runs f on a fresh thread; if f has not returned after `limit`, it prints
// what hung and ends the process with a failing exit status (a deadlocked
// thread cannot be cancelled, so the test binary cannot continue). An
// exception thrown by f is rethrown on the calling thread.
//
// Uses only std::mutex/std::condition_variable (not std::future) so that
// ThreadSanitizer sees all of its synchronization.
#ifndef STRATA_TESTING_TIMEOUT_H_
#define STRATA_TESTING_TIMEOUT_H_

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

namespace strata::testing {

template <typename F>
void run_with_timeout(std::chrono::seconds limit, const char* what, F&& f) {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  std::thread runner([&] {
    try {
      f();
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    cv.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    if (!cv.wait_for(lock, limit, [&] { return done; })) {
      std::fprintf(stderr, "FAILED: %s did not finish within %lld s (hang)\n",
                   what, static_cast<long long>(limit.count()));
      std::fflush(stderr);
      std::_Exit(1);
    }
  }
  runner.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace strata::testing

#endif  // STRATA_TESTING_TIMEOUT_H_
