#include "scheduler/atomic_counter.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>

#include "base/check.h"

namespace strata::scheduler::atomic_counter_internal {

scheduler_internal::step_decision rank_and_decide(
    const scheduler_internal::call_table& table, const std::int64_t* predicted,
    hand_off_policy policy, std::int64_t* rank) {
  std::int64_t total = 0;
  std::int64_t critical = 0;
  for (std::size_t k = table.count; k-- > 0;) {
    const std::size_t i = table.topological_order[k];
    rank[i] = 0;
    if (!table.selected[i]) continue;
    std::int64_t after = 0;  // dependents of a selected system are selected
    for (std::size_t d = table.dependent_offsets[i];
         d < table.dependent_offsets[i + 1]; ++d) {
      after = std::max(after, rank[table.dependents[d]]);
    }
    const std::int64_t own = std::max<std::int64_t>(predicted[i], 0);
    rank[i] = own + after;
    total += own;
    critical = std::max(critical, rank[i]);
  }
  scheduler_internal::step_decision decision;
  decision.off_critical_ns = total - critical;
  decision.used_pool = policy.worth_threads(decision.off_critical_ns);
  return decision;
}

pool_run::pool_run(thread_pool& pool,
                   const scheduler_internal::call_table& table,
                   run_function run_system, const std::int64_t* predicted,
                   hand_off_policy policy, const std::int64_t* rank,
                   counter* counters, node* nodes, std::exception_ptr* errors,
                   std::size_t* ready, chain_function run_chain_with)
    : table_(table),
      run_system_(run_system),
      predicted_(predicted),
      policy_(policy),
      group_(pool),
      counters_(counters),
      nodes_(nodes),
      errors_(errors),
      ready_(ready),
      run_chain_with_(run_chain_with),
      rank_(rank) {
  for (std::size_t i = 0; i < table.count; ++i) {
    nodes_[i] = node{this, i};
    counters_[i].remaining.store(table.dependency_counts[i],
                                 base_internal::memory_order::relaxed);
  }
}

// The start set is fixed at compile time, before anything runs: once a
// system runs it decrements its dependents, and one reaching zero here
// would start twice. The caller keeps the start on the longest predicted
// path (and every one not worth a hand-off) and posts the others before
// running its own.
void pool_run::run_all() {
  std::size_t ready_count = 0;
  for (std::size_t i = 0; i < table_.count; ++i) {
    if (table_.starts[i]) ready_[ready_count++] = i;
  }
  const std::size_t kept = keep_or_post(ready_, ready_count);
  for (std::size_t k = kept; k-- > 0;) run_chain_with_(*this, ready_[k]);
  group_.wait();
  for (std::size_t i = 0; i < table_.count; ++i) {
    if (errors_[i]) std::rethrow_exception(errors_[i]);
  }
  STRATA_DCHECK(
      ran_.load(base_internal::memory_order::relaxed) == table_.expected,
      "atomic_counter: the systems that ran are not the chain");
}

void pool_run::post(std::size_t id) {
  node* self = &nodes_[id];
  group_.run([self] { self->run->run_chain_with_(*self->run, self->id); });
}

// The work list holds the systems this chain still runs and, past them, the
// ones a finished system just made ready: all distinct systems that have
// not run, so one entry per system suffices.
void pool_run::run_chain(std::size_t first, std::size_t* todo) {
  std::size_t pending = 0;
  todo[pending++] = first;
  while (pending > 0) {
    const std::size_t id = todo[--pending];
    try {
      run_system_(id);
    } catch (...) {
      // Read by run_all() after group_.wait(), which orders it.
      errors_[id] = std::current_exception();
      continue;  // its dependents never start
    }
    ran_.fetch_add(1, base_internal::memory_order::relaxed);
    const std::size_t ready_count = finish(id, &todo[pending]);
    pending += keep_or_post(&todo[pending], ready_count);
  }
}

// Decrements the counters of `id`'s dependents (all selected: the selection
// is closed under dependents); writes those it made ready to `ready` and
// returns how many. The decrement is acq_rel: a dependent starts after its
// dependencies' writes.
std::size_t pool_run::finish(std::size_t id, std::size_t* ready) {
  std::size_t ready_count = 0;
  const std::size_t* const end =
      table_.dependents + table_.dependent_offsets[id + 1];
  for (const std::size_t* dependent =
           table_.dependents + table_.dependent_offsets[id];
       dependent != end; ++dependent) {
    if (counters_[*dependent].remaining.fetch_sub(
            1, base_internal::memory_order::acq_rel) == 1) {
      ready[ready_count++] = *dependent;
    }
  }
  return ready_count;
}

// Longest predicted path first; ties by id (deterministic).
bool pool_run::goes_before(std::size_t a, std::size_t b) const {
  return rank_[a] != rank_[b] ? rank_[a] > rank_[b] : a < b;
}

// Of `count` ready systems, keeps at the front of `ready` (returns how
// many) the one on the longest predicted path and every one not worth a
// hand-off, and posts the others, longest path first, so that the critical
// path never waits behind cheap work.
std::size_t pool_run::keep_or_post(std::size_t* ready, std::size_t count) {
  sort_longest_path_first(ready, count);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < count; ++k) {
    if (k == 0 || !policy_.worth_handing_off(predicted_[ready[k]])) {
      ready[kept++] = ready[k];
    } else {
      post(ready[k]);
    }
  }
  // run_chain pops from the back: the longest path goes last.
  std::reverse(ready, ready + kept);
  return kept;
}

// Insertion sort: a handful of systems.
void pool_run::sort_longest_path_first(std::size_t* ready,
                                       std::size_t count) const {
  for (std::size_t i = 1; i < count; ++i) {
    const std::size_t id = ready[i];
    std::size_t j = i;
    for (; j > 0 && goes_before(id, ready[j - 1]); --j) {
      ready[j] = ready[j - 1];
    }
    ready[j] = id;
  }
}

}  // namespace strata::scheduler::atomic_counter_internal
