// make_context: builds a context from its settings.
//
//   constexpr auto settings = strata::settings()...;  // namespace scope
//   auto ctx = strata::make_context<settings>();      // named settings
//   auto ctx = strata::make_context(settings);        // settings by value
//   auto ctx = strata::make_context<settings>(
//       strata::run_options().threads(n).scheduler(kind),
//       strata::system_arguments(st::render, window),
//       strata::run_on(engine_jobs));
//
// make_context<settings>() names the settings by the constant that holds
// them, so compiler messages print `named_settings<settings>` instead of the
// settings type with every signature in it; make_context(settings) takes
// them by value (run-time or local settings) and behaves the same. What a
// program picks at run time (thread count, scheduler, hand-off, reserved
// entities) goes in strata::run_options() (context/run_options.h) beside
// named settings; system constructor arguments and an engine's job system
// are context/context_arguments.h's.
//
// Compile-time checks, each reported once with Strata's message (settings
// setters report the same rules as soon as the settings hold both lists;
// these catch settings that never set one of them): every extra argument is
// one of the three kinds above, run_on and run_options given at most once;
// every component a system or hook names is stored and every resource it
// uses declared; every system without system_arguments is
// default-constructible; every `.hash_map()` signature's chunk header is
// included; a system ordered by the hierarchy has one declared. Every hook
// body is compiled here, so a misuse inside one is reported under few notes.
//
// Cost: builds the whole context on the heap (context/context.h); may
// start the context's thread pool. Thread-safety: contexts made from the
// same settings are independent.
#ifndef STRATA_CONTEXT_MAKE_CONTEXT_H_
#define STRATA_CONTEXT_MAKE_CONTEXT_H_

#include <type_traits>
#include <utility>

#include "context/context.h"
#include "context/context_arguments.h"
#include "context/internal/diagnostics.h"
#include "context/run_options.h"
#include "context/settings.h"
#include "meta/diagnostic.h"
#include "meta/type_list.h"
#include "scheduler/dag.h"

