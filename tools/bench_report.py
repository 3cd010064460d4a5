#!/usr/bin/env python3
"""Runs //benchmarks (ecs_benchmark's scenarios) and writes BENCHMARKS.md.

    tools/bench_report.py                 # full run, ~10-15 minutes on 2 cores
    tools/bench_report.py --quick         # 1 .. 16k entities only, for a check
    tools/bench_report.py --reuse         # re-render from the last JSON files

What it does:
  1. builds //benchmarks:update_benchmark and :entity_benchmark with
     --config=bench (optimized, -march=native);
  2. runs each with `bazel run ... -- --benchmark_format=json
     --benchmark_out=...`: every size below 2M with --repetitions (median
     kept), 2M once (its runs are long and its set-up dominates);
  3. measures compile time and peak compiler memory of each benchmark's main
     .cc (the exact CppCompile command bazel uses, re-run under
     /usr/bin/time -v in the execution root), and the binaries' sizes;
  4. writes BENCHMARKS.md (tables, machine, load, commands) and
     benchmarks/plots/update.{png,svg} (gnuplot).

Environment: BAZEL (default `bazel`), BAZEL_OUTPUT_BASE (passed as
--output_base when set, so the run does not share a server with other
builds). Uses only the Python standard library and gnuplot.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmarks", "results")
PLOTS = os.path.join(ROOT, "benchmarks", "plots")
TARGETS = ["update_benchmark", "entity_benchmark"]
BIG = 1 << 21  # 2M: run once

UPDATE_SCENARIOS = [
    "BM_SystemsUpdate",
    "BM_SystemsUpdateMixed",
    "BM_ComplexSystemsUpdate",
    "BM_ComplexSystemsUpdateMixed",
]
ENTITY_SCENARIOS = [
    "BM_CreateEntities",
    "BM_DestroyEntities",
    "BM_UnpackOneComponent",
    "BM_UnpackTwoComponents",
    "BM_UnpackThreeComponents",
    "BM_RemoveAddComponent",
]
IMPLS = ["baseline", "strata_1t", "strata_mt"]

# ecs_benchmark's published single-thread figures at ~1M entities (README,
# 2024, 3.13 GHz desktop), in ms.
PUBLISHED = {
    "BM_SystemsUpdate": {"EnTT": 12, "flecs": 13, "fastest": 8},
    "BM_ComplexSystemsUpdate": {"EnTT": 58, "flecs": 21, "fastest": 17},
}


def bazel_cmd():
    cmd = [os.environ.get("BAZEL", "bazel")]
    if os.environ.get("BAZEL_OUTPUT_BASE"):
        cmd.append("--output_base=" + os.environ["BAZEL_OUTPUT_BASE"])
    return cmd


def sh(cmd, **kw):
    print("+ " + " ".join(shlex.quote(c) for c in cmd), file=sys.stderr)
    return subprocess.run(cmd, cwd=ROOT, check=True, **kw)


def out(cmd):
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mhz = ""
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"cpu MHz\s*:\s*([\d.]+)", f.read())
            mhz = f"{float(m.group(1)):.0f} MHz" if m else ""
    except OSError:
        pass
    mem = ""
    with open("/proc/meminfo") as f:
        m = re.search(r"MemTotal:\s*(\d+)", f.read())
        if m:
            mem = f"{int(m.group(1)) / 1024 / 1024:.0f} GiB"
    gcc = out(["gcc", "--version"]).splitlines()[0]
    return {
        "cpu": model,
        "mhz": mhz,
        "cores": os.cpu_count(),
        "mem": mem,
        "kernel": platform.release(),
        "gcc": gcc,
    }


# ------------------------------------------------------------------- running

def run_benchmarks(min_time, repetitions, quick):
    os.makedirs(RESULTS, exist_ok=True)
    sh(bazel_cmd() + ["build", "--symlink_prefix=/", "--config=bench"] +
       [f"//benchmarks:{t}" for t in TARGETS])
    small = "/(1|1024|16384)/" if quick else "/(1|1024|16384|262144|1048576)/"
    passes = [("small", small, repetitions)]
    if not quick:
        passes.append(("big", f"/{BIG}/", 1))
    for target in TARGETS:
        for label, flt, reps in passes:
            path = os.path.join(RESULTS, f"{target}.{label}.json")
            args = [
                "--benchmark_format=json",
                f"--benchmark_out={path}",
                "--benchmark_out_format=json",
                f"--benchmark_min_time={min_time}",
                f"--benchmark_filter={flt}",
            ]
            if reps > 1:
                args += [f"--benchmark_repetitions={reps}",
                         "--benchmark_report_aggregates_only=true"]
            sh(bazel_cmd() + ["run", "--symlink_prefix=/", "--config=bench",
                              f"//benchmarks:{target}", "--"] + args,
               stdout=subprocess.DEVNULL)


def load_results(quick):
    """{scenario: {impl: {n: ns}}} from the JSON files."""
    results = {}
    cpu = {}
    context = None
    for target in TARGETS:
        for label in (["small"] if quick else ["small", "big"]):
            path = os.path.join(RESULTS, f"{target}.{label}.json")
            if not os.path.exists(path):
                continue
            with open(path) as f:
                doc = json.load(f)
            context = context or doc.get("context")
            for b in doc["benchmarks"]:
                if b.get("run_type") == "aggregate" and \
                        b.get("aggregate_name") != "median":
                    continue
                if b.get("error_occurred"):
                    continue
                parts = b["run_name"].split("/")
                scenario, impl, n = parts[0], parts[1], int(parts[2])
                scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[
                    b.get("time_unit", "ns")]
                results.setdefault(scenario, {}).setdefault(impl, {})[n] = \
                    b["real_time"] * scale
                cpu.setdefault(scenario, {}).setdefault(impl, {})[n] = \
                    b["cpu_time"] * scale
    return results, cpu, context


# ------------------------------------------------------------- compile cost

def compile_costs():
    """[(target, seconds, peak MiB, binary bytes)]"""
    costs = []
    execroot = out(bazel_cmd() + ["info", "--config=bench",
                                  "execution_root"])
    bin_dir = out(bazel_cmd() + ["info", "--config=bench", "bazel-bin"])
    for target in TARGETS:
        aq = out(bazel_cmd() + [
            "aquery", "--config=bench", "--output=jsonproto",
            f'mnemonic("CppCompile", //benchmarks:{target})'])
        actions = json.loads(aq).get("actions", [])
        if not actions:
            continue
        args = list(actions[0]["arguments"])
        tmp = tempfile.mkdtemp()
        for flag, name in (("-o", "out.o"), ("-MF", "out.d")):
            if flag in args:
                args[args.index(flag) + 1] = os.path.join(tmp, name)
        res = subprocess.run(["/usr/bin/time", "-v"] + args, cwd=execroot,
                             capture_output=True, text=True)
        wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)",
                         res.stderr)
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        res.stderr)
        user = re.search(r"User time \(seconds\): ([\d.]+)", res.stderr)
        seconds = None
        if wall:
            h = int(wall.group(1) or 0)
            seconds = h * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
        size = os.stat(os.path.join(bin_dir, "benchmarks", target)).st_size
        costs.append({
            "target": f"//benchmarks:{target}",
            "src": f"benchmarks/{target}.cc",
            "wall": seconds,
            "user": float(user.group(1)) if user else None,
            "rss_mib": int(rss.group(1)) / 1024 if rss else None,
            "bytes": size,
            "ok": res.returncode == 0,
        })
    return costs


# ------------------------------------------------------------------ report

def fmt_time(ns):
    if ns is None:
        return "—"
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


def fmt_n(n):
    return {1: "1", 1024: "1k", 16384: "16k", 262144: "256k",
            1048576: "1M", 2097152: "2M"}.get(n, str(n))


def table(scenario, data, impls, cpu):
    impls = [i for i in impls if i in data]
    sizes = sorted({n for i in impls for n in data[i]})
    head = "| entities | " + " | ".join(impls) + \
        " | strata_1t / baseline, CPU time |"
    lines = [head, "|---:|" + "---:|" * (len(impls) + 1)]
    for n in sizes:
        base = data.get("baseline", {}).get(n)
        cells = []
        for impl in impls:
            t = data[impl].get(n)
            cell = fmt_time(t)
            if impl != "baseline" and t is not None and base:
                cell += f" ({t / base:.2f}×)"
            cells.append(cell)
        cb = cpu.get("baseline", {}).get(n)
        c1 = cpu.get("strata_1t", {}).get(n)
        cells.append(f"{c1 / cb:.2f}×" if cb and c1 else "—")
        lines.append(f"| {fmt_n(n)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(results):
    os.makedirs(PLOTS, exist_ok=True)
    tmp = tempfile.mkdtemp()
    panels = []
    for scenario in UPDATE_SCENARIOS:
        data = results.get(scenario, {})
        files = []
        for impl in IMPLS:
            if impl not in data:
                continue
            path = os.path.join(tmp, f"{scenario}.{impl}.dat")
            with open(path, "w") as f:
                for n in sorted(data[impl]):
                    f.write(f"{n} {data[impl][n] / n}\n")
            files.append((impl, path))
        panels.append((scenario, files))
    styles = {"baseline": "lw 2 lc rgb '#444444' dt 2 pt 7",
              "strata_1t": "lw 2 lc rgb '#1f77b4' pt 5",
              "strata_mt": "lw 2 lc rgb '#d62728' pt 9"}
    for term, ext in (("pngcairo size 1400,1000 font 'Sans,11'", "png"),
                      ("svg size 1400,1000 dynamic font 'Sans,11'", "svg")):
        script = [f"set terminal {term}", "set termoption noenhanced",
                  f"set output '{os.path.join(PLOTS, 'update.' + ext)}'",
                  "set multiplot layout 2,2 title 'Strata vs hand-written "
                  "baseline: wall time per entity per update (lower is "
                  "better; log x)'",
                  "set logscale x", "set logscale y", "set grid",
                  "set key top right", "set yrange [*:*]",
                  "set xlabel 'entities'",
                  "set ylabel 'ns per entity (log)'",
                  "set format y '%g'",
                  "set xtics ('1' 1, '1k' 1024, '16k' 16384, '256k' 262144, "
                  "'1M' 1048576, '2M' 2097152)"]
        for scenario, files in panels:
            script.append(f"set title '{scenario[3:]}'")
            if not files:
                continue
            parts = [f"'{p}' using 1:2 with linespoints {styles[i]} "
                     f"title '{i}'" for i, p in files]
            script.append("plot " + ", ".join(parts))
        script.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(script), text=True,
                       check=True)


def write_report(results, cpu, context, info, load_before, load_after, costs,
                 args, started, finished):
    L = []
    L.append("# Strata benchmarks: ecs_benchmark's scenarios\n")
    L.append(
        "Generated by `tools/bench_report.py` from `//benchmarks` "
        "(issue 11). Every figure below was measured on the machine "
        "described here, Strata and a hand-written baseline in the same "
        "binary and the same run. Times are wall-clock per run (one update "
        "of every system, or one pass over N entities); `(n×)` is the "
        "ratio to the baseline (lower is better, 1.00× = as fast as the "
        "hand-written loop). The last column of each table is the "
        "single-thread ratio in CPU time, which time slicing by other "
        "processes on this shared machine does not inflate: when wall and "
        "CPU ratios disagree, trust the CPU one for strata_1t.\n")
    L.append("## Machine and run\n")
    L.append(f"* CPU: {info['cpu']} ({info['mhz']}), {info['cores']} "
             f"logical cores, {info['mem']} RAM; Linux {info['kernel']}")
    if context:
        caches = ", ".join(
            f"L{c['level']} {c['type'][0].lower()} {c['size'] // 1024} KiB"
            for c in context.get("caches", []))
        L.append(f"* Caches (Google Benchmark): {caches}")
    L.append(f"* Compiler: {info['gcc']}; `--config=bench` (`-c opt "
             "-march=native -fno-omit-frame-pointer`), Google Benchmark 1.7.1 "
             "(Debian)")
    L.append(f"* Load average (1/5/15 min) before the run: {load_before}; "
             f"after: {load_after}. The 2 cores are shared with other "
             "builds, so single figures can be off by 10–30 %; the ratios "
             "in one row were measured back to back.")
    L.append(f"* Run: {started} → {finished} (UTC); "
             f"`--benchmark_min_time={args.min_time}`, sizes below 2M "
             f"median of {args.repetitions} repetitions, 2M one repetition.")
    L.append("")
    L.append("Reproduce (from the repository root):\n")
    L.append("```sh\ntools/bench_report.py            # this whole file\n"
             "bazel run --config=bench //benchmarks:update_benchmark -- "
             "--benchmark_format=json --benchmark_out=/tmp/update.json\n"
             "bazel run --config=bench //benchmarks:entity_benchmark -- "
             "--benchmark_filter='/1048576/'\n```\n")
    L.append("## What is measured\n")
    L.append(
        "Scenarios, components and systems follow ecs_benchmark "
        "(github.com/abeimler/ecs_benchmark) as closely as its description "
        "allows; the exact definitions (component structs, per-entity "
        "kernels, which entities lack which components in the *Mixed* "
        "variants) are at the top of `benchmarks/scenario.h`. Strata's "
        "systems and the baseline call the same inline per-entity kernels, "
        "so only the iteration and storage machinery differ.\n")
    L.append(
        "* **baseline**: plain SoA `std::vector`s indexed by entity, raw "
        "pointers hoisted, dense `for` loops; for the *Mixed* worlds one "
        "precomputed index list per system (what a careful engineer writes "
        "for a fixed component mix); for entity operations a free list, a "
        "version per index and a presence byte per entity.\n"
        "* **strata_1t**: `threads(1)`, sequential scheduler, "
        "`dynamic_entity_limit`, every component in its own SoA contiguous "
        "buffer. A run is one `ctx.step()` (systems + the refresh).\n"
        "* **strata_mt**: `threads(0)` (all hardware threads: "
        f"{info['cores']} here), atomic-counter scheduler, "
        "`allow_inner_parallelism()` with "
        "`ipc::none_below_threshold(4096, ips::split_evenly_per_core())`; "
        "render is never split (one frame buffer).\n"
        "* Set-up (creating the entities) is outside the timed region of "
        "the update and unpack scenarios. Entity counts are powers of two: "
        "1k = 1024, 1M = 1,048,576, 2M = 2,097,152.\n")

    L.append("## Update scenarios\n")
    L.append("![time per entity vs entity count](benchmarks/plots/update.png)\n")
    L.append("(also `benchmarks/plots/update.svg`)\n")
    for scenario in UPDATE_SCENARIOS:
        if scenario in results:
            L.append(f"### {scenario[3:]}\n")
            L.append(table(scenario, results[scenario], IMPLS,
                           cpu.get(scenario, {})))
            L.append("")

    L.append("### Against ecs_benchmark's published figures (1M entities)\n")
    L.append(
        "Published single-thread figures come from a different machine "
        "(3.13 GHz desktop, 2024) and a different harness, and our component "
        "and system definitions are our reading of theirs: compare orders "
        "of magnitude, not percentages. The hand-written baseline column is "
        "the fairest yardstick for *this* machine.\n")
    L.append("| scenario | baseline (here) | strata_1t (here) | strata_mt "
             "(here) | EnTT (pub.) | flecs (pub.) | fastest (pub.) |")
    L.append("|---|---:|---:|---:|---:|---:|---:|")
    for scenario, pub in PUBLISHED.items():
        d = results.get(scenario, {})
        cells = [fmt_time(d.get(i, {}).get(1 << 20)) for i in IMPLS]
        L.append(f"| {scenario[3:]} | " + " | ".join(cells) +
                 f" | {pub['EnTT']} ms | {pub['flecs']} ms | "
                 f"{pub['fastest']} ms |")
    L.append("")

    L.append("## Entity scenarios (one thread)\n")
    for scenario in ENTITY_SCENARIOS:
        if scenario in results:
            L.append(f"### {scenario[3:]}\n")
            L.append(table(scenario, results[scenario],
                           ["baseline", "strata_1t"], cpu.get(scenario, {})))
            L.append("")

    if costs:
        L.append("## Compile time and binary size\n")
        L.append(
            "Each benchmark's main `.cc` compiled with the exact command "
            "bazel uses (`bazel aquery --config=bench`), re-run under "
            "`/usr/bin/time -v` in the execution root (everything else "
            "these binaries compile — `base/check.cc`, the thread pool — is "
            "shared and small). Peak memory is the compiler's maximum "
            "resident set. Binary size: `stat` of the linked, unstripped "
            "binary.\n")
        L.append("| target | compile wall | compile user | peak compiler "
                 "RSS | binary size |")
        L.append("|---|---:|---:|---:|---:|")
        for c in costs:
            wall = f"{c['wall']:.1f} s" if c["wall"] is not None else "—"
            user = f"{c['user']:.1f} s" if c["user"] is not None else "—"
            rss = f"{c['rss_mib']:.0f} MiB" if c["rss_mib"] else "—"
            L.append(f"| `{c['target']}` | {wall} | {user} | {rss} | "
                     f"{c['bytes'] / 1024:.0f} KiB |")
        L.append("")

    notes = os.path.join(ROOT, "benchmarks", "ANALYSIS.md")
    if os.path.exists(notes):
        with open(notes) as f:
            L.append(f.read().rstrip() + "\n")

    with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as f:
        f.write("\n".join(L).rstrip() + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--min-time", default="0.2")
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--quick", action="store_true",
                   help="1 .. 16k entities only")
    p.add_argument("--reuse", action="store_true",
                   help="do not run; render from benchmarks/results/*.json")
    p.add_argument("--no-compile-cost", action="store_true")
    args = p.parse_args()

    now = lambda: datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")
    started = now()
    load_before = loadavg()
    if not args.reuse:
        run_benchmarks(args.min_time, args.repetitions, args.quick)
    load_after = loadavg()
    finished = now()
    results, cpu, context = load_results(args.quick)
    meta_path = os.path.join(RESULTS, "run.json")
    if args.reuse and os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        started, finished = meta["started"], meta["finished"]
        load_before, load_after = meta["load_before"], meta["load_after"]
    else:
        os.makedirs(RESULTS, exist_ok=True)
        with open(meta_path, "w") as f:
            json.dump({"started": started, "finished": finished,
                       "load_before": load_before,
                       "load_after": load_after}, f)
    costs = [] if args.no_compile_cost else compile_costs()
    plot(results)
    write_report(results, cpu, context, machine(), load_before, load_after, costs,
                 args, started, finished)
    print(os.path.join(ROOT, "BENCHMARKS.md"))


if __name__ == "__main__":
    main()
