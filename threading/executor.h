// strata::executor: the interface through which Strata runs its work on an
// engine's own job system instead of its own worker threads.
//
// Engines have one job system and want every thread it owns to be the only
// threads doing work; a library that starts its own pool fights it for the
// cores. An executor lends Strata threads:
//
//   class my_executor final : public strata::executor {
//    public:
//     std::size_t concurrency() const noexcept override { return 7; }
//     void post(strata::executor::job j, std::size_t count) override {
//       for (std::size_t i = 0; i < count; ++i) engine_jobs.push(j);
//     }
//   };
//   my_executor jobs;
//   auto ctx = strata::make_context(settings, strata::run_on(jobs));
//
// Contract
//   * post(j, count) must, eventually, call j.fn(j.arg) `count` times, each
//     on any thread the executor likes, possibly several at once. It must not
//     wait for those calls: it may run them before returning only if that
//     is how the executor runs everything (an inline executor makes the
//     context sequential; correct, but with no parallelism).
//   * A job never blocks for long: it runs at most one of Strata's queued
//     tasks (a system or a subtask) and returns; if another thread already
//     took that task, it returns at once. So the executor needs no "wait"
//     and no work stealing of its own: threads that wait for Strata's work
//     (the thread calling ctx.step(), a system waiting for its subtasks) run
//     Strata's queued tasks themselves meanwhile, so nested waits cannot
//     deadlock even if the executor runs no job at all until the step ends.
//   * concurrency(): how many of the executor's threads may run jobs at the
//     same time as the calling thread. It sizes inner parallelism (a context
//     on an executor splits work for concurrency() + 1 threads) and the
//     hand-off decisions; it is read once, when the context is made.
//   * Lifetime: the executor must outlive the context. Destroying the context
//     waits until every job it posted has been called and has returned.
//   * Thread-safety: post() may be called from any thread, including from
//     inside a job, concurrently.
//
// Cost: one post(j, 1) per task Strata hands off (a step run inline, see
// scheduler/hand_off.h, posts nothing); a job is two words, so posting need
// not allocate.
#ifndef STRATA_THREADING_EXECUTOR_H_
#define STRATA_THREADING_EXECUTOR_H_

#include <cstddef>

namespace strata {

class executor {
 public:
  // One unit of work to run: fn(arg).
  struct job {
    void (*fn)(void*);
    void* arg;
    void operator()() const { fn(arg); }
  };

  virtual ~executor() = default;

  // Threads that may run jobs concurrently with the caller of ctx.step().
  virtual std::size_t concurrency() const noexcept = 0;

  // Calls j.fn(j.arg) `count` times, on the executor's threads, without
  // waiting for them. See the contract above.
  virtual void post(job j, std::size_t count) = 0;
};

}  // namespace strata

#endif  // STRATA_THREADING_EXECUTOR_H_
