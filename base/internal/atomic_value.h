// Internal to Strata: one integer or bool read and written atomically, for the
// headers every program that includes a context compiles.
//
//   atomic_value<std::size_t> pending{0};
//   pending.fetch_add(1, memory_order::relaxed);
//   if (pending.fetch_sub(1, memory_order::acq_rel) == 1) { /* last one */ }
//
// The subset of std::atomic<T> Strata's headers use (load, store, exchange,
// fetch_add, fetch_sub, fetch_or), with the same semantics and
// memory orders. Why not std::atomic itself: in C++20 libstdc++'s <atomic>
// includes the wait/notify machinery (<bits/atomic_wait.h>), and with it
// std::mutex, <system_error>, <stdexcept> and <string>, which every
// translation unit that includes strata.h would then parse
// (//benchmarks/compile:include_only measures what including Strata costs).
// No Strata header waits on an atomic, so none needs that machinery.
//
// Under GCC and Clang the operations are the compiler's __atomic builtins,
// exactly what libstdc++'s and libc++'s std::atomic call, so ThreadSanitizer
// sees the same atomic accesses. Under any other compiler the value is a
// std::atomic. Code outside those headers (.cc files, tests) keeps std::atomic.
//
// Contract, as std::atomic's: T is an integer type or bool; every operation is
// safe from any number of threads at once; the value starts at T{} unless
// given; not copyable or movable. Pass a memory order that the operation
// allows (no release on a load, no acquire on a store), as with std::atomic.
#ifndef STRATA_BASE_INTERNAL_ATOMIC_VALUE_H_
#define STRATA_BASE_INTERNAL_ATOMIC_VALUE_H_

#include <type_traits>

#if !defined(__GNUC__)
#include <atomic>
#endif

namespace strata::base_internal {

#if defined(__GNUC__)
enum class memory_order : int {
  relaxed = __ATOMIC_RELAXED,
  acquire = __ATOMIC_ACQUIRE,
  release = __ATOMIC_RELEASE,
  acq_rel = __ATOMIC_ACQ_REL,
  seq_cst = __ATOMIC_SEQ_CST,
};
#else
enum class memory_order : int {
  relaxed = static_cast<int>(std::memory_order_relaxed),
  acquire = static_cast<int>(std::memory_order_acquire),
  release = static_cast<int>(std::memory_order_release),
  acq_rel = static_cast<int>(std::memory_order_acq_rel),
  seq_cst = static_cast<int>(std::memory_order_seq_cst),
};
#endif

template <typename T>
class atomic_value {
  static_assert(std::is_integral_v<T>,
                "atomic_value holds an integer type or bool");

 public:
  constexpr atomic_value() noexcept = default;
  constexpr atomic_value(T initial) noexcept : value_(initial) {}  // NOLINT
  atomic_value(const atomic_value&) = delete;
  atomic_value& operator=(const atomic_value&) = delete;

#if defined(__GNUC__)
  [[gnu::always_inline]] T load(memory_order order) const noexcept {
    return __atomic_load_n(&value_, static_cast<int>(order));
  }
  [[gnu::always_inline]] void store(T desired, memory_order order) noexcept {
    __atomic_store_n(&value_, desired, static_cast<int>(order));
  }
  [[gnu::always_inline]] T exchange(T desired, memory_order order) noexcept {
    return __atomic_exchange_n(&value_, desired, static_cast<int>(order));
  }
  [[gnu::always_inline]] T fetch_add(T delta, memory_order order) noexcept
      requires(!std::is_same_v<T, bool>) {
    return __atomic_fetch_add(&value_, delta, static_cast<int>(order));
  }
  [[gnu::always_inline]] T fetch_sub(T delta, memory_order order) noexcept
      requires(!std::is_same_v<T, bool>) {
    return __atomic_fetch_sub(&value_, delta, static_cast<int>(order));
  }
  [[gnu::always_inline]] T fetch_or(T bits, memory_order order) noexcept
      requires(!std::is_same_v<T, bool>) {
    return __atomic_fetch_or(&value_, bits, static_cast<int>(order));
  }

 private:
  // Aligned to its size, as std::atomic<T> is, so every access is lock-free.
  alignas(sizeof(T)) T value_{};
  static_assert(__atomic_always_lock_free(sizeof(T), 0),
                "atomic_value holds only types the target reads and writes "
                "atomically without a lock");
#else
  T load(memory_order order) const noexcept {
    return value_.load(standard(order));
  }
  void store(T desired, memory_order order) noexcept {
    value_.store(desired, standard(order));
  }
  T exchange(T desired, memory_order order) noexcept {
    return value_.exchange(desired, standard(order));
  }
  T fetch_add(T delta, memory_order order) noexcept
      requires(!std::is_same_v<T, bool>) {
    return value_.fetch_add(delta, standard(order));
  }
  T fetch_sub(T delta, memory_order order) noexcept
      requires(!std::is_same_v<T, bool>) {
    return value_.fetch_sub(delta, standard(order));
  }
  T fetch_or(T bits, memory_order order) noexcept
      requires(!std::is_same_v<T, bool>) {
    return value_.fetch_or(bits, standard(order));
  }

 private:
  static constexpr std::memory_order standard(memory_order order) noexcept {
    return static_cast<std::memory_order>(static_cast<int>(order));
  }
  std::atomic<T> value_{};
#endif
};

}  // namespace strata::base_internal

#endif  // STRATA_BASE_INTERNAL_ATOMIC_VALUE_H_
