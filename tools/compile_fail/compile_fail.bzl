"""cc_compile_fail_test: proves that a source file does NOT compile.

The test passes only if compiling `src` against `deps` (with the same toolchain,
flags and include paths a cc_library would use) fails AND the compiler output
matches `expected_error_regex` (an extended regular expression) and every
pattern of `also_expected_regexes`, in at most `max_output_lines` lines and
`max_output_bytes` bytes: by default 30 lines and 6144 bytes, with GCC and
with Clang alike, Strata's promise that every misuse prints one screen
(meta/diagnostic.h says how). It fails if the source compiles,
or if it fails for another reason, or too verbosely. The compiler runs at build
time (so results are cached); the test checks the recorded outcome and prints
the compiler output, and how many lines of it there were, when it fails.

    cc_compile_fail_test(
        name = "write_undeclared_component_test",
        src = "write_undeclared_component.cc",
        deps = [":context"],
        expected_error_regex = static_assert_regex("writes a component it did not declare"),
    )

A Strata diagnostic is a static_assert whose message tells the user what to
change; `static_assert_regex(message)` matches that message after the prefix
GCC ("static assertion failed") and Clang ("static_assert failed") print.
"""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")
load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "CPP_COMPILE_ACTION_NAME")

def _cc_compile_fail_test_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    compilation_context = cc_common.merge_cc_infos(
        cc_infos = [dep[CcInfo] for dep in ctx.attr.deps],
    ).compilation_context

    src = ctx.file.src
    log = ctx.actions.declare_file(ctx.label.name + ".compiler_output.txt")
    status = ctx.actions.declare_file(ctx.label.name + ".compiler_status.txt")

    variables = cc_common.create_compile_variables(
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        user_compile_flags = ctx.fragments.cpp.copts + ctx.fragments.cpp.cxxopts + ctx.attr.copts + ["-fsyntax-only", "-fdiagnostics-color=never"],
        source_file = src.path,
        include_directories = depset(transitive = [compilation_context.includes]),
        quote_include_directories = depset(
            [".", ctx.genfiles_dir.path, ctx.bin_dir.path],
            transitive = [compilation_context.quote_includes],
        ),
        system_include_directories = compilation_context.system_includes,
        preprocessor_defines = compilation_context.defines,
    )
    compiler = cc_common.get_tool_for_action(
        feature_configuration = feature_configuration,
        action_name = CPP_COMPILE_ACTION_NAME,
    )
    arguments = cc_common.get_memory_inefficient_command_line(
        feature_configuration = feature_configuration,
        action_name = CPP_COMPILE_ACTION_NAME,
        variables = variables,
    )
    environment = cc_common.get_environment_variables(
        feature_configuration = feature_configuration,
        action_name = CPP_COMPILE_ACTION_NAME,
        variables = variables,
    )

    args = ctx.actions.args()
    args.add(log)
    args.add(status)
    args.add(compiler)
    args.add_all(arguments)
    ctx.actions.run(
        executable = ctx.executable._run_compiler,
        arguments = [args],
        inputs = depset([src], transitive = [compilation_context.headers, cc_toolchain.all_files]),
        outputs = [log, status],
        env = environment,
        mnemonic = "CompileFailCheck",
        progress_message = "Compiling %s, expecting a failure" % src.short_path,
    )

    test_script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = test_script,
        is_executable = True,
        content = "#!/usr/bin/env bash\nexec {check} {status} {log} {regex} {src} {max_bytes} {max_lines} {more}\n".format(
            check = ctx.executable._check.short_path,
            status = status.short_path,
            log = log.short_path,
            regex = _shell_quote(ctx.attr.expected_error_regex),
            src = src.short_path,
            max_bytes = ctx.attr.max_output_bytes,
            max_lines = _max_lines(ctx, cc_toolchain),
            more = " ".join([_shell_quote(r) for r in ctx.attr.also_expected_regexes]),
        ),
    )
    runfiles = ctx.runfiles(files = [status, log, ctx.executable._check])
    return [DefaultInfo(executable = test_script, runfiles = runfiles)]

def _max_lines(ctx, cc_toolchain):
    if cc_toolchain.compiler == "clang" and ctx.attr.max_output_lines_clang >= 0:
        return ctx.attr.max_output_lines_clang
    return ctx.attr.max_output_lines

def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"

