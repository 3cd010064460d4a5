// Internal to //context: the values of a context's resources
// (context/resources.h has the contract), one value-initialized object per
// declared type, reached by type in O(1).
//
// Thread-safety: as the resources themselves (context/resources.h).
#ifndef STRATA_CONTEXT_INTERNAL_RESOURCE_STORAGE_H_
#define STRATA_CONTEXT_INTERNAL_RESOURCE_STORAGE_H_

#include <type_traits>

#include "base/internal/flat_tuple.h"
#include "context/resources.h"
#include "meta/diagnostic.h"

namespace strata::context_internal {

// The values of a context's resources.
template <typename List>
class resource_storage;
template <typename... Ts>
class resource_storage<resource_list<Ts...>> {
 public:
  template <typename T>
  T& get() noexcept {
    return base_internal::get<T>(values_);
  }
  template <typename T>
  const T& get() const noexcept {
    return base_internal::get<T>(values_);
  }

 private:
  template <typename T>
  static constexpr bool check() {
    if constexpr (!std::is_default_constructible_v<T>) {
      diagnostic::report(diagnostic::resource_not_default_constructible<T>);
    }
    return true;
  }
  static_assert((check<Ts>() && ...));
  base_internal::flat_tuple<Ts...> values_{};
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_RESOURCE_STORAGE_H_
