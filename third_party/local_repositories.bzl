"""Repository rules that map Debian-packaged dependencies into Bazel 4.2.3.

Nothing here downloads: every repository is made from files already on the
machine (installed by tools/setup.sh).
"""

def _debian_rules_cc_impl(repository_ctx):
    source = repository_ctx.path(repository_ctx.attr.path)
    if not source.exists:
        fail("rules_cc not found at %s: run tools/setup.sh (package bazel-rules-cc)" % source)
    result = repository_ctx.execute(["cp", "-R", str(source) + "/.", "."])
    if result.return_code != 0:
        fail("copying rules_cc failed: " + result.stderr)

    # Bazel 4.2.3's @bazel_tools has no use_cpp_toolchain(); spell out what it
    # returns in Bazel 5.
    for impl in ["cc/private/rules_impl/cc_flags_supplier.bzl", "cc/private/rules_impl/compiler_flag.bzl"]:
        text = repository_ctx.read(impl)
        text = text.replace(', "use_cpp_toolchain")', ")")
        text = text.replace("use_cpp_toolchain()", '["@bazel_tools//tools/cpp:toolchain_type"]')
        repository_ctx.file(impl, text)

debian_rules_cc = repository_rule(
    implementation = _debian_rules_cc_impl,
    attrs = {"path": attr.string(mandatory = True)},
    local = True,
)

def _system_library_repository_impl(repository_ctx):
    # Libraries and headers are found in the compiler's default search paths
    # (/usr/include, /usr/lib/<triplet>); the BUILD files only name them.
    repository_ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % repository_ctx.name)
    repository_ctx.symlink(repository_ctx.attr.build_file, "BUILD.bazel")
    for build_file, package in repository_ctx.attr.package_build_files.items():
        repository_ctx.symlink(build_file, package + "/BUILD.bazel")

system_library_repository = repository_rule(
    implementation = _system_library_repository_impl,
    attrs = {
        "build_file": attr.label(mandatory = True, allow_single_file = True),
        # BUILD file label -> sub-package path inside the repository.
        "package_build_files": attr.label_keyed_string_dict(allow_files = True),
    },
    local = True,
)
