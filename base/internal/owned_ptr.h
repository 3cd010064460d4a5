// Internal to Strata: the sole owner of one heap object or one heap array,
// for the headers every program that includes a context compiles.
//
//   owned_ptr<core> c = make_owned<core>(args...);  // delete at the end
//   owned_ptr<std::byte[]> b(new std::byte[n]);      // delete[] at the end
//
// The subset of std::unique_ptr Strata's headers use (construction from a
// pointer, move, get, reset, release, *, ->, [] for arrays, comparison with
// nullptr), with the default deleter only. Why not std::unique_ptr itself:
// in C++20 libstdc++'s <bits/unique_ptr.h> includes <ostream> for the
// pointer's operator<<, and with it the whole stream library, which every
// translation unit that includes strata.h would then parse
// (//benchmarks/compile:include_only measures what including Strata costs).
// Code outside those headers (.cc files, tests) keeps std::unique_ptr.
//
// Contract, as std::unique_ptr's: moved-from pointers are null; T may be
// incomplete where an owned_ptr<T> is declared, and must be complete where it
// is destroyed or reset (the destructor of a class holding one, defined in a
// .cc file, is the usual place). Not thread-safe; the object is not copied.
#ifndef STRATA_BASE_INTERNAL_OWNED_PTR_H_
#define STRATA_BASE_INTERNAL_OWNED_PTR_H_

#include <cstddef>
#include <type_traits>
#include <utility>

namespace strata::base_internal {

// Deletes with `delete` (Element = T) or `delete[]` (Array).
template <typename Element, bool Array>
class basic_owned_ptr {
 public:
  constexpr basic_owned_ptr() noexcept = default;
  // Implicit, as unique_ptr's: `owned_ptr<T> p = nullptr;`.
  constexpr basic_owned_ptr(std::nullptr_t) noexcept {}  // NOLINT
  explicit basic_owned_ptr(Element* owned) noexcept : pointer_(owned) {}
  basic_owned_ptr(basic_owned_ptr&& other) noexcept
      : pointer_(other.release()) {}
  basic_owned_ptr& operator=(basic_owned_ptr&& other) noexcept {
    reset(other.release());
    return *this;
  }
  basic_owned_ptr(const basic_owned_ptr&) = delete;
  basic_owned_ptr& operator=(const basic_owned_ptr&) = delete;
  ~basic_owned_ptr() { destroy(pointer_); }

  Element* get() const noexcept { return pointer_; }
  explicit operator bool() const noexcept { return pointer_ != nullptr; }
  // Gives up ownership without deleting.
  Element* release() noexcept { return std::exchange(pointer_, nullptr); }
  // Deletes the owned object or array (if any) and owns `owned` instead.
  void reset(Element* owned = nullptr) noexcept {
    destroy(std::exchange(pointer_, owned));
  }

  friend bool operator==(const basic_owned_ptr& p, std::nullptr_t) noexcept {
    return p.pointer_ == nullptr;
  }

 private:
  static void destroy(Element* owned) noexcept {
    static_assert(sizeof(Element) > 0,
                  "strata: an owned_ptr's type must be complete where the "
                  "pointer is destroyed or reset");
    if constexpr (Array) {
      delete[] owned;
    } else {
      delete owned;
    }
  }

  Element* pointer_ = nullptr;
};

template <typename T>
class owned_ptr : public basic_owned_ptr<T, false> {
 public:
  using basic_owned_ptr<T, false>::basic_owned_ptr;
  T& operator*() const noexcept { return *this->get(); }
  T* operator->() const noexcept { return this->get(); }
};

template <typename T>
class owned_ptr<T[]> : public basic_owned_ptr<T, true> {
 public:
  using basic_owned_ptr<T, true>::basic_owned_ptr;
  T& operator[](std::size_t i) const noexcept { return this->get()[i]; }
};

// A new T built from args with parentheses, owned (std::make_unique's role).
template <typename T, typename... Args>
owned_ptr<T> make_owned(Args&&... args) {
  static_assert(!std::is_array_v<T>,
                "strata: make_owned builds one object; own an array with "
                "owned_ptr<T[]>(new T[n])");
  return owned_ptr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace strata::base_internal

#endif  // STRATA_BASE_INTERNAL_OWNED_PTR_H_
