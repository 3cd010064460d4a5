// Internal to Strata: the pool's task, a move-only `void()` callable
// (thread_pool::task).
//
//   thread_pool::task t([&counter] { ++counter; });   // stored inline
//   t();                                               // runs it
//
// A callable whose size is at most two pointers, whose alignment is at most a
// pointer's and whose move constructor does not throw is stored inside the
// task, so posting it allocates nothing (the tasks task_group and
// parallel_for post capture one or two pointers); any other callable is moved
// to the heap. Moving a task moves the callable (or the heap pointer);
// destroying a task destroys the callable. A default-constructed or
// moved-from task is empty (`t == nullptr`); calling an empty task is a
// precondition violation.
//
// The role of absl::AnyInvocable<void()>, for the one signature the pool
// needs: Abseil's header includes <memory> and <functional>, and with them
// (in C++20 libstdc++) the stream library, into every translation unit that
// includes a context (//benchmarks/compile:include_only measures that).
//
// Not thread-safe: a task is owned by one thread at a time (the pool's queues
// hand it over under their lock).
#ifndef STRATA_THREADING_INTERNAL_POOL_TASK_H_
#define STRATA_THREADING_INTERNAL_POOL_TASK_H_

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace strata::threading_internal {

class pool_task {
 public:
  pool_task() noexcept = default;
  pool_task(std::nullptr_t) noexcept {}  // NOLINT: as AnyInvocable

  template <typename F, typename Callable = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<Callable, pool_task> &&
                                        std::is_invocable_r_v<void, Callable&>>>
  pool_task(F&& f) {  // NOLINT: implicit, as AnyInvocable
    if constexpr (stored_inline<Callable>) {
      ::new (static_cast<void*>(storage_)) Callable(std::forward<F>(f));
    } else {
      ::new (static_cast<void*>(storage_))
          Callable*(new Callable(std::forward<F>(f)));
    }
    invoke_ = &invoke<Callable>;
    manage_ = &manage<Callable>;
  }

  pool_task(pool_task&& other) noexcept { take(other); }
  pool_task& operator=(pool_task&& other) noexcept {
    if (this != &other) {
      clear();
      take(other);
    }
    return *this;
  }
  pool_task(const pool_task&) = delete;
  pool_task& operator=(const pool_task&) = delete;
  ~pool_task() { clear(); }

  // Runs the callable (which stays in the task). Precondition: not empty.
  void operator()() { invoke_(storage_); }

  explicit operator bool() const noexcept { return invoke_ != nullptr; }
  friend bool operator==(const pool_task& t, std::nullptr_t) noexcept {
    return t.invoke_ == nullptr;
  }

 private:
  static constexpr std::size_t kInlineSize = 2 * sizeof(void*);
  template <typename Callable>
  static constexpr bool stored_inline =
      sizeof(Callable) <= kInlineSize && alignof(Callable) <= alignof(void*) &&
      std::is_nothrow_move_constructible_v<Callable>;

  enum class operation { move_to, destroy };
  using invoke_function = void (*)(void* storage);
  using manage_function = void (*)(operation, void* storage,
                                   void* destination) noexcept;

  template <typename Callable>
  static Callable& callable_in(void* storage) noexcept {
    if constexpr (stored_inline<Callable>) {
      return *std::launder(static_cast<Callable*>(storage));
    } else {
      return **std::launder(static_cast<Callable**>(storage));
    }
  }
  template <typename Callable>
  static void invoke(void* storage) {
    callable_in<Callable>(storage)();
  }
  // Moves the callable (or its heap pointer) from `storage` to
  // `destination`, leaving nothing to destroy in `storage`; or destroys it.
  template <typename Callable>
  static void manage(operation op, void* storage, void* destination) noexcept {
    if constexpr (stored_inline<Callable>) {
      Callable& held = callable_in<Callable>(storage);
      if (op == operation::move_to) {
        ::new (destination) Callable(std::move(held));
      }
      held.~Callable();
    } else if (op == operation::move_to) {
      ::new (destination) Callable*(&callable_in<Callable>(storage));
    } else {
      delete &callable_in<Callable>(storage);
    }
  }

  void take(pool_task& other) noexcept {
    if (other.invoke_ == nullptr) return;
    other.manage_(operation::move_to, other.storage_, storage_);
    invoke_ = std::exchange(other.invoke_, nullptr);
    manage_ = std::exchange(other.manage_, nullptr);
  }
  void clear() noexcept {
    if (invoke_ == nullptr) return;
    manage_(operation::destroy, storage_, nullptr);
    invoke_ = nullptr;
    manage_ = nullptr;
  }

  alignas(void*) unsigned char storage_[kInlineSize];
  invoke_function invoke_ = nullptr;
  manage_function manage_ = nullptr;
};

}  // namespace strata::threading_internal

#endif  // STRATA_THREADING_INTERNAL_POOL_TASK_H_
