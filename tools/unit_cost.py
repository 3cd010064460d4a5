#!/usr/bin/env python3
"""Compile cost of a target's own translation units, in a bazel config.

Strata's budget: every translation unit compiles in at most 60 s and 2 GB
in every config, on a machine of two cores. This re-runs, under /usr/bin/time, the
exact compile command bazel uses (from `bazel aquery`) for each source file
of the given targets (not their dependencies), in the execution root, and
prints CPU time, wall time and the compiler's peak memory:

  tools/unit_cost.py [--config=CONFIG] [--tree=DIR] TARGET...

  tools/unit_cost.py --config=asan-ubsan //context:context_fuzz_fixed_limit_test
  tools/unit_cost.py //context:scheduler_determinism_dag32_test

--config is any .bazelrc config (default: none, i.e. fastbuild).
--tree=DIR compiles another checkout's headers with the same command (it
goes first on the quote include path; by default this workspace does, so
that headers of packages the last build did not link into the execution
root are found). For before/after comparisons run both trees alternately:
a shared machine's speed drifts.

Measure on an idle machine (no build, test or benchmark running) and say
how idle it was (`uptime`). Exits 1 if a compile fails.
"""

import argparse
import json
import os
import subprocess
import sys

from bench_report import time_compile

WORKSPACE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bazel(args):
    return subprocess.run(["bazel"] + args, cwd=WORKSPACE, check=True,
                          capture_output=True, text=True).stdout


def own_compile_actions(target, flags):
    """(source, arguments) of each CppCompile action of the target itself
    (aquery of a target lists its own actions, not its dependencies')."""
    query = f'mnemonic("CppCompile", {target})'
    actions = json.loads(
        bazel(["aquery"] + flags + ["--output=jsonproto", query]))
    for action in actions.get("actions", []):
        args = action["arguments"]
        yield args[args.index("-c") + 1], args


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="")
    parser.add_argument("--tree", default="")
    parser.add_argument("targets", nargs="+")
    options = parser.parse_args()
    flags = [f"--config={options.config}"] if options.config else []
    execroot = bazel(["info"] + flags + ["execution_root"]).strip()
    tree = os.path.abspath(options.tree or WORKSPACE)
    ok = True
    for target in options.targets:
        for source, args in own_compile_actions(target, flags):
            cost = time_compile(args, execroot, tree)
            ok &= cost["ok"]
            print(f"{options.config or 'fastbuild'}  {target}  {source}  "
                  f"cpu {cost['user']:.1f} s  wall {cost['wall']:.1f} s  "
                  f"peak {cost['rss_mib']:.0f} MiB"
                  f"{'' if cost['ok'] else '  FAILED'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
