"""strata_dependencies(): every external repository Strata needs.

A workspace that depends on Strata needs only:

    local_repository(name = "strata", path = "/path/to/strata")
    load("@strata//:repositories.bzl", "strata_dependencies")
    strata_dependencies()

Every repository is made from Debian packages already on the machine (installed
by Strata's tools/setup.sh); nothing is downloaded. Each one is declared only if
the workspace has not declared a repository of that name before the call, so a
user can bring their own (e.g. a fetched googletest) by declaring it first.
Repository names and target labels match upstream.

Labels below are Label(...) objects: a Label made in this file resolves
against the repository this file lives in (@strata when Strata is a
dependency, the main repository in Strata's own workspace), whichever
workspace calls strata_dependencies().
"""

load("//third_party:local_repositories.bzl", "debian_rules_cc", "system_library_repository")

def _maybe(repository_rule, name, **kwargs):
    if not native.existing_rule(name):
        repository_rule(name = name, **kwargs)

def strata_dependencies():
    """Declares the external repositories Strata's BUILD files use."""

    # Debian's rules_cc 0.0.4 uses Bazel 5's use_cpp_toolchain(); this copies
    # it and patches that call for Bazel 4.2.3.
    _maybe(
        debian_rules_cc,
        name = "rules_cc",
        path = "/usr/share/bazel/rules/cc",
    )

    _maybe(
        native.local_repository,
        name = "rules_java",
        path = "/usr/share/bazel/rules/java",
    )

    # cc_test pulls @remote_coverage_tools implicitly; an empty local one stops
    # the download (coverage is not supported offline).
    _maybe(
        system_library_repository,
        name = "remote_coverage_tools",
        build_file = Label("//third_party:remote_coverage_tools.BUILD"),
    )

    _maybe(
        system_library_repository,
        name = "com_google_googletest",
        build_file = Label("//third_party:googletest.BUILD"),
    )

    _maybe(
        system_library_repository,
        name = "com_github_google_benchmark",
        build_file = Label("//third_party:benchmark.BUILD"),
    )

    _maybe(
        system_library_repository,
        name = "concurrentqueue",
        build_file = Label("//third_party:concurrentqueue.BUILD"),
    )

    _maybe(
        system_library_repository,
        name = "com_google_absl",
        build_file = Label("//third_party:abseil.BUILD"),
        # Abseil's labels live in sub-packages (@com_google_absl//absl/container:...).
        package_build_files = {
            Label("//third_party/abseil:base.BUILD"): "absl/base",
            Label("//third_party/abseil:container.BUILD"): "absl/container",
            Label("//third_party/abseil:flags.BUILD"): "absl/flags",
            Label("//third_party/abseil:functional.BUILD"): "absl/functional",
            Label("//third_party/abseil:hash.BUILD"): "absl/hash",
            Label("//third_party/abseil:status.BUILD"): "absl/status",
            Label("//third_party/abseil:strings.BUILD"): "absl/strings",
            Label("//third_party/abseil:synchronization.BUILD"): "absl/synchronization",
            Label("//third_party/abseil:time.BUILD"): "absl/time",
            Label("//third_party/abseil:types.BUILD"): "absl/types",
        },
    )

    _maybe(
        system_library_repository,
        name = "libpng",
        build_file = Label("//third_party:libpng.BUILD"),
    )

    _maybe(
        system_library_repository,
        name = "xxhash",
        build_file = Label("//third_party:xxhash.BUILD"),
    )

    _maybe(
        system_library_repository,
        name = "cereal",
        build_file = Label("//third_party:cereal.BUILD"),
    )
