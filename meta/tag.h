// Type tags: types as constexpr values.
//
// `strata::tag<T>` is an empty constexpr object standing for the type T, so
// component and system types can be named in ordinary function calls:
//
//   namespace ct { inline constexpr auto position = strata::tag<::position>; }
//   data.get(ct::position, e);
//
// `tag_t<T>::type` recovers T. Tags of the same type compare equal; tags cost
// nothing at run time (empty, trivially copyable).
#ifndef STRATA_META_TAG_H_
#define STRATA_META_TAG_H_

#include <type_traits>

namespace strata {

template <typename T>
struct tag_t {
  using type = T;
  friend constexpr bool operator==(tag_t, tag_t) { return true; }
};

template <typename T>
inline constexpr tag_t<T> tag{};

template <typename T>
inline constexpr bool is_tag_v = false;
template <typename T>
inline constexpr bool is_tag_v<tag_t<T>> = true;

// Any `strata::tag<T>` value (cv-qualifiers ignored).
template <typename T>
concept tag_value = is_tag_v<std::remove_cvref_t<T>>;

// The type a tag stands for.
template <tag_value Tag>
using tag_type = typename std::remove_cvref_t<Tag>::type;

}  // namespace strata

#endif  // STRATA_META_TAG_H_
