// The name of a type as a constexpr string_view, for diagnostics and traces.
//
// type_name<T>() is derived from the compiler's __PRETTY_FUNCTION__ (GCC and
// Clang), e.g. "movement" or "game::render_system"; it costs nothing at run
// time. Names of types in anonymous namespaces include "(anonymous
// namespace)::" or "{anonymous}::", as the compiler spells them.
//
// name_of<T>() is the name Strata shows for a system, component or output
// type (traces, the DOT graph of scheduler/dot.h): T::name when T declares a
// static `name` convertible to std::string_view (e.g.
// `static constexpr std::string_view name = "movement";`), else
// type_name<T>().
#ifndef STRATA_META_TYPE_NAME_H_
#define STRATA_META_TYPE_NAME_H_

#include <string_view>
#include <type_traits>

namespace strata {

template <typename T>
constexpr std::string_view type_name() {
  std::string_view pretty = __PRETTY_FUNCTION__;
  // GCC: "... [with T = foo; std::string_view = ...]"; Clang: "... [T = foo]".
  const std::size_t with = pretty.find("T = ");
  if (with == std::string_view::npos) return pretty;
  pretty.remove_prefix(with + 4);
  const std::size_t end = pretty.find_first_of(";]");
  return pretty.substr(0, end);
}

template <typename T>
constexpr std::string_view name_of() {
  // (A non-static data member called `name`, such as a component's
  // std::string, is not the type's name.)
  if constexpr (requires {
                  requires !std::is_member_object_pointer_v<decltype(&T::name)>;
                  std::string_view(T::name);
                }) {
    return T::name;
  } else {
    return type_name<T>();
  }
}

}  // namespace strata

#endif  // STRATA_META_TYPE_NAME_H_