_cc_compile_fail_test = rule(
    implementation = _cc_compile_fail_test_impl,
    test = True,
    attrs = {
        "src": attr.label(mandatory = True, allow_single_file = [".cc", ".cpp"]),
        "deps": attr.label_list(providers = [CcInfo]),
        "copts": attr.string_list(),
        "expected_error_regex": attr.string(mandatory = True),
        # The error must also be short: at most this many bytes of compiler
        # output (0: no limit). A user should read the cause on one screen.
        "max_output_bytes": attr.int(default = 6144),
        # ... and at most this many lines (0: no limit).
        "max_output_lines": attr.int(default = 30),
        # The line limit when the compiler is Clang (-1: max_output_lines).
        # Clang prints each instantiation context in 3 lines (the note, the
        # source line, a caret) where GCC prints one, so a misuse found deep
        # in a call chain takes more lines with Clang; Strata's own chains
        # fit in 30 (at most 7 contexts), so no Strata test sets this.
        "max_output_lines_clang": attr.int(default = -1),
        # More patterns the output must match, each on some line (e.g. every
        # culprit of a rule that names several).
        "also_expected_regexes": attr.string_list(),
        "_run_compiler": attr.label(
            # Label(): always this file's repository (@strata when Strata is
            # a dependency), whoever uses the rule.
            default = Label("//tools/compile_fail:run_compiler"),
            executable = True,
            cfg = "exec",
        ),
        "_check": attr.label(
            default = Label("//tools/compile_fail:check_compile_failure"),
            executable = True,
            cfg = "target",
        ),
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    fragments = ["cpp"],
    incompatible_use_toolchain_transition = True,
)

def static_assert_regex(message):
    """The expected_error_regex of a failed static_assert whose message matches
    `message` (an extended regular expression), with GCC and with Clang."""
    return "static(_| )assert(ion)? failed.*" + message

# The define a by_value variant compiles its source with.
BY_VALUE_DEFINE = "STRATA_COMPILE_FAIL_BY_VALUE"

# The define a by_value_in_template variant adds.
IN_TEMPLATE_DEFINE = "STRATA_COMPILE_FAIL_IN_TEMPLATE"

def cc_compile_fail_test(
        name,
        tags = [],
        by_value = False,
        by_value_overrides = {},
        by_value_in_template = False,
        copts = [],
        **kwargs):
    """The rule above, tagged "compile_fail": the sanitizer configs leave
    these tests out (a sanitizer changes no diagnostic, only the compile
    cost), and CI runs them again with Clang (`--config=clang
    --test_tag_filters=compile_fail`).

    by_value = True adds a second test, NAME_by_value_test for a NAME_test,
    that compiles the same source with -DSTRATA_COMPILE_FAIL_BY_VALUE and
    checks the same patterns within the same limits. The source makes its
    context through a shared fixture that reads the define (e.g.
    context/testdata/fixture.h: settings given a run-time thread count and
    passed by value through a function template, as a user's driver does),
    so one source proves both settings styles print one screen.
    by_value_overrides replaces attributes for that variant only, e.g.
    {"max_output_bytes": ...}: a limit of its own for a message that cannot
    keep the default (the BUILD file that sets it must say why), which
    still fails the test if the message grows.

    by_value_in_template = True (with by_value) adds a third test,
    NAME_by_value_in_template_test, compiled with -DSTRATA_COMPILE_FAIL_IN_TEMPLATE
    as well: the fixture's driver then writes its step function inside its
    own template (context/testdata/fixture.h), so the notes that name its
    lambdas spell the settings type; same patterns and limits as the
    by_value variant.
    """
    _cc_compile_fail_test(
        name = name,
        tags = tags + ["compile_fail"],
        copts = copts,
        **kwargs
    )
    if by_value:
        if not name.endswith("_test"):
            fail("cc_compile_fail_test(by_value = True): name must end with _test")
        variant = dict(kwargs)
        variant.update(by_value_overrides)
        _cc_compile_fail_test(
            name = name[:-len("_test")] + "_by_value_test",
            tags = tags + ["compile_fail", "by_value"],
            copts = copts + ["-D" + BY_VALUE_DEFINE],
            **variant
        )
    if by_value_in_template:
        if not by_value:
            fail("cc_compile_fail_test(by_value_in_template = True) needs by_value = True")
        _cc_compile_fail_test(
            name = name[:-len("_test")] + "_by_value_in_template_test",
            tags = tags + ["compile_fail", "by_value"],
            copts = copts + ["-D" + BY_VALUE_DEFINE, "-D" + IN_TEMPLATE_DEFINE],
            **variant
        )
