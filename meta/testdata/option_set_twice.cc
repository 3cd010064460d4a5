// Setting one option twice on a raw option_map must not compile.
#include "meta/option_map.h"

struct threads_key {};
struct defaults {
  static constexpr auto value =
      strata::make_option_defaults(strata::option_default<threads_key>(1));
};

constexpr strata::option_map<defaults> map{};
constexpr auto once = map.set<threads_key>(2);
constexpr auto twice = once.set<threads_key>(4);