namespace strata {

namespace diagnostic {

template <typename Given>
inline constexpr bool not_context_settings = [] {
  static_assert(always_false<Given>,
                "make_context(settings): settings must be built with "
                "strata::settings()...");
  return false;
}();

template <typename Given>
inline constexpr bool not_system_arguments = [] {
  static_assert(always_false<Given>,
                "make_context(settings, extra...): each extra argument must "
                "come from strata::system_arguments(st::x, args...), "
                "strata::run_on(executor) or strata::run_options()");
  return false;
}();

template <typename Given>
inline constexpr bool executor_given_twice = [] {
  static_assert(always_false<Given>,
                "make_context(settings, extra...): strata::run_on(executor) "
                "given more than once; a context runs on one executor");
  return false;
}();

template <typename Given>
inline constexpr bool run_options_given_twice = [] {
  static_assert(always_false<Given>,
                "make_context(settings, extra...): strata::run_options() "
                "given more than once; set every option on one run_options");
  return false;
}();

}  // namespace diagnostic

// Builds a context; systems that are not default-constructible get their
// constructor arguments from strata::system_arguments(st::x, args...); an
// engine's job system is given with strata::run_on(executor)
// (threading/executor.h); what a program picks at run time (threads, the
// scheduler, hand-off, reserved entities) with strata::run_options()
// (context/run_options.h), which keeps the settings a named constant.
template <typename Settings, typename... SystemArgs>
auto make_context(const Settings& settings, SystemArgs&&... system_args) {
  if constexpr (!is_context_settings_v<Settings>) {
    diagnostic::report(diagnostic::not_context_settings<Settings>);
  } else if constexpr (!(is_context_argument_v<
                             std::remove_cvref_t<SystemArgs>> &&
                         ...)) {
    diagnostic::report(diagnostic::not_system_arguments<
                       type_list<std::remove_cvref_t<SystemArgs>...>>);
  } else if constexpr ((std::is_same_v<std::remove_cvref_t<SystemArgs>,
                                       run_on_t> +
                        ... + 0) > 1) {
    diagnostic::report(diagnostic::executor_given_twice<
                       type_list<std::remove_cvref_t<SystemArgs>...>>);
  } else if constexpr ((std::is_same_v<std::remove_cvref_t<SystemArgs>,
                                       run_options> +
                        ... + 0) > 1) {
    diagnostic::report(diagnostic::run_options_given_twice<
                       type_list<std::remove_cvref_t<SystemArgs>...>>);
  } else {
    // Where the settings hold both lists, their setters checked these
    // already (the same rule, reported once); here for settings that never
    // set one of them. Then: every system that gets no system_arguments can
    // be default-constructed, and every .hash_map() signature's chunk is
    // defined (a rule that the component storage checks too, reported once).
    using systems = typename Settings::system_list_type;
    using unstored =
        dag_internal::unstored_component<typename Settings::component_list_type,
                                         systems>;
    using undeclared =
        dag_internal::undeclared_resource<typename Settings::resource_list_type,
                                          systems>;
    using unstored_by_hook = hooks_internal::unstored_hook_component<
        typename Settings::component_list_type,
        typename Settings::hook_list_type>;
    using undeclared_by_hook = hooks_internal::undeclared_hook_resource<
        typename Settings::resource_list_type,
        typename Settings::hook_list_type>;
    using unconstructible = context_internal::unconstructible_system<
        systems, std::remove_cvref_t<SystemArgs>...>;
    using missing_hash_map = typename component_storage_internal::chunk_list<
        typename Settings::entity_limit_type,
        typename Settings::component_list_type::signature_types>::
        missing_hash_map;
    if constexpr (unstored::found) {
      diagnostic::report(
          diagnostic::system_component_not_stored<typename unstored::system,
                                                  typename unstored::item>);
    } else if constexpr (undeclared::found) {
      diagnostic::report(
          diagnostic::system_resource_not_declared<typename undeclared::system,
                                                   typename undeclared::item>);
    } else if constexpr (unstored_by_hook::found) {
      diagnostic::report(diagnostic::hook_component_not_stored<
                         typename unstored_by_hook::hook,
                         typename unstored_by_hook::item>);
    } else if constexpr (undeclared_by_hook::found) {
      diagnostic::report(diagnostic::hook_resource_not_declared<
                         typename undeclared_by_hook::hook,
                         typename undeclared_by_hook::item>);
    } else if constexpr (!std::is_void_v<unconstructible>) {
      diagnostic::report(
          diagnostic::system_not_default_constructible<unconstructible>);
    } else if constexpr (!std::is_void_v<missing_hash_map>) {
      diagnostic::report(component_storage_internal::hash_map_missing_reported<
                         missing_hash_map>);
    } else if constexpr (!Settings::hierarchy_declared &&
                         !std::is_void_v<
                             context_internal::hierarchy_ordered_system<
                                 systems>>) {
      diagnostic::report(diagnostic::hierarchy_order_without_hierarchy<
                         context_internal::hierarchy_ordered_system<systems>>);
    }
    context_internal::compile_hooks<
        context_internal::context_types_for<Settings>>(
        std::make_index_sequence<
            context_internal::usable_hook_count<Settings>>{});
    return context<Settings>(settings,
                             std::forward<SystemArgs>(system_args)...);
  }
}

// The same for settings held by a constexpr variable with static storage,
// named in the call: `strata::make_context<settings>()`. The context's type
// is then context<named_settings<settings>> (context/settings.h), and so is
// what error messages print; prefer this form wherever the settings are a
// namespace-scope constant.
template <const auto& Settings, typename... SystemArgs>
auto make_context(SystemArgs&&... system_args) {
  using given = std::remove_cvref_t<decltype(Settings)>;
  if constexpr (!is_context_settings_v<given>) {
    diagnostic::report(diagnostic::not_context_settings<given>);
  } else {
    return make_context(named_settings<Settings>{Settings},
                        std::forward<SystemArgs>(system_args)...);
  }
}

}  // namespace strata

#endif  // STRATA_CONTEXT_MAKE_CONTEXT_H_
