// A queue of deferred calls whose callables live in a reusable arena.
//
//   strata::deferred_queue<defer_proxy> queue;
//   queue.push([e, spawn = big_struct{}](defer_proxy& p) { ... });
//   std::exception_ptr error = queue.run_all(proxy);  // in push order
//
// Why not a vector of absl::AnyInvocable: AnyInvocable stores a callable
// inline only up to 16 bytes and allocates for anything larger, so a system
// that defers real work (a captured id plus a few floats) allocated once per
// call, every step. Here every callable is constructed in place in blocks of
// raw memory the queue keeps: once the queue has held a step's worth of
// calls, later steps of the same shape allocate nothing, whatever the capture
// sizes. There is no capture-size limit; a callable larger than a block gets
// a block of its own (kept for reuse like the others).
//
// Contract:
//   * push(f) constructs a decay_t<F> from f in the arena; F must be
//     invocable as f(Arg&) and not over-aligned (alignof <= max_align_t,
//     checked at compile time). If the construction throws, the queue is
//     unchanged.
//   * run_all(arg) calls every pending callable once, in push order, then
//     destroys all of them and empties the queue. A call that throws does
//     not stop the run: the remaining calls still run; run_all returns the
//     first exception (it does not rethrow), or null.
//   * clear() destroys the pending callables without running them. The
//     destructor does the same.
//
// The arena and the entry array are the same code for every argument type,
// compiled once (deferred_queue.cc, base/internal/trivial_vector.h); only
// push's construction and the calls are compiled per callable.
//
// Complexity: push amortized O(1) plus the callable's construction; run_all
// O(calls). Memory: the high-water mark of one step's callables (rounded up
// to 4 KiB blocks) plus one 24-byte entry per pending call.
//
// Thread-safety: none; one queue per subtask state, used by one thread at a
// time (the subtask while it runs, the refresh afterwards).
#ifndef STRATA_CONTEXT_DEFERRED_QUEUE_H_
#define STRATA_CONTEXT_DEFERRED_QUEUE_H_

#include <cstddef>
#include <exception>
#include <new>
#include <type_traits>
#include <utility>

#include "base/internal/standard_parts.h"
#include "base/internal/trivial_vector.h"

namespace strata {

namespace deferred_queue_internal {

// The blocks of raw memory the callables are built in, kept for reuse.
class arena {
 public:
  static constexpr std::size_t block_size = 4096;

  arena() = default;
  arena(arena&& other) noexcept
      : blocks_(std::move(other.blocks_)),
        block_(std::exchange(other.block_, 0)),
        offset_(std::exchange(other.offset_, 0)) {}
  arena& operator=(arena&& other) noexcept;
  arena(const arena&) = delete;
  arena& operator=(const arena&) = delete;
  ~arena();

  // Room for `size` bytes at `align` (at most max_align_t's): in the current
  // block if it fits, else in the next kept block that fits, else in a new
  // block of block_size bytes (or `size`, if larger).
  void* allocate(std::size_t size, std::size_t align);
  // Every block free again (kept).
  void reset() noexcept {
    block_ = 0;
    offset_ = 0;
  }

 private:
  struct block {
    std::byte* bytes;
    std::size_t size;
  };
  void* allocate_in_new_block(std::size_t size);

  base_internal::trivial_vector<block> blocks_;
  std::size_t block_ = 0;   // the block being filled
  std::size_t offset_ = 0;  // first free byte in it
};

}  // namespace deferred_queue_internal

template <typename Arg>
class deferred_queue {
 public:
  static constexpr std::size_t block_size =
      deferred_queue_internal::arena::block_size;

  deferred_queue() = default;
  deferred_queue(deferred_queue&& other) noexcept = default;
  deferred_queue& operator=(deferred_queue&& other) noexcept {
    if (this != &other) {
      clear();
      entries_ = std::move(other.entries_);
      arena_ = std::move(other.arena_);
    }
    return *this;
  }
  deferred_queue(const deferred_queue&) = delete;
  deferred_queue& operator=(const deferred_queue&) = delete;
  ~deferred_queue() { clear(); }

  template <typename F>
  void push(F&& f) {
    using fn = std::decay_t<F>;
    static_assert(std::is_invocable_v<fn&, Arg&>,
                  "defer(f): f must be callable as f(defer_proxy&), e.g. "
                  "[](auto& proxy) { ... }");
    static_assert(alignof(fn) <= alignof(std::max_align_t),
                  "defer(f): over-aligned captures are not supported");
    entries_.reserve(entries_.size() + 1);  // a throw here changes nothing
    void* where = arena_.allocate(sizeof(fn), alignof(fn));
    ::new (where) fn(std::forward<F>(f));
    entries_.push_back({where, &invoke<fn>, &destroy<fn>});
  }

  // Runs every pending call in order (see the contract above).
  std::exception_ptr run_all(Arg& arg) {
    std::exception_ptr failure;
    for (const entry& e : entries_) {
      try {
        e.invoke(e.object, arg);
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
      e.destroy(e.object);
    }
    reset();
    return failure;
  }

  // Destroys the pending calls without running them.
  void clear() noexcept {
    for (const entry& e : entries_) e.destroy(e.object);
    reset();
  }

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }

 private:
  struct entry {
    void* object;
    void (*invoke)(void*, Arg&);
    void (*destroy)(void*) noexcept;
  };

  template <typename F>
  static void invoke(void* object, Arg& arg) {
    (*static_cast<F*>(object))(arg);
  }
  template <typename F>
  static void destroy(void* object) noexcept {
    static_cast<F*>(object)->~F();
  }

  void reset() noexcept {
    entries_.clear();
    arena_.reset();
  }

  base_internal::trivial_vector<entry> entries_;
  deferred_queue_internal::arena arena_;
};

}  // namespace strata

#endif  // STRATA_CONTEXT_DEFERRED_QUEUE_H_
