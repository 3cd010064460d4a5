// Setting one option twice on a raw option_map must not compile.
#include "settings/option_map.h"

struct threads_key {};

constexpr auto defaults =
    strata::make_option_map(strata::option_default<threads_key>(1));
constexpr auto once = defaults.set<threads_key>(2);
constexpr auto twice = once.set<threads_key>(4);
