// A user-defined settings schema built on option_map, shared by the tests.
#ifndef STRATA_META_TESTDATA_WINDOW_SETTINGS_H_
#define STRATA_META_TESTDATA_WINDOW_SETTINGS_H_

#include <type_traits>

#include "meta/option_map.h"

namespace window {

struct width_key {};
struct fullscreen_key {};

struct defaults {
  static constexpr auto value = strata::make_option_defaults(
      strata::option_default<width_key>(640),
      strata::option_default<fullscreen_key>(std::false_type{}));
};

template <typename Map>
struct settings : strata::fluent_settings<settings, Map> {
  constexpr auto width(int pixels) const {
    static_assert(!Map::template is_set<width_key>(),
                  "window settings: width() is set twice; set it once");
    return this->template with_option_unchecked<width_key>(pixels);
  }
  constexpr auto fullscreen() const {
    return this->template with_option<fullscreen_key>(std::true_type{});
  }
  constexpr int width_value() const { return this->template get<width_key>(); }
  static constexpr bool is_fullscreen() {
    return Map::template value_type<fullscreen_key>::value;
  }
};

constexpr auto make_settings() {
  return settings<strata::option_map<defaults>>{};
}

}  // namespace window

#endif  // STRATA_META_TESTDATA_WINDOW_SETTINGS_H_
