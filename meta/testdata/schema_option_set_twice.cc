// A user schema names the option that was set twice in its message.
#include "meta/testdata/window_settings.h"

constexpr auto s = window::make_settings().width(800).width(1024);
