#!/usr/bin/env python3
"""Runs Strata's benchmarks and writes BENCHMARKS.md.

    tools/bench_report.py                    # everything
    tools/bench_report.py --only scheduler   # run a subset (update, entity,
                                             # scheduler, threading,
                                             # compile, snapshot, change,
                                             # damage, hierarchy, order);
                                             # the
                                             # others are re-rendered from
                                             # their stored JSON
    tools/bench_report.py --quick            # update/entity: 1 .. 16k only
    tools/bench_report.py --reuse            # run nothing; re-render from
                                             # benchmarks/results/*.json

Groups (each one binary, built and run with --config=bench):
  update     //benchmarks:update_benchmark: the four update scenarios of
             ecs_benchmark, implementations baseline, baseline_mt, strata_1t,
             strata_1t_ids, strata_mt, plus strata_mt oversubscribed
             (strata_mt_threads, 2/8/16 threads at 256k) and steps a frame
             apart (BM_Spaced*: strata_1t and strata_mt, 2 ms between);
  entity     //benchmarks:entity_benchmark: create/destroy/unpack/remove-add;
  scheduler  //scheduler:scheduler_benchmark, filter
             'Overhead/.*/16/|Overhead/plain_loop/16|Idle': per-step
             scheduler overhead and idle CPU between steps;
  threading  //threading:thread_pool_benchmark, filter
             'Contention|HandOff|JoinLatency': the
             work-stealing pool against the shared moodycamel queue it
             replaced, a mutex queue, and the same pool design on
             moodycamel queues (MoodycamelPool) at 2..64 threads;
  compile    //benchmarks/compile: generated user programs, compile cost
             only (nothing to run);
  snapshot   //benchmarks:snapshot_benchmark: snapshot, restore, save, load
             and the state hash at 16k/256k/1M entities against memcpy and
             a hand-written std::vector copy;
  change     //benchmarks:change_benchmark: what change tracking adds to
             SystemsUpdate (1 .. 2M entities), a .changed() reader of
             1% moved entities against a hand-written dirty list, and
             add_component with on_add / on_remove hooks against a
             hand-written call per add;
  damage     //benchmarks:damage_benchmark: every entity damages a random
             other one through the effect channel (16k/256k/1M), Strata at
             1 and 2 threads against a direct hand-written loop and
             per-thread buffers merged in order.
  hierarchy  //benchmarks:hierarchy_benchmark: transform propagation over a
             forest (1k .. 1M entities) in a system in hierarchy order on 1
             and 2 threads against a hand-written loop over depth-sorted
             arrays, and the cost of re-parenting (1 % per step, and 1000
             per step at every size).
  order      //benchmarks:order_benchmark: a system declared .ordered_by()
             when 1 % of the keys change per step (16k/256k/1M), at 1 and 2
             threads, against a full std::sort of the same keys each step
             and against the same system without an order.

What it does:
  1. builds the selected binaries (one `bazel build`);
  2. runs each with `bazel run ... -- --benchmark_format=json
     --benchmark_out=...`: every pass with --repetitions (median kept) and
     --benchmark_enable_random_interleaving=true, except the 2M-entity pass
     of update/entity (run once: its runs are long and its set-up dominates);
     update_benchmark caches its world between runs of one benchmark
     (cached_world in benchmarks/scenario.h), interleaving just rebuilds it,
     which is untimed;
  3. for update/entity, measures compile time and peak compiler memory of the
     main .cc (the exact CppCompile command bazel uses, re-run under
     /usr/bin/time -v in the execution root) and the binary's size;
  4. writes BENCHMARKS.md (tables, machine, load, commands) and
     benchmarks/plots/update.{png,svg} (gnuplot).
Run metadata (times, load, machine) and compile costs are stored next to the
JSON (run.json, compile_cost.json), so --reuse renders the same report.

Duration, defaults (--min-time 0.2 --repetitions 5): each repetition of a
benchmark costs min_time plus Google Benchmark's iteration sizing. update:
103 benchmarks x 5 + 20 at 2M (plus rebuilding the interleaved 1M worlds);
entity: 60 x 5 + 12; scheduler: 13 x 5 + the idle pair (2 x 5 x 10 sleeps of
100 ms); threading: 31 x 5; snapshot: 21 x 5; change: 27 x 5 (the
tracking pair up to 2M); hierarchy: 18 x 5; order: 12 x 5. Add the builds and the
compile-cost measurement, and more on a loaded machine; --only and --quick
shorten a run.

The report is generated only. Why Strata is slower where it is, gap by gap,
is hand-written in benchmarks/ANALYSIS.md; the report links to it.

Environment: BAZEL (default `bazel`), BAZEL_OUTPUT_BASE (passed as
--output_base when set, so the run does not share a server with other
builds). Uses only the Python standard library and gnuplot.
"""

import argparse
import collections
import datetime
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_RESULTS = os.path.join(ROOT, "benchmarks", "results")
DEFAULT_PLOTS = os.path.join(ROOT, "benchmarks", "plots")
DEFAULT_REPORT = os.path.join(ROOT, "BENCHMARKS.md")

# ------------------------------------------------------------------ groups

GROUPS = ["update", "entity", "scheduler", "threading", "compile", "snapshot",
          "change", "damage", "hierarchy", "order"]
TARGETS = {
    "update": "//benchmarks:update_benchmark",
    "entity": "//benchmarks:entity_benchmark",
    "scheduler": "//scheduler:scheduler_benchmark",
    "threading": "//threading:thread_pool_benchmark",
    # Nothing to run: generated user programs whose compile cost is measured.
    "compile": "//benchmarks/compile:all",
    "snapshot": "//benchmarks:snapshot_benchmark",
    "change": "//benchmarks:change_benchmark",
    "damage": "//benchmarks:damage_benchmark",
    "hierarchy": "//benchmarks:hierarchy_benchmark",
    "order": "//benchmarks:order_benchmark",
}
COMPILE_PROGRAMS = [
    "//benchmarks/compile:include_only",
    "//benchmarks/compile:game_8x12",
    "//benchmarks/compile:game_8x12_by_value",
    "//benchmarks/compile:game_8x12_run_time_choice",
] + [f"//benchmarks/compile:game_8x12_{feature}" for feature in [
    "messages", "change_filter", "hooks", "hierarchy", "snapshots"]] + [
    "//benchmarks/compile:large_64x32",
    "//benchmarks/compile:hand_written_8x12",
    "//benchmarks/compile:hand_written_64x32",
]
# The hand-written program (no Strata) each generated program is compared
# with: the same components, loops and total.
HAND_WRITTEN_OF = {
    program: "//benchmarks/compile:hand_written_8x12"
    for program in COMPILE_PROGRAMS if ":game_8x12" in program}
HAND_WRITTEN_OF["//benchmarks/compile:large_64x32"] = (
    "//benchmarks/compile:hand_written_64x32")
# A variant of the 8x12 game is also compared with the plain game: what
# passing the settings by value, a run-time scheduler or a feature adds.
PLAIN_GAME = "//benchmarks/compile:game_8x12"
SIZES = [1, 1 << 10, 1 << 14, 1 << 18, 1 << 20, 1 << 21]
BIG = 1 << 21  # 2M: run once
COMPILE_RUNS = 5  # compiles per program; the fastest one is reported
SMALL_FILTER = "/(1|1024|16384|262144|1048576)/"
QUICK_FILTER = "/(1|1024|16384)/"
SCHEDULER_FILTER = "Overhead/.*/16/|Overhead/plain_loop/16|Idle"
THREADING_FILTER = "Contention|HandOff|JoinLatency"
# The groups run in one pass, with the filter of each.
FILTERS = {
    "scheduler": SCHEDULER_FILTER,
    "threading": THREADING_FILTER,
    "snapshot": "Snapshot|Restore|Save|Load|StateHash",
    "change": "SystemsUpdateTracking|ChangedOnePercent|AddComponentHook",
    "damage": "BM_Damage",
    "hierarchy": "Propagate|Reparent",
    "order": "BM_Order",
}

# One `bazel run` of a group: results file (without .json), filter,
# repetitions.
Pass = collections.namedtuple("Pass", "file filter repetitions")


def target_name(group):
    return TARGETS[group].split(":")[1]


def passes(group, quick, repetitions):
    if group == "compile":
        return []
    name = target_name(group)
    if group in ("update", "entity"):
        result = [Pass(f"{name}.small", QUICK_FILTER if quick else SMALL_FILTER,
                       repetitions)]
        if not quick:
            result.append(Pass(f"{name}.big", f"/{BIG}/", 1))
        return result
    return [Pass(name, FILTERS[group], repetitions)]


def benchmark_args(p, min_time, out_path=None):
    """Google Benchmark flags of one pass."""
    args = ["--benchmark_format=json"]
    if out_path:
        args += [f"--benchmark_out={out_path}", "--benchmark_out_format=json"]
    args += [f"--benchmark_min_time={min_time}",
             f"--benchmark_filter={p.filter}"]
    if p.repetitions > 1:
        args += [f"--benchmark_repetitions={p.repetitions}",
                 "--benchmark_report_aggregates_only=true",
                 "--benchmark_enable_random_interleaving=true"]
    return args


# ----------------------------------------------------------- what we report

UPDATE_SCENARIOS = [
    "BM_SystemsUpdate",
    "BM_SystemsUpdateMixed",
    "BM_ComplexSystemsUpdate",
    "BM_ComplexSystemsUpdateMixed",
]
ENTITY_SCENARIOS = [
    "BM_CreateEntities",
    "BM_CreateEntitiesWarm",
    "BM_DestroyEntities",
    "BM_UnpackOneComponent",
    "BM_UnpackTwoComponents",
    "BM_UnpackThreeComponents",
    "BM_RemoveAddComponent",
]
IMPLS = ["baseline", "baseline_mt", "strata_1t", "strata_1t_ids", "strata_mt"]
PLOT_STYLES = {
    "baseline": "lw 2 lc rgb '#444444' dt 2 pt 7",
    "baseline_mt": "lw 2 lc rgb '#888888' dt 3 pt 6",
    "strata_1t": "lw 2 lc rgb '#1f77b4' pt 5",
    "strata_1t_ids": "lw 2 lc rgb '#17becf' dt 4 pt 4",
    "strata_mt": "lw 2 lc rgb '#d62728' pt 9",
}

OVERSUB_N = 1 << 18
OVERSUB_THREADS = [2, 8, 16]
OVERSUB_GOAL = 1.5           # T threads within 1.5x of 2 threads
MT_SLOWER_MARK = 1.1         # strata_mt above 1.1x strata_1t is flagged
BANDWIDTH_FROM = 1 << 18     # speed-up and bandwidth from 256k entities

SHAPES = ["chain", "layers", "independent"]
# (column title, scheduler in the benchmark name, threads, goal in ns or None)
SCHEDULER_COLUMNS = [
    ("sequential, 1 thread", "sequential", 1, 400),
    ("atomic_counter, 1 thread", "atomic_counter", 1, None),
    ("atomic_counter, 2 threads (hand_off::automatic)", "atomic_counter", 2,
     2000),
    ("atomic_counter, 2 threads, hand_off::always", "atomic_counter_always", 2,
     2000),
]
IDLE_THREADS = [1, 2]
CONTENTION_KINDS = ["Pool", "SharedQueue", "MutexQueue"]
JOIN_TASK_US = [2, 10, 50]
CONTENTION_THREADS = [2, 8, 16, 64]
COLLAPSE_FACTOR = 2.0  # per-task cost more than doubling = collapse

# ecs_benchmark's published single-thread figures at ~1M entities (README,
# 2024, 3.13 GHz desktop), in ms.
PUBLISHED = {
    "BM_SystemsUpdate": {"EnTT": 12, "flecs": 13, "fastest": 8},
    "BM_ComplexSystemsUpdate": {"EnTT": 58, "flecs": 21, "fastest": 17},
}

# ------------------------------------------- memory traffic model (bandwidth)

# sizeof of benchmarks/scenario.h's components on x86-64 (data: int, pad,
# double, bool, pad, two uint32 = 28, rounded up to its 8-byte alignment).
COMPONENT_BYTES = {"position": 8, "velocity": 8, "data": 32, "player": 8,
                   "health": 12, "damage": 8, "sprite": 1}
# (read, written) components of each system, as its signature declares them
# in scenario.h (a written component is also read).
SYSTEM_ACCESS = {
    "movement": (["velocity"], ["position"]),
    "data": ([], ["data"]),
    "more_complex": (["position"], ["velocity", "data"]),
    "health": ([], ["health"]),
    "damage": (["damage"], ["health"]),
    "sprite": (["player", "health"], ["sprite"]),
    "render": (["position", "sprite"], []),
}
SCENARIO_SYSTEMS = {
    "BM_SystemsUpdate": ["movement", "data"],
    "BM_SystemsUpdateMixed": ["movement", "data"],
    "BM_ComplexSystemsUpdate": list(SYSTEM_ACCESS),
    "BM_ComplexSystemsUpdateMixed": list(SYSTEM_ACCESS),
}
SCENARIO_MIX = {
    "BM_SystemsUpdate": "full",
    "BM_SystemsUpdateMixed": "mixed",
    "BM_ComplexSystemsUpdate": "complex",
    "BM_ComplexSystemsUpdateMixed": "complex_mixed",
}


def has_component(mix, i, component):
    """Whether entity i of a mix has the component (scenario.h make_init)."""
    if component == "position":
        return True
    if mix in ("full", "complex") and component in ("velocity", "data"):
        return True
    if mix == "full":
        return False
    if mix == "mixed":
        return {"velocity": i % 3 != 0, "data": i % 2 == 0}.get(component,
                                                                  False)
    if mix == "complex":
        return True
    # complex_mixed
    return {"velocity": i % 4 != 3, "data": i % 2 == 0,
            "player": i % 3 != 2, "health": i % 3 != 2, "sprite": i % 3 != 2,
            "damage": i % 3 == 0}[component]


def share_with(mix, components):
    """Share of entities having all the components (the mixes repeat every
    12 entities)."""
    hits = sum(all(has_component(mix, i, c) for c in components)
               for i in range(12))
    return hits / 12


def traffic_bytes_per_entity(scenario):
    """Bytes read + written per entity of the world per update: for each
    system, every accessed component once (read) plus every written one once
    more (written back), times the share of entities the system visits."""
    mix = SCENARIO_MIX[scenario]
    total = 0.0
    for system in SCENARIO_SYSTEMS[scenario]:
        reads, writes = SYSTEM_ACCESS[system]
        moved = sum(COMPONENT_BYTES[c] for c in reads + writes) + \
            sum(COMPONENT_BYTES[c] for c in writes)
        total += moved * share_with(mix, reads + writes)
    return total


def working_set_bytes_per_entity(scenario):
    """Component bytes stored per entity (each component once)."""
    mix = SCENARIO_MIX[scenario]
    used = {c for s in SCENARIO_SYSTEMS[scenario] for c in sum(
        SYSTEM_ACCESS[s], [])}
    return sum(COMPONENT_BYTES[c] * share_with(mix, [c]) for c in used)


# ------------------------------------------------------------------ helpers

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


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M")


def loadavg():
    """The 1/5/15-minute load averages, as `uptime` prints them."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def machine():
    text = read_text("/proc/cpuinfo")
    model = re.search(r"model name\s*:\s*(.*)", text)
    mhz = re.search(r"cpu MHz\s*:\s*([\d.]+)", text)
    mem = re.search(r"MemTotal:\s*(\d+)", read_text("/proc/meminfo"))
    try:
        gcc = out(["gcc", "--version"]).splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        gcc = "unknown"
    return {
        "cpu": model.group(1).strip() if model else "unknown",
        "mhz": f"{float(mhz.group(1)):.0f} MHz" if mhz else "",
        "cores": os.cpu_count(),
        "mem": f"{int(mem.group(1)) / 1024 / 1024:.0f} GiB" if mem else "",
        "kernel": platform.release(),
        "gcc": gcc,
    }


def load_json(path, default):
    if not os.path.exists(path):
        return default
    with open(path) as f:
        return json.load(f)


def save_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1)


# ------------------------------------------------------------------- running

def build(groups):
    sh(bazel_cmd() + ["build", "--symlink_prefix=/", "--config=bench"] +
       [TARGETS[g] for g in groups])


def run_group(group, results_dir, args):
    """Runs one group's passes; returns its run metadata."""
    meta = {"started": now(), "load_before": loadavg(),
            "min_time": args.min_time, "repetitions": args.repetitions,
            "quick": args.quick and group in ("update", "entity")}
    for p in passes(group, args.quick, args.repetitions):
        path = os.path.join(results_dir, p.file + ".json")
        sh(bazel_cmd() + ["run", "--symlink_prefix=/", "--config=bench",
                          TARGETS[group], "--"] +
           benchmark_args(p, args.min_time, path),
           stdout=subprocess.DEVNULL)
    meta["finished"] = now()
    meta["load_after"] = loadavg()
    return meta


def run_selected(groups, results_dir, args):
    """Builds and runs the groups; stores run.json (kept for other groups)."""
    os.makedirs(results_dir, exist_ok=True)
    meta_path = os.path.join(results_dir, "run.json")
    meta = upgrade_meta(load_json(meta_path, {}))
    meta["machine"] = machine()
    build(groups)
    for group in groups:
        meta["groups"][group] = run_group(group, results_dir, args)
        save_json(meta_path, meta)
    return meta


def upgrade_meta(meta):
    """run.json of an older version (one flat record for update + entity)."""
    if "groups" in meta:
        return meta
    upgraded = {"groups": {}}
    if "started" in meta:
        for group in ("update", "entity"):
            upgraded["groups"][group] = dict(meta)
    return upgraded


# ------------------------------------------------------------ loading results

STANDARD_FIELDS = {"name", "run_name", "run_type", "aggregate_name",
                   "aggregate_unit", "time_unit", "label", "error_message",
                   "real_time", "cpu_time"}
TIME_SCALE = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def canonical(run_name):
    """A run name without Google Benchmark's trailing modifiers:
    'Idle/sleep_100ms/threads/2/iterations:10/real_time' ->
    'Idle/sleep_100ms/threads/2'."""
    return re.sub(r"(/(iterations:\d+|repeats:\d+|min_time:[^/]+|real_time|"
                  r"manual_time))+$", "", run_name)


def record(b):
    """real and cpu time in ns, plus every numeric field (counters: for
    duplicated keys such as `threads` the JSON parser keeps the counter,
    which comes last)."""
    scale = TIME_SCALE.get(b.get("time_unit", "ns"), 1)
    rec = {k: v for k, v in b.items()
           if k not in STANDARD_FIELDS and isinstance(v, (int, float))}
    rec["real"] = b["real_time"] * scale
    rec["cpu"] = b["cpu_time"] * scale
    return rec


def median_record(records):
    keys = set.intersection(*(set(r) for r in records))
    return {k: statistics.median(r[k] for r in records) for k in keys}


class Results:
    """Median real/CPU time (ns) and counters of every run, by canonical
    name ('BM_SystemsUpdate/strata_mt/262144')."""

    def __init__(self):
        self.runs = {}
        self.context = None

    def add_file(self, path):
        if not os.path.exists(path):
            return
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"warning: {path}: {e}", file=sys.stderr)
            return
        self.context = self.context or doc.get("context")
        medians, samples = {}, {}
        for b in doc.get("benchmarks", []):
            if b.get("error_occurred") or "real_time" not in b:
                continue
            key = canonical(b.get("run_name", b.get("name", "")))
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[key] = record(b)
            else:
                samples.setdefault(key, []).append(record(b))
        for key, recs in samples.items():
            medians.setdefault(key, median_record(recs))
        self.runs.update(medians)

    def get(self, name, field="real"):
        value = self.runs.get(name, {}).get(field)
        return value if isinstance(value, (int, float)) else None


def load_results(results_dir, quick):
    results = Results()
    for group in GROUPS:
        for p in passes(group, quick, 2):
            results.add_file(os.path.join(results_dir, p.file + ".json"))
    return results


def update_name(scenario, impl, n):
    return f"{scenario}/{impl}/{n}"


# ------------------------------------------------------------- compile cost

def compile_costs(groups):
    """[{target, src, wall, user, rss_mib, bytes, ok}] of the update/entity
    binaries among the groups, and, if the compile group is among them, of
    those binaries and the generated user programs (every row of the
    table, so that `--only compile` renews it all)."""
    targets = [TARGETS[g] for g in GROUPS
               if g in ("update", "entity") and
               (g in groups or "compile" in groups)]
    if "compile" in groups:
        targets += COMPILE_PROGRAMS
    if not targets:
        return []
    execroot = out(bazel_cmd() + ["info", "--config=bench",
                                  "execution_root"])
    bin_dir = out(bazel_cmd() + ["info", "--config=bench", "bazel-bin"])
    commands = {}
    for target in targets:
        args = compile_command(target)
        if args:
            commands[target] = args
    # Rounds over every program, not one program's runs back to back: a
    # slow phase of the machine then slows one run of each, not every run
    # of one, and each program keeps its fastest.
    runs = collections.defaultdict(list)
    for _ in range(COMPILE_RUNS):
        for target, args in commands.items():
            runs[target].append(time_compile(args, execroot))
    return [compile_cost(target, runs[target], bin_dir)
            for target in commands]


def compile_command(target):
    """The arguments of `target`'s CppCompile action, or None."""
    aq = out(bazel_cmd() + ["aquery", "--config=bench", "--output=jsonproto",
                            f'mnemonic("CppCompile", {target})'])
    actions = json.loads(aq).get("actions", [])
    return actions[0]["arguments"] if actions else None


def compile_cost(target, runs, bin_dir):
    """`target`'s row from its timed runs: the fastest one."""
    ok = all(r["ok"] for r in runs)
    if not ok:
        print(f"compile cost of {target}: the compile failed; not reported",
              file=sys.stderr)
    timed = [r for r in runs if r["user"] is not None and r["ok"]]
    best = min(timed, key=lambda r: r["user"]) if timed else runs[0]
    package, name = target[2:].split(":")
    path = os.path.join(bin_dir, package, name)
    return {
        "target": target,
        "src": f"{package}/{name}.cc",
        "wall": best["wall"],
        "user": best["user"],
        "rss_mib": best["rss_mib"],
        "bytes": os.stat(path).st_size if os.path.exists(path) else None,
        "ok": ok,
    }


def time_compile(args, execroot, tree=ROOT):
    """One run of a compile command (bazel's arguments, run in `execroot`)
    under /usr/bin/time -v, its outputs redirected to a scratch directory.
    `tree`'s headers go first on the quote include path: the execution root
    links only the packages of the last build, which may not have included
    every header this file uses (and tools/unit_cost.py --tree compiles
    another checkout's headers this way)."""
    args = args[:1] + ["-iquote", tree] + args[1:]
    # The source itself, when its package is not linked there either (a
    # generated one lives under bazel-out/, which always is).
    if "-c" in args:
        i = args.index("-c") + 1
        if not os.path.exists(os.path.join(execroot, args[i])) and \
                os.path.exists(os.path.join(tree, args[i])):
            args[i] = os.path.join(tree, args[i])
    scratch = tempfile.mkdtemp()
    for flag, name in (("-o", "out.o"), ("-MF", "out.d")):
        if flag in args:
            args[args.index(flag) + 1] = os.path.join(scratch, name)
    res = subprocess.run(["/usr/bin/time", "-v"] + args, cwd=execroot,
                         capture_output=True, text=True)
    wall = re.search(
        r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)",
        res.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                    res.stderr)
    user = re.search(r"User time \(seconds\): ([\d.]+)", res.stderr)
    seconds = None
    if wall:
        seconds = int(wall.group(1) or 0) * 3600 + \
            int(wall.group(2)) * 60 + float(wall.group(3))
    return {
        "wall": seconds,
        "user": float(user.group(1)) if user else None,
        "rss_mib": int(rss.group(1)) / 1024 if rss else None,
        "ok": res.returncode == 0,
    }


def store_compile_costs(results_dir, costs):
    """Merges new measurements into compile_cost.json; returns them all."""
    path = os.path.join(results_dir, "compile_cost.json")
    stored = {c["target"]: c for c in load_json(path, [])}
    stored.update({c["target"]: c for c in costs})
    merged = [stored[t] for t in sorted(stored)]
    if costs:
        save_json(path, merged)
    return merged


# ---------------------------------------------------------------- formatting

DASH = "—"


def fmt_time(ns):
    if ns is None:
        return DASH
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(r):
    return DASH if r is None else f"{r:.2f}×"


def fmt_n(n):
    return {1: "1", 1024: "1k", 16384: "16k", 262144: "256k",
            1048576: "1M", 2097152: "2M"}.get(n, str(n))


def fmt_count(x):
    return DASH if x is None else f"{x:g}"


def goal_mark(value, goal):
    """ ✓ / ✗ against a ceiling, nothing when either is missing."""
    if value is None or goal is None:
        return ""
    return " ✓" if value <= goal else " ✗"


def md_table(head, rows, align=None):
    align = align or ["---:"] * len(head)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def threads_used(results, impl):
    """The distinct values of an implementation's `threads` counter over the
    update scenarios ('2', '1/2', or '?' when never reported)."""
    names = [update_name(s, impl, n) for s in UPDATE_SCENARIOS for n in SIZES]
    seen = sorted({int(t) for t in (results.get(n, "threads") for n in names)
                   if t is not None})
    return "/".join(str(t) for t in seen) if seen else "?"


# ------------------------------------------------------- source facts (text)

def tidy(code):
    """A C++ expression on one line, without the strata:: prefixes."""
    code = re.sub(r"\(\s+", "(", " ".join(code.split()))
    return code.replace("strata::", "")


def source_facts():
    """What benchmarks/scenario.h and scheduler/hand_off.h configure for
    strata_mt, read from the sources so the report cannot drift."""
    scenario = read_text(os.path.join(ROOT, "benchmarks", "scenario.h"))
    hand_off = read_text(os.path.join(ROOT, "scheduler", "hand_off.h"))
    split = re.search(r"kSplit\s*=\s*(.*?);", scenario, re.S)
    render = re.search(r"(?:ss|system_signature)::make\(st::render<A>\)(.*?);",
                       scenario, re.S)
    # .parallelism(<expression with at most one level of parentheses>)
    render_par = re.search(r"\.parallelism\(([^()]*(?:\([^()]*\)[^()]*)*)\)",
                           render.group(1)) if render else None
    settings_mt = re.search(r"settings_mt\(.*?\{(.*?)\n\}", scenario, re.S)

    def constant(name):
        m = re.search(name + r"\s*=\s*([\d']+)", hand_off)
        return int(m.group(1).replace("'", "")) if m else None

    return {
        "split": tidy(split.group(1)) if split else None,
        "render_found": render is not None,
        "render_parallelism": tidy(render_par.group(1))
        if render_par else None,
        "hand_off_set": bool(settings_mt and
                             ".hand_off(" in settings_mt.group(1)),
        "hand_off_ns": constant("kHandOffNs"),
        "inline_step_ns": constant("kInlineStepNs"),
        "min_subtask_ns": constant("kMinSubtaskNs"),
    }


# ------------------------------------------------------------------ sections

def section_header(analysis_link):
    return [
        "# Strata benchmarks\n",
        "Generated by `tools/bench_report.py` from `//benchmarks` (ecs_benchmark's "
        "scenarios), `//scheduler:scheduler_benchmark` and "
        "`//threading:thread_pool_benchmark`. Every figure below was "
        "measured on the machine described here, Strata and a hand-written "
        "baseline in the same binary and the same run. Times are wall-clock "
        "per run (one update of every system, or one pass over N entities), "
        "medians of the repetitions; `(n×)` is the ratio to the baseline "
        "(lower is better, 1.00× = as fast as the hand-written loop). The last "
        "column of each table is the single-thread ratio in CPU time, which "
        "time slicing by other processes on this shared machine does not "
        "inflate: when wall and CPU ratios disagree, trust the CPU one for "
        "strata_1t. Google Benchmark's CPU time is the *calling thread's* "
        "(worker threads are not counted), so for threaded runs it measures "
        "what the caller did, not the total work. A missing figure "
        f"(not run, failed, or filtered out) is shown as {DASH}.\n",
        "Where Strata is slower than the hand-written baseline or a peer, and "
        f"why: [Known gaps and why]({analysis_link}) (hand-written, not "
        "generated; it names the rows below that show each gap).\n",
    ]


def section_machine(info, context, meta):
    L = ["## Machine and run\n",
         f"* CPU: {info.get('cpu')} ({info.get('mhz')}), {info.get('cores')} "
         f"logical cores, {info.get('mem')} RAM; Linux {info.get('kernel')}"]
    if context:
        caches = ", ".join(
            f"L{c['level']} {c['type'][0].lower()} {c['size'] // 1024} KiB"
            for c in context.get("caches", []))
        L.append(f"* Caches (Google Benchmark): {caches}")
    L.append(f"* Compiler: {info.get('gcc')}; `--config=bench` (`-c opt "
             "-march=native -fno-omit-frame-pointer`), Google Benchmark 1.7.1 "
             "(Debian)")
    L.append("* The cores are shared with other builds, so single figures can "
             "be off by 10–30 %; the ratios in one row were measured in the "
             "same run, repetitions randomly interleaved.")
    L.append("* Runs (UTC) and load average (1/5/15 min, as `uptime` prints "
             "it) before → after each group:\n")
    rows = []
    for group in GROUPS:
        m = meta.get("groups", {}).get(group)
        if not m:
            rows.append([group, DASH, DASH, DASH])
            continue
        if "min_time" in m:
            settings = f"`--benchmark_min_time={m['min_time']}`, " \
                f"median of {m.get('repetitions')}"
        else:
            settings = "not recorded"
        if group in ("update", "entity") and "min_time" in m:
            settings += " (2M: one run)" if not m.get("quick") else \
                " (`--quick`: up to 16k)"
        rows.append([group, f"{m.get('started')} → {m.get('finished')}",
                     f"{m.get('load_before')} → {m.get('load_after')}",
                     settings])
    L.append(md_table(["group", "run", "load before → after", "settings"],
                      rows, ["---", "---", "---", "---"]))
    L.append("")
    return L


def section_reproduce(min_time, repetitions):
    L = ["Reproduce (from the repository root):\n", "```sh",
         "tools/bench_report.py                    # this whole file",
         "tools/bench_report.py --only scheduler   # one group; the others "
         "are re-rendered",
         "tools/bench_report.py --reuse            # re-render from "
         "benchmarks/results/*.json"]
    for group in GROUPS:
        for p in passes(group, False, repetitions):
            flags = benchmark_args(p, min_time)
            L.append(f"bazel run --config=bench {TARGETS[group]} -- " +
                     " ".join(shlex.quote(a) for a in flags))
    L.append("```\n")
    return L


def strata_mt_bullet(facts, cores):
    us = lambda ns: DASH if ns is None else f"{ns / 1000:g} µs"
    hand_off = ("`hand_off` set explicitly in `settings_mt`"
                if facts["hand_off_set"] else
                "the default hand-off policy `hand_off::automatic` "
                "(`settings_mt` does not set one)")
    text = (
        f"* **strata_mt**: `threads(0)` (every hardware thread: {cores} "
        "here), `scheduler::atomic_counter`, `allow_inner_parallelism()`, "
        f"{hand_off}: from each system's measured cost "
        "(`scheduler/hand_off.h`), a step predicted below "
        f"{us(facts['inline_step_ns'])} runs entirely on the calling thread, "
        f"a system predicted below {us(facts['hand_off_ns'])} is not posted "
        "to a worker (nor are its subtasks). ")
    if facts["split"] and "automatic()" in facts["split"]:
        text += (
            "Inner parallelism: the systems declaring `.parallelism(kSplit)` "
            "(all but render) use, as `benchmarks/scenario.h` says, "
            f"`kSplit` = `{facts['split']}`, the context's default: subtasks "
            "from each system's measured cost, up to one per thread, and "
            "large work cut into 2 to 4 slices per thread, so that a thread "
            "that is free early takes slices a busy one has not started. ")
    elif facts["split"]:
        text += (
            "Inner parallelism: the systems declaring `.parallelism(kSplit)` "
            "(all but render) still use, as `benchmarks/scenario.h` says, "
            f"`kSplit` = `{facts['split']}`; that strategy is not cost-aware, "
            "so whether its subtasks actually run on other threads is the "
            "hand-off decision above. ")
    if facts["render_found"] and facts["render_parallelism"] is None:
        text += (
            "Render declares no `.parallelism(...)`, so it gets the context "
            "default, the cost-aware `inner_parallelism::automatic()` "
            "(one subtask per "
            f"{us(facts['min_subtask_ns'])} of predicted work, up to one per "
            "thread, large work in several slices per thread): at "
            "large sizes render **is** split over threads, although "
            "scenario.h's comment says it never is (its subtasks draw into "
            "the same frame buffer).")
    elif facts["render_parallelism"]:
        text += (f"Render declares `.parallelism("
                 f"{facts['render_parallelism']})`.")
    return text


def section_measured(info, facts, results):
    mt_threads = threads_used(results, "baseline_mt")
    return [
        "## What is measured\n",
        "Scenarios, components and systems follow ecs_benchmark "
        "(github.com/abeimler/ecs_benchmark) as closely as its description "
        "allows; the exact definitions (component structs, per-entity "
        "kernels, which entities lack which components in the *Mixed* "
        "variants) are at the top of `benchmarks/scenario.h`. Strata's "
        "systems and the baselines call the same inline per-entity kernels, "
        "so only the iteration, storage and threading machinery differ.\n",
        "* **baseline**: plain SoA `std::vector`s indexed by entity, raw "
        "pointers hoisted, dense `for` loops; for the *Mixed* worlds one "
        "precomputed index list per system (what a careful engineer writes "
        "for a fixed component mix); for entity operations a free list, a "
        "version per index and a presence byte per entity.\n"
        "* **baseline_mt**: the same loops split by hand over every hardware "
        f"thread ({mt_threads} here, the `threads` counter): persistent "
        "`std::thread`s, the caller being thread 0, each running its slice "
        "of every system and meeting at a `std::barrier` only where the "
        "dependencies need it (ComplexSystemsUpdate: {movement, data, "
        "health}, {more_complex, damage}, {sprite}, then render on thread 0 "
        "alone); workers sleep in the barrier between updates.\n"
        "* **strata_1t**: `threads(1)`, sequential scheduler, "
        "`dynamic_entity_limit`, every component in its own SoA contiguous "
        "buffer, systems written with typed `data.for_each`. A run is one "
        "`ctx.step()` (systems + the refresh).\n"
        "* **strata_1t_ids**: the same with systems written the old way, "
        "`data.for_entities` + `data.get(component, id)`.\n"
        "* **strata_1t_batch** (CreateEntities, CreateEntitiesWarm): the "
        "same world, the entities made by one `proxy.create_entities(n, f)` "
        "call. CreateEntitiesWarm creates into a world that held and killed "
        "the same number of entities (untimed), so ids and memory are "
        "reused: no allocation or first-touch page fault is timed.\n" +
        strata_mt_bullet(facts, info.get("cores")) + "\n"
        "* Set-up (creating the entities) is outside the timed region of "
        "the update and unpack scenarios. Entity counts are powers of two: "
        "1k = 1024, 1M = 1,048,576, 2M = 2,097,152.\n",
    ]


def impl_table(results, scenario, impls):
    """Wall time per implementation and size, ratio to the baseline, and
    strata_1t / baseline in CPU time."""
    rows = []
    for n in SIZES:
        names = {i: update_name(scenario, i, n) for i in impls}
        if all(results.get(names[i]) is None for i in impls):
            continue
        base = results.get(names["baseline"])
        cells = [fmt_n(n)]
        for impl in impls:
            t = results.get(names[impl])
            cell = fmt_time(t)
            if impl != "baseline" and t is not None and base:
                cell += f" ({t / base:.2f}×)"
            cells.append(cell)
        cells.append(fmt_ratio(ratio(
            results.get(names["strata_1t"], "cpu"),
            results.get(names["baseline"], "cpu"))))
        rows.append(cells)
    if not rows:
        return "(no results)"
    return md_table(["entities"] + impls +
                    ["strata_1t / baseline, CPU time"], rows)


def section_update(results, plots_link):
    L = ["## Update scenarios\n",
         f"![time per entity vs entity count]({plots_link}/update.png)\n",
         f"(also `{plots_link}/update.svg`)\n"]
    for scenario in UPDATE_SCENARIOS:
        L.append(f"### {scenario[3:]}\n")
        L.append(impl_table(results, scenario, IMPLS))
        L.append("")
    L.append("### Against ecs_benchmark's published figures (1M entities)\n")
    L.append(
        "Published single-thread figures come from a different machine "
        "(3.13 GHz desktop, 2024) and a different harness, and our component "
        "and system definitions are our reading of theirs: compare orders "
        "of magnitude, not percentages. The hand-written baseline column is "
        "the fairest yardstick for *this* machine.\n")
    rows = []
    for scenario, pub in PUBLISHED.items():
        rows.append([scenario[3:]] + [
            fmt_time(results.get(update_name(scenario, i, 1 << 20)))
            for i in IMPLS] + [f"{pub['EnTT']} ms", f"{pub['flecs']} ms",
                               f"{pub['fastest']} ms"])
    L.append(md_table(["scenario"] + [f"{i} (here)" for i in IMPLS] +
                      ["EnTT (pub.)", "flecs (pub.)", "fastest (pub.)"],
                      rows, ["---"] + ["---:"] * (len(IMPLS) + 3)))
    L.append("")
    return L


def parallel_table(results, scenario):
    rows, flagged = [], 0
    for n in SIZES:
        get = lambda impl, f="real": results.get(
            update_name(scenario, impl, n), f)
        values = [get(i) for i in ("strata_1t", "strata_mt", "baseline",
                                   "baseline_mt")]
        if all(v is None for v in values):
            continue
        wall = ratio(get("strata_mt"), get("strata_1t"))
        slower = wall is not None and wall > MT_SLOWER_MARK
        flagged += slower
        wall_cell = fmt_ratio(wall)
        if slower:
            wall_cell = f"**{wall_cell} ⚠**"
        rows.append([
            fmt_n(n), fmt_time(get("strata_1t")), fmt_time(get("strata_mt")),
            wall_cell,
            fmt_ratio(ratio(get("strata_mt", "cpu"), get("strata_1t", "cpu"))),
            fmt_time(get("baseline")), fmt_time(get("baseline_mt")),
            fmt_ratio(ratio(get("baseline_mt"), get("baseline"))),
            fmt_ratio(ratio(get("baseline_mt", "cpu"), get("baseline", "cpu"))),
        ])
    if not rows:
        return "(no results)", 0
    head = ["entities", "strata_1t", "strata_mt", "strata_mt / strata_1t",
            "CPU (caller)", "baseline", "baseline_mt",
            "baseline_mt / baseline", "CPU (caller)"]
    return md_table(head, rows), flagged


def section_parallel(results, context):
    L = ["## Parallel execution\n",
         "### Threaded step against one thread\n",
         f"strata_mt ran on {threads_used(results, 'strata_mt')} thread(s), "
         f"baseline_mt on {threads_used(results, 'baseline_mt')} "
         "(the `threads` counter). Ratios below 1.00× mean the threaded run "
         "is faster. The CPU columns compare the calling thread's CPU time "
         "(what the caller itself spent, workers excluded), which time "
         f"slicing does not inflate. **⚠** marks strata_mt above "
         f"{MT_SLOWER_MARK:g}× strata_1t (wall): threads made the step "
         "slower.\n"]
    total = 0
    for scenario in UPDATE_SCENARIOS:
        L.append(f"#### {scenario[3:]}\n")
        table, flagged = parallel_table(results, scenario)
        total += flagged
        L.append(table)
        L.append("")
    L.append(f"Rows flagged: {total}.\n")
    L += section_bandwidth(results, context)
    L += section_oversubscription(results)
    L += section_spaced(results)
    return L


def l3_bytes(context):
    sizes = [c["size"] for c in (context or {}).get("caches", [])
             if c.get("level") == 3]
    return max(sizes) if sizes else None


def section_bandwidth(results, context):
    L = [f"### Speed-up and memory bandwidth (≥ {fmt_n(BANDWIDTH_FROM)} "
         "entities)\n",
         "Bandwidth = bytes moved per entity per update × entities / wall "
         "time. Bytes moved, a model rather than a measurement: for each "
         "system, every component its signature in `benchmarks/scenario.h` "
         "declares (read or written) counts its `sizeof` once for the read, "
         "and every written one counts once more for the write-back; summed "
         "over the scenario's systems, each weighted by the share of "
         "entities it visits in the mix. It assumes nothing stays in cache "
         "from one system to the next and ignores conditional writes "
         "(more_complex writes velocity and data on one update in ten), the "
         "frame buffer (76.8 KB, cache-resident), Strata's 4-byte entity id "
         "per visited entity and, in the *Mixed* worlds, cache lines fetched "
         "for skipped neighbours: a rough figure for comparing "
         "implementations, not a hardware counter. Component sizes (x86-64): "
         + ", ".join(f"{c} {b} B" for c, b in COMPONENT_BYTES.items()) + ".\n"]
    l3 = l3_bytes(context)
    rows = []
    for scenario in UPDATE_SCENARIOS:
        moved = traffic_bytes_per_entity(scenario)
        stored = working_set_bytes_per_entity(scenario)
        for n in SIZES:
            if n < BANDWIDTH_FROM:
                continue
            get = lambda impl: results.get(update_name(scenario, impl, n))
            if all(get(i) is None for i in IMPLS):
                continue
            gbs = lambda impl: DASH if not get(impl) else \
                f"{moved * n / get(impl):.1f}"
            ws = stored * n
            fits = "" if l3 is None else (" (< L3)" if ws < l3 else " (> L3)")
            rows.append([
                scenario[3:], fmt_n(n), f"{moved:.0f} B",
                f"{ws / 2**20:.0f} MiB{fits}",
                fmt_ratio(ratio(get("strata_1t"), get("strata_mt"))),
                fmt_ratio(ratio(get("baseline"), get("baseline_mt"))),
                gbs("baseline"), gbs("baseline_mt"), gbs("strata_1t"),
                gbs("strata_mt")])
    if rows:
        L.append(md_table(
            ["scenario", "entities", "bytes moved / entity",
             "component working set", "speed-up strata_1t / strata_mt",
             "speed-up baseline / baseline_mt", "baseline GB/s",
             "baseline_mt GB/s", "strata_1t GB/s", "strata_mt GB/s"],
            rows, ["---"] + ["---:"] * 9))
    else:
        L.append("(no results)")
    if l3:
        L.append(f"\nL3 as Google Benchmark reports it: {l3 / 2**20:.0f} MiB "
                 "(on a virtual machine this can be the host's, shared with "
                 "other guests); a working set below it can be served from "
                 "cache, so the GB/s are then cache, not DRAM, bandwidth.")
    L.append("")
    return L


def section_oversubscription(results):
    base = lambda t: f"BM_ComplexSystemsUpdate/strata_mt_threads/{OVERSUB_N}/{t}"
    ref = results.get(base(OVERSUB_THREADS[0]))
    rows = []
    for t in OVERSUB_THREADS:
        wall = results.get(base(t))
        r = ratio(wall, ref)
        ok = DASH if r is None else ("✓" if r <= OVERSUB_GOAL else "✗")
        rows.append([str(t), fmt_count(results.get(base(t), "threads")),
                     fmt_time(wall), fmt_time(results.get(base(t), "cpu")),
                     fmt_ratio(r), ok])
    for impl in ("strata_1t", "strata_mt"):
        name = update_name("BM_ComplexSystemsUpdate", impl, OVERSUB_N)
        rows.append([f"({impl})", fmt_count(results.get(name, "threads")),
                     fmt_time(results.get(name)),
                     fmt_time(results.get(name, "cpu")),
                     fmt_ratio(ratio(results.get(name), ref)), ""])
    return [
        "### Oversubscription\n",
        f"`BM_ComplexSystemsUpdate/strata_mt_threads/{OVERSUB_N}/T`: "
        f"strata_mt's ComplexSystemsUpdate at {fmt_n(OVERSUB_N)} entities "
        "with `threads(T)`, T beyond this machine's cores. Goal: every T "
        f"within {OVERSUB_GOAL:g}× of T = {OVERSUB_THREADS[0]}. strata_1t "
        "and strata_mt (`threads(0)`) of the same size for reference "
        "(different benchmarks, same run).\n",
        md_table(["T", "threads (counter)", "wall per update",
                  "CPU (caller)", f"ratio to T = {OVERSUB_THREADS[0]}",
                  f"≤ {OVERSUB_GOAL:g}×"], rows),
        "",
    ]


SPACED_SCENARIOS = ["BM_SpacedSystemsUpdate", "BM_SpacedComplexSystemsUpdate"]
SPACED_COUNTS = [1 << 10, 1 << 14, 1 << 18]


def section_spaced(results):
    rows = []
    for scenario in SPACED_SCENARIOS:
        for n in SPACED_COUNTS:
            one = results.get(update_name(scenario, "strata_1t", n))
            many = results.get(update_name(scenario, "strata_mt", n))
            if one is None and many is None:
                continue
            rows.append([scenario[9:], fmt_n(n), fmt_time(one),
                         fmt_time(many), fmt_ratio(ratio(many, one))])
    return [
        "### Steps a frame apart\n",
        "`BM_Spaced{Systems,ComplexSystems}Update/strata_1t|strata_mt/N`: "
        "each of 300 updates follows an untimed 2 ms sleep, as between a "
        "game's frames, so workers have parked (waking one takes tens of "
        "microseconds on a VM) and caches have cooled. The threaded "
        "scheduler times its threaded calls against inline probes and "
        "drops threads that do not pay (`context/internal/"
        "adaptive_run_policy.cc`). Wall time per update.\n",
        md_table(["scenario", "entities", "strata_1t", "strata_mt",
                  "strata_mt / strata_1t"], rows,
                 ["---", "---:", "---:", "---:", "---:"])
        if rows else "(no results)",
        "",
    ]


def overhead_name(shape, scheduler, threads):
    return f"Overhead/{shape}/16/{scheduler}/threads/{threads}"


def section_scheduler(results):
    loop = results.get("Overhead/plain_loop/16")
    rows, met, checked = [], 0, 0
    for shape in SHAPES:
        cells = [shape]
        for _, scheduler, threads, goal in SCHEDULER_COLUMNS:
            t = results.get(overhead_name(shape, scheduler, threads))
            mark = goal_mark(t, goal)
            checked += bool(mark)
            met += mark == " ✓"
            cells.append(fmt_time(t) + mark)
        cells.append(fmt_time(loop))
        rows.append(cells)
    L = ["## Scheduler overhead and idle CPU\n",
         "`//scheduler:scheduler_benchmark`: wall time of one `ctx.step()` "
         "running 16 empty systems shaped as a chain, as 4-wide layers (each "
         "depending on the whole previous layer) or all independent, against "
         "16 calls through function pointers in a plain loop. "
         "`hand_off::automatic` (the default) runs a step this cheap inline; "
         "`hand_off::always` forces every system through the pool: the cost "
         "of real hand-offs. Goals (✓ met, ✗ missed): sequential ≤ 0.4 µs a "
         "step, ≤ 2 µs on 2 threads.\n",
         md_table(["shape (16 systems)"] +
                  [c[0] for c in SCHEDULER_COLUMNS] +
                  ["plain loop, 16 calls"], rows,
                  ["---"] + ["---:"] * (len(SCHEDULER_COLUMNS) + 1)),
         f"\nGoals met in {met} of {checked} measured cells.\n"]
    L.append("Idle CPU: after a step that handed systems to the workers "
             "(`hand_off::always`), the caller sleeps 100 ms; the process CPU "
             "time burnt meanwhile (workers spinning, then parking) is the "
             "`idle_cpu_ms` counter, per sleep (median of the repetitions of "
             "10 sleeps each). 1 thread has no workers: the floor.\n")
    idle_rows = []
    for t in IDLE_THREADS:
        ms = results.get(f"Idle/sleep_100ms/threads/{t}", "idle_cpu_ms")
        # ms of CPU per 100 ms of sleep is also the percentage of one core.
        idle_rows.append([str(t), DASH if ms is None else f"{ms:.2f} ms",
                          DASH if ms is None else f"{ms:.2f} %"])
    L.append(md_table(["threads", "CPU per 100 ms sleep",
                       "share of one core"], idle_rows))
    L.append("")
    return L


def contention_name(kind, threads):
    return f"BM_Contention_{kind}/{threads}"


def contention_per_task(results, kind, threads):
    return results.get(contention_name(kind, threads), "per_task")


def contention_verdict(results, cores):
    """One sentence computed from the numbers."""
    have = [t for t in CONTENTION_THREADS
            if all(contention_per_task(results, k, t) for k in
                   CONTENTION_KINDS)]
    if len(have) < 2:
        return "Not enough results to compare thread counts."
    lo, hi = have[0], have[-1]
    p_lo = contention_per_task(results, "Pool", lo)
    p_hi = contention_per_task(results, "Pool", hi)
    m_hi = contention_per_task(results, "MutexQueue", hi)
    growth, vs = p_hi / p_lo, p_hi / m_hi
    facts = (f"At {hi} threads ({cores} cores here) a task through the pool "
             f"costs {fmt_time(p_hi * 1e9)}, {growth:.2f}× its {lo}-thread "
             f"cost, against {fmt_time(m_hi * 1e9)} through the mutex queue "
             f"({vs:.2f}×)")
    s_lo = contention_per_task(results, "SharedQueue", lo)
    s_hi = contention_per_task(results, "SharedQueue", hi)
    facts += (f"; the shared moodycamel queue it replaced grows "
              f"{s_hi / s_lo:.2f}× ({fmt_time(s_lo * 1e9)} to "
              f"{fmt_time(s_hi * 1e9)})")
    if vs >= 1:
        return (facts + ": at this contention the pool is not faster than a "
                "mutex queue.")
    if growth > COLLAPSE_FACTOR:
        return (facts + f": the pool's per-task cost grows more than "
                f"{COLLAPSE_FACTOR:g}× under contention (our threshold for a "
                "collapse).")
    return (facts + f": the pool's per-task cost grows less than "
            f"{COLLAPSE_FACTOR:g}× (our threshold for a collapse) and stays "
            "below the mutex queue's.")


def section_contention(results, cores):
    rows = []
    for t in CONTENTION_THREADS:
        pool = contention_per_task(results, "Pool", t)
        sq = contention_per_task(results, "SharedQueue", t)
        mq = contention_per_task(results, "MutexQueue", t)
        rows.append([
            str(t),
            fmt_time(None if pool is None else pool * 1e9),
            fmt_time(None if sq is None else sq * 1e9),
            fmt_time(None if mq is None else mq * 1e9),
            fmt_ratio(ratio(pool, sq)),
            fmt_time(results.get(contention_name("Pool", t))),
            fmt_time(results.get(contention_name("MutexQueue", t)))])
    return [
        "## Thread-pool contention\n",
        "`//threading:thread_pool_benchmark --benchmark_filter=Contention`: "
        "with T threads (T − 1 workers and the caller), T producer tasks each "
        "post 2,000 tiny tasks into one group while every thread also takes "
        "tasks. `Pool` is Strata's pool (per-worker queues with work "
        "stealing); `SharedQueue` the pool it replaced (one shared "
        "moodycamel queue object, kept in the benchmark as a baseline); "
        "`MutexQueue` the naive shared queue "
        "(one mutex, one condition variable, a `std::deque`) doing the same "
        "work. Per task: the benchmark's `per_task` counter (wall time per "
        f"task posted). This machine has {cores} cores: from 8 threads on the "
        "OS also switches threads.\n",
        md_table(["threads", "Pool, per task", "SharedQueue, per task",
                  "MutexQueue, per task", "Pool / SharedQueue",
                  "Pool, per iteration",
                  "MutexQueue, per iteration"], rows),
        "",
        contention_verdict(results, cores) + "\n",
    ]


def section_latency(results):
    def row(label, pool_name, shared_name):
        return [label, fmt_time(results.get(pool_name)),
                fmt_time(results.get(shared_name)),
                fmt_ratio(ratio(results.get(pool_name),
                                results.get(shared_name)))]
    rows = [row(f"hand-off to a {state} worker",
                f"BM_HandOff_Pool_{state.capitalize()}",
                f"BM_HandOff_SharedQueue_{state.capitalize()}")
            for state in ("spinning", "parked")]
    rows += [row(f"join: last task ends {us} µs into the wait",
                 f"BM_JoinLatency_Pool/task_us:{us}",
                 f"BM_JoinLatency_SharedQueue/task_us:{us}")
             for us in JOIN_TASK_US]
    return [
        "### Hand-off and join latency\n",
        "`//threading:thread_pool_benchmark --benchmark_filter="
        "'HandOff|JoinLatency'` (manual time). Hand-off: from `post()` to "
        "the task's first instruction, to a pool of one worker that is "
        "still polling after its last task, or asleep after 5 ms idle. "
        "Join: a group's one task runs on the worker for 2, 10 or 50 µs "
        "after the caller started waiting; from its end to the caller's "
        "return from the wait. Strata's waiter polls for up to 20 µs "
        "before it sleeps; the shared-queue pool's sleeps at once.\n",
        md_table(["", "Pool", "SharedQueue", "Pool / SharedQueue"], rows,
                 ["---", "---:", "---:", "---:"]),
        "",
    ]


def section_entity(results):
    L = ["## Entity scenarios (one thread)\n"]
    for scenario in ENTITY_SCENARIOS:
        L.append(f"### {scenario[3:]}\n")
        impls = ["baseline", "strata_1t"]
        if scenario.startswith("BM_CreateEntities"):
            impls.append("strata_1t_batch")  # proxy.create_entities(n, f)
        L.append(impl_table(results, scenario, impls))
        L.append("")
    return L


def not_run(results, names, target):
    """The one-line note of a section none of whose runs has results, or
    None."""
    if any(name in results.runs for name in names):
        return None
    return f"Not run: no results of `{target}` in the results directory.\n"


def moodycamel_rows():
    """(label, Pool's run, MoodycamelPool's run, field, scale to ns) of every
    thread-pool benchmark that has a MoodycamelPool twin."""
    rows = [(f"contention, {t} threads, per task",
             contention_name("Pool", t), contention_name("MoodycamelPool", t),
             "per_task", 1e9) for t in CONTENTION_THREADS]
    rows += [(f"hand-off to a {state} worker",
              f"BM_HandOff_Pool_{state.capitalize()}",
              f"BM_HandOff_MoodycamelPool_{state.capitalize()}", "real", 1)
             for state in ("spinning", "parked")]
    rows += [(f"join: last task ends {us} µs into the wait",
              f"BM_JoinLatency_Pool/task_us:{us}",
              f"BM_JoinLatency_MoodycamelPool/task_us:{us}", "real", 1)
             for us in JOIN_TASK_US]
    return rows


def section_moodycamel(results):
    L = ["### The pool's design on moodycamel queues\n"]
    specs = moodycamel_rows()
    note = not_run(results, [m for _, _, m, _, _ in specs],
                   "BM_*_MoodycamelPool")
    if note:
        return L + [note]
    L += ["`//threading:thread_pool_benchmark`, the `MoodycamelPool` runs of "
          "the contention, hand-off and join benchmarks above: Strata's pool "
          "design (per-worker queues, work stealing, the same spin and park "
          "rules) with `moodycamel::ConcurrentQueue` in place of each worker's "
          "mutex ring (threading/internal/moodycamel_pool.h). The baseline is "
          "`Pool`, Strata's pool; `MoodycamelPool / Pool` above 1.00× means "
          "the lock-free queues are slower. Contention: the `per_task` "
          "counter; hand-off and join: manual time, as above.\n"]
    rows = []
    for label, pool_name, moody_name, field, scale in specs:
        pool = results.get(pool_name, field)
        moody = results.get(moody_name, field)
        rows.append([label, fmt_time(None if pool is None else pool * scale),
                     fmt_time(None if moody is None else moody * scale),
                     fmt_ratio(ratio(moody, pool))])
    L.append(md_table(["", "Pool", "MoodycamelPool", "MoodycamelPool / Pool"],
                      rows, ["---", "---:", "---:", "---:"]))
    L.append("")
    return L


SNAPSHOT_COUNTS = [1 << 14, 1 << 18, 1 << 20]
# (column title, benchmark name without the entity count)
SNAPSHOT_COPIES = [
    ("Snapshot/strata", "BM_Snapshot_strata"),
    ("Restore/strata", "BM_Restore_strata"),
    ("Snapshot/memcpy", "BM_Snapshot_memcpy"),
    ("Snapshot/vector_copy", "BM_Snapshot_vector_copy"),
]
SNAPSHOT_BENCHMARKS = [b for _, b in SNAPSHOT_COPIES] + [
    "BM_Save_strata", "BM_Load_strata", "BM_StateHash_strata"]
# (column title, numerator, denominator) of the CPU-time ratios
SNAPSHOT_RATIOS = [
    ("snapshot / memcpy", "BM_Snapshot_strata", "BM_Snapshot_memcpy"),
    ("restore / memcpy", "BM_Restore_strata", "BM_Snapshot_memcpy"),
    ("snapshot / vector_copy", "BM_Snapshot_strata",
     "BM_Snapshot_vector_copy"),
]


def fmt_rate(bytes_per_second, unit, scale):
    if bytes_per_second is None:
        return DASH
    return f"{bytes_per_second / scale:.2f} {unit}"


def snapshot_name(benchmark, n):
    return f"{benchmark}/{n}"


def section_snapshot(results):
    L = ["## Snapshots, save/load and the state hash (one thread)\n"]
    names = [snapshot_name(b, n) for b in SNAPSHOT_BENCHMARKS
             for n in SNAPSHOT_COUNTS]
    note = not_run(results, names, TARGETS["snapshot"])
    if note:
        return L + [note]
    L += ["`//benchmarks:snapshot_benchmark`: the ComplexSystemsUpdate world "
          "(every entity has all seven components). `Snapshot/strata` is "
          "`ctx.snapshot_into`, `Restore/strata` `ctx.restore`; the baselines "
          "are `Snapshot/memcpy` (a `memcpy` of the same component bytes, "
          "seven arrays and nothing else) and `Snapshot/vector_copy` (a "
          "hand-written copy of the same world kept in `std::vector`s). Times "
          "are CPU time per copy of the whole world; GB/s is the "
          "`bytes_per_second` counter (the seven components' bytes times N, "
          "the same for every row). The ratios are CPU times, Strata over the "
          "baseline (lower is better, 1.00× = as fast as the baseline).\n"]
    head = ["entities"]
    for title, _ in SNAPSHOT_COPIES:
        head += [f"{title}, CPU", f"{title}, GB/s"]
    head += [title for title, _, _ in SNAPSHOT_RATIOS]
    rows = []
    for n in SNAPSHOT_COUNTS:
        row = [fmt_n(n)]
        for _, benchmark in SNAPSHOT_COPIES:
            name = snapshot_name(benchmark, n)
            row += [fmt_time(results.get(name, "cpu")),
                    fmt_rate(results.get(name, "bytes_per_second"), "GB/s",
                             1e9)]
        for _, num, den in SNAPSHOT_RATIOS:
            row.append(fmt_ratio(ratio(
                results.get(snapshot_name(num, n), "cpu"),
                results.get(snapshot_name(den, n), "cpu"))))
        rows.append(row)
    L += [md_table(head, rows, ["---"] + ["---:"] * (len(head) - 1)), ""]
    L.append("`Save/strata` and `Load/strata` are `ctx.save` and `ctx.load` "
             "with a file (in the page cache), in MB/s of the same component "
             "bytes; the state hash is `ctx.state_hash()`, per entity (the "
             "`seconds_per_entity` counter). There is no baseline in the "
             "binary for these: compare them with the copies above.\n")
    rows = []
    for n in SNAPSHOT_COUNTS:
        per_entity = results.get(snapshot_name("BM_StateHash_strata", n),
                                 "seconds_per_entity")
        rows.append([
            fmt_n(n),
            fmt_rate(results.get(snapshot_name("BM_Save_strata", n),
                                 "bytes_per_second"), "MB/s", 1e6),
            fmt_rate(results.get(snapshot_name("BM_Load_strata", n),
                                 "bytes_per_second"), "MB/s", 1e6),
            DASH if per_entity is None else f"{per_entity * 1e9:.2f} ns"])
    L += [md_table(["entities", "save", "load", "state hash, per entity"],
                   rows, ["---", "---:", "---:", "---:"]), ""]
    return L


TRACKING_COUNTS = SIZES
CHANGED_COUNTS = [1 << 14, 1 << 18, 1 << 20]
HOOK_COUNTS = [1 << 10, 1 << 14, 1 << 18]
HOOK_IMPLS = ["baseline", "strata_no_hook", "strata_hook"]


def cpu_pair_rows(results, counts, baseline_name, strata_name):
    """Rows of N, baseline CPU time, Strata CPU time, Strata / baseline."""
    rows = []
    for n in counts:
        base = results.get(baseline_name(n), "cpu")
        strata = results.get(strata_name(n), "cpu")
        rows.append([fmt_n(n), fmt_time(base), fmt_time(strata),
                     fmt_ratio(ratio(strata, base))])
    return rows


def section_change(results):
    L = ["## Change filters (one thread)\n"]
    untracked = lambda n: f"BM_SystemsUpdateTracking/untracked/{n}"
    tracked = lambda n: f"BM_SystemsUpdateTracking/tracked/{n}"
    baseline = lambda n: f"BM_ChangedOnePercent/baseline_dirty_list/{n}"
    strata = lambda n: f"BM_ChangedOnePercent/strata_1t/{n}"
    names = ([f(n) for f in (untracked, tracked) for n in TRACKING_COUNTS] +
             [f(n) for f in (baseline, strata) for n in CHANGED_COUNTS])
    note = not_run(results, names, TARGETS["change"])
    if note:
        return L + [note]
    L += ["`//benchmarks:change_benchmark --benchmark_filter="
          "SystemsUpdateTracking`: what tracking costs. SystemsUpdate "
          "(movement, data) plus an idle system reading position, without "
          "(`untracked`, the baseline) and with `.changed(ct::position)` "
          "(`tracked`), so movement's `for_each` also logs the ranges it writes. "
          "CPU time per update; `tracked / untracked` above 1.00× is what "
          "tracking adds.\n",
          md_table(["entities", "untracked, CPU", "tracked, CPU",
                    "tracked / untracked"],
                   cpu_pair_rows(results, TRACKING_COUNTS, untracked,
                                 tracked),
                   ["---", "---:", "---:", "---:"]),
          "",
          "`--benchmark_filter=ChangedOnePercent`: each step 1 % of N "
          "positions are written (a different 1 % each step), then read by a "
          "second pass. The baseline (`baseline_dirty_list`) is by hand: the "
          "write appends the index to a dirty list, the reader loops over "
          "that list. `strata_1t`: a mover writing through `data.write` and a "
          "`.changed(ct::position)` system with `for_each`. CPU time per "
          "step; `strata / baseline` is the ratio (lower is better, 1.00× = "
          "as fast as the dirty list).\n",
          md_table(["entities", "baseline_dirty_list, CPU",
                    "strata_1t, CPU", "strata / baseline"],
                   cpu_pair_rows(results, CHANGED_COUNTS, baseline, strata),
                   ["---", "---:", "---:", "---:"]),
          ""]
    return L + hook_rows(results)


def hook_rows(results):
    """The BM_AddComponentHook table: CPU time per add (one add_component
    and its remove_component, with their refreshes)."""
    name = lambda impl, n: f"BM_AddComponentHook/{impl}/{n}"
    if not any(name(i, n) in results.runs
               for i in HOOK_IMPLS for n in HOOK_COUNTS):
        return []
    rows = []
    for n in HOOK_COUNTS:
        per = {i: results.get(name(i, n), "cpu") for i in HOOK_IMPLS}
        per = {i: t / n if t is not None else None for i, t in per.items()}
        rows.append([fmt_n(n)] + [fmt_time(per[i]) for i in HOOK_IMPLS] +
                    [fmt_ratio(ratio(per["strata_hook"],
                                     per["strata_no_hook"]))])
    return ["`--benchmark_filter=AddComponentHook`: each iteration gives a "
            "marker component to N entities in one step and takes it back "
            "in the next. The baseline (`baseline`) is by hand: a vector of "
            "optional markers and a call per add and per remove. "
            "`strata_no_hook`: the same steps without hooks; `strata_hook`: "
            "with `on_add` and `on_remove` hooks that count. CPU time per "
            "add (one `add_component` and its `remove_component`, with "
            "their refreshes); `hook / no hook` is what hook dispatch "
            "adds.\n",
            md_table(["entities", "baseline, CPU per add",
                      "strata_no_hook, CPU per add",
                      "strata_hook, CPU per add", "hook / no hook"],
                     rows, ["---", "---:", "---:", "---:", "---:"]),
            ""]


DAMAGE_COUNTS = [1 << 14, 1 << 18, 1 << 20]
DAMAGE_IMPLS = ["baseline_direct", "baseline_buffer_1t", "baseline_grouped_1t",
                "baseline_checked_direct", "baseline_checked_buffer",
                "baseline_thread_buffers", "strata_1t", "strata_1t_apply",
                "strata_2t"]


def section_damage(results):
    L = ["## Entities acting on entities (the effect channel)\n"]
    name = lambda impl, n: f"BM_Damage/{impl}/{n}"
    names = [name(i, n) for i in DAMAGE_IMPLS for n in DAMAGE_COUNTS]
    note = not_run(results, names, TARGETS["damage"])
    if note:
        return L + [note]
    rows = []
    for n in DAMAGE_COUNTS:
        times = {i: results.get(name(i, n), "real") for i in DAMAGE_IMPLS}
        rate = lambda t: (f"{n / t * 1e3:.0f} M/s" if t else DASH)
        rows.append([fmt_n(n)] +
                    [f"{fmt_time(times[i])} ({rate(times[i])})"
                     for i in DAMAGE_IMPLS] +
                    [fmt_ratio(ratio(times["strata_1t"],
                                     times["baseline_direct"])),
                     fmt_ratio(ratio(times["strata_1t"],
                                     times["baseline_grouped_1t"])),
                     fmt_ratio(ratio(times["strata_1t_apply"],
                                     times["baseline_buffer_1t"])),
                     fmt_ratio(ratio(times["strata_1t_apply"],
                                     times["baseline_direct"])),
                     fmt_ratio(ratio(times["strata_1t_apply"],
                                     times["baseline_checked_buffer"])),
                     fmt_ratio(ratio(times["strata_2t"],
                                     times["strata_1t"]))])
    L += ["`//benchmarks:damage_benchmark`: every step each of N entities "
          "picks a random other entity and deals it damage equal to its own "
          "attack, then the damage is applied. `baseline_direct` adds to the "
          "target directly in one loop; `baseline_buffer_1t` buffers (target, "
          "amount) and then applies the buffer, the least any deferred "
          "channel does; `baseline_grouped_1t` also groups the buffer by "
          "target with a counting sort, the least a channel whose split "
          "receivers own their targets does; `baseline_checked_direct` and "
          "`baseline_checked_buffer` are the direct loop and the buffer with "
          "what any ECS naming entities by versioned ids pays: the target's "
          "id picked from a roster and checked against the live ids before "
          "the write (the limit for Strata, which does both); "
          "`baseline_thread_buffers` fills "
          "one buffer per thread (two) and merges them in order; `strata_1t` "
          "/ `strata_2t` send through the effect channel and receive with "
          "`data.messages(tag, self)` (grouped) at 1 and 2 threads; "
          "`strata_1t_apply` receives in a system that never splits with "
          "`for_each_message` and `data.write` of the target (not grouped). "
          "Wall time per step, and messages per second. Targets: strata_1t / "
          "direct ≤ 1.50×; strata_2t / strata_1t below 1.00× from 256k. "
          "Why the gap: benchmarks/ANALYSIS.md.\n",
          md_table(["entities"] + DAMAGE_IMPLS +
                   ["strata_1t / direct", "strata_1t / grouped",
                    "strata_1t_apply / buffer", "strata_1t_apply / direct",
                    "strata_1t_apply / checked_buffer",
                    "strata_2t / strata_1t"], rows,
                   ["---"] + ["---:"] * (len(DAMAGE_IMPLS) + 6)),
          ""]
    return L


PROPAGATE_COUNTS = [1 << 10, 1 << 14, 1 << 18, 1 << 20]
REPARENT_COUNTS = [1 << 14, 1 << 18, 1 << 20]
# (entities, re-parents per step) of BM_ReparentFixed.
REPARENT_FIXED = [(1 << 14, 256), (1 << 14, 4096), (1 << 20, 256),
                  (1 << 20, 4096)]


def section_hierarchy(results):
    L = ["## Hierarchies\n"]
    hand = lambda n: f"BM_Propagate/hand_written/{n}"
    one = lambda n: f"BM_Propagate/strata_1t/{n}"
    two = lambda n: f"BM_Propagate/strata_2t/{n}"
    query = lambda n: f"BM_Propagate/strata_1t_parent_query/{n}"
    moved = lambda n: f"BM_Reparent/strata/{n}"
    fixed = lambda n, c: f"BM_ReparentFixed/strata/{n}/{c}"
    names = ([f(n) for f in (hand, one, two) for n in PROPAGATE_COUNTS] +
             [moved(n) for n in REPARENT_COUNTS] +
             [fixed(n, c) for n, c in REPARENT_FIXED])
    note = not_run(results, names, TARGETS["hierarchy"])
    if note:
        return L + [note]
    rows = []
    for n in PROPAGATE_COUNTS:
        base = results.get(hand(n), "cpu")
        t1 = results.get(one(n), "cpu")
        t2 = results.get(two(n), "real")
        tq = results.get(query(n), "cpu")
        rows.append([fmt_n(n), fmt_time(base), fmt_time(t1), fmt_time(t2),
                     fmt_time(tq), fmt_ratio(ratio(t1, base)),
                     fmt_ratio(ratio(t2, t1)), fmt_ratio(ratio(tq, base))])
    per_move = lambda name, n, moves: (
        None if results.get(name, "cpu") is None
        else results.get(name, "cpu") / moves)
    reparent_rows = [[fmt_n(n), fmt_time(per_move(moved(n), n, n // 100))]
                     for n in REPARENT_COUNTS]
    fixed_rows = [[fmt_n(n), str(c), fmt_time(results.get(fixed(n, c), "cpu")),
                   fmt_time(per_move(fixed(n, c), n, c))]
                  for n, c in REPARENT_FIXED]
    L += ["`//benchmarks:hierarchy_benchmark --benchmark_filter=Propagate`: "
          "a forest of N entities (roots with 4 to 8 children each, five "
          "levels), world = parent's world × local (2D rotation and "
          "translation). `hand_written` loops over arrays sorted by depth "
          "with a parent index per entity; `strata_1t` / `strata_2t` run a "
          "system declared `.in_hierarchy_order()` whose callable gets the "
          "parent's world from `data.for_each_with_parent(ct::world, f)`, "
          "each level split across the threads; `strata_1t_parent_query` "
          "is the same system asking `data.parent(ct::world, e)` per "
          "entity instead. CPU time per step (2 threads: wall time). Targets: "
          "1 thread ≤ 1.3× hand-written; 2 threads faster than 1 from 256k "
          "entities.\n",
          md_table(["entities", "hand_written, CPU", "strata_1t, CPU",
                    "strata_2t, wall", "strata_1t_parent_query, CPU",
                    "1t / hand-written", "2t / 1t",
                    "parent_query / hand-written"],
                   rows, ["---", "---:", "---:", "---:", "---:", "---:",
                          "---:", "---:"]),
          "",
          "`--benchmark_filter=Reparent`: each step re-parents entities "
          "(`set_parent` under another parent of the same depth) and "
          "refreshes, one thread. `1 %`: N / 100 moves per step, time per "
          "move.\n",
          md_table(["entities", "1 %: per move"], reparent_rows,
                   ["---", "---:"]),
          "",
          "`BM_ReparentFixed`: C moves per step at two world sizes: the "
          "time per step follows C and stays flat as N grows (the refresh "
          "follows the changes and never rebuilds), so the time per move "
          "is about the same in every row.\n",
          md_table(["entities", "moves per step (C)", "per step",
                    "per move"], fixed_rows,
                   ["---", "---:", "---:", "---:"]),
          ""]
    return L


ORDER_COUNTS = [1 << 14, 1 << 18, 1 << 20]


def section_order(results):
    L = ["## Ordered iteration\n"]
    name = lambda impl, n: f"BM_Order/{impl}/{n}"
    impls = ["std_sort", "strata_ordered", "strata_ordered_2t",
             "strata_unordered"]
    names = [name(i, n) for i in impls for n in ORDER_COUNTS]
    note = not_run(results, names, TARGETS["order"])
    if note:
        return L + [note]
    rows = []
    for n in ORDER_COUNTS:
        base = results.get(name("std_sort", n), "cpu")
        ordered = results.get(name("strata_ordered", n), "cpu")
        two = results.get(name("strata_ordered_2t", n), "real")
        plain = results.get(name("strata_unordered", n), "cpu")
        rows.append([fmt_n(n), fmt_time(base), fmt_time(ordered),
                     fmt_time(two), fmt_time(plain),
                     fmt_ratio(ratio(ordered, base)),
                     fmt_ratio(ratio(ordered, plain))])
    L += ["`//benchmarks:order_benchmark`: N entities with a draw key; each "
          "step 1 % of the keys change, then one pass visits every entity "
          "in key order (ties by index). `std_sort` keeps a (key, index) "
          "array, refreshes its keys and std::sorts it every step, then "
          "loops; `strata_ordered` / `strata_ordered_2t` run a system "
          "declared `.ordered_by(ct::key)` at 1 and 2 threads (the order "
          "kept incrementally: the changed keys sorted and merged); "
          "`strata_unordered` is the same system visiting ascending "
          "indices. CPU time per step (2 threads: wall time). Target: "
          "keeping the order costs less than a full std::sort of the keys "
          "(ordered / std_sort below 1.00×).\n",
          md_table(["entities", "std_sort, CPU", "strata_ordered, CPU",
                    "strata_ordered_2t, wall", "strata_unordered, CPU",
                    "ordered / std_sort", "ordered / unordered"], rows,
                   ["---"] + ["---:"] * 6),
          ""]
    return L


def section_compile(costs):
    if not costs:
        return []
    rows = []
    user_of = {c["target"]: c.get("user") for c in costs
               if c.get("ok", True)}
    for c in costs:
        if not c.get("ok", True):
            rows.append([f"`{c['target']}`"] + ["compile failed"] * 4 +
                        [DASH] * 2)
            continue
        baseline = user_of.get(HAND_WRITTEN_OF.get(c["target"]))
        ratio = (f"{c['user'] / baseline:.1f}×"
                 if baseline and c.get("user") is not None else DASH)
        plain = user_of.get(PLAIN_GAME)
        variant = c["target"].startswith(PLAIN_GAME + "_")
        to_plain = (f"{c['user'] / plain:.2f}×"
                    if variant and plain and c.get("user") is not None
                    else DASH)
        rows.append([
            f"`{c['target']}`",
            f"{c['wall']:.1f} s" if c.get("wall") is not None else DASH,
            f"{c['user']:.1f} s" if c.get("user") is not None else DASH,
            ratio, to_plain,
            f"{c['rss_mib']:.0f} MiB" if c.get("rss_mib") else DASH,
            f"{c['bytes'] / 1024:.0f} KiB" if c.get("bytes") else DASH])
    return [
        "## Compile time and binary size\n",
        "Each benchmark's main `.cc` compiled with the exact command bazel "
        "uses (`bazel aquery --config=bench`), re-run under `/usr/bin/time "
        "-v` in the execution root (everything else these binaries compile "
        "— `base/check.cc`, the thread pool — is shared and small). Peak "
        "memory is the compiler's maximum resident set. Binary size: `stat` "
        "of the linked, unstripped binary. `//benchmarks/compile` holds "
        "generated user programs (benchmarks/compile/generate_program.py): "
        "8 components and 12 systems in the shape of a game, the same made "
        "with `make_context(settings)` instead of `make_context<settings>()`, "
        "the same offering both schedulers at run time "
        "(`strata::run_options().scheduler(...)`, as a `--scheduler` flag "
        "does), the same using one optional feature each (`_messages`: "
        "s0 sends each entity a message the last system applies; "
        "`_change_filter`: the last system visits only changed entities; "
        "`_hooks`: an `on_add` hook; `_hierarchy`: half the entities "
        "children, the last system in hierarchy order; `_snapshots`: a "
        "snapshot, a rollback, a save and a load, with state hashes), "
        "and 64 components with 32 systems; `include_only` is "
        "`#include \"strata.h\"` with an empty `main()`. The baselines, "
        "`hand_written_8x12` and `hand_written_64x32`, are the same games "
        "without Strata (a `std::vector` per component, a plain loop per "
        "system, the same total checked): \"× hand-written\" is a program's "
        "CPU time over its baseline's, which also stays comparable when the "
        "host's speed changes; \"× game_8x12\" is a variant's CPU time over "
        "the plain game's: what the variant costs when used. Each is compiled "
        f"{COMPILE_RUNS} times, in rounds over all programs; the table shows "
        "the fastest run. Targets: the "
        "include ≤ 2 s, the 12-system program ≤ 9 s CPU and ≤ 450 MB, the "
        "64×32 one ≤ 10 s.\n",
        md_table(["target", "compile wall", "compile user",
                  "× hand-written", "× game_8x12", "peak compiler RSS",
                  "binary size"], rows,
                 ["---"] + ["---:"] * 6),
        "",
    ]


def write_report(path, plots_dir, results, meta, costs, args):
    info = meta.get("machine") or machine()
    plots_link = os.path.relpath(plots_dir, os.path.dirname(path))
    analysis_link = os.path.relpath(
        os.path.join(ROOT, "benchmarks", "ANALYSIS.md"), os.path.dirname(path))
    L = section_header(analysis_link)
    L += section_machine(info, results.context, meta)
    L += section_reproduce(args.min_time, args.repetitions)
    L += section_measured(info, source_facts(), results)
    L += section_update(results, plots_link)
    L += section_parallel(results, results.context)
    L += section_scheduler(results)
    L += section_contention(results, info.get("cores"))
    L += section_latency(results)
    L += section_moodycamel(results)
    L += section_entity(results)
    L += section_snapshot(results)
    L += section_change(results)
    L += section_damage(results)
    L += section_hierarchy(results)
    L += section_order(results)
    L += section_compile(costs)
    with open(path, "w") as f:
        f.write("\n".join(L).rstrip() + "\n")


# --------------------------------------------------------------------- plot

def plot_data(results, tmp):
    """[(scenario, [(impl, .dat path)])]: ns per entity against entities."""
    panels = []
    for scenario in UPDATE_SCENARIOS:
        files = []
        for impl in IMPLS:
            points = [(n, results.get(update_name(scenario, impl, n)))
                      for n in SIZES]
            points = [(n, t) for n, t in points if t is not None]
            if not points:
                continue
            path = os.path.join(tmp, f"{scenario}.{impl}.dat")
            with open(path, "w") as f:
                f.writelines(f"{n} {t / n}\n" for n, t in points)
            files.append((impl, path))
        panels.append((scenario, files))
    return panels


def plot(results, plots_dir):
    os.makedirs(plots_dir, exist_ok=True)
    panels = plot_data(results, tempfile.mkdtemp())
    for term, ext in (("pngcairo size 1400,1000 font 'Sans,11'", "png"),
                      ("svg size 1400,1000 dynamic font 'Sans,11'", "svg")):
        script = [f"set terminal {term}", "set termoption noenhanced",
                  f"set output '{os.path.join(plots_dir, 'update.' + ext)}'",
                  "set multiplot layout 2,2 title 'Strata vs hand-written "
                  "baselines: wall time per entity per update (lower is "
                  "better; log x)'",
                  "set logscale x", "set logscale y", "set grid",
                  "set xrange [0.7:3e6]",
                  "set key top right", "set yrange [*:*]",
                  "set xlabel 'entities'",
                  "set ylabel 'ns per entity (log)'",
                  "set format y '%g'",
                  "set xtics ('1' 1, '1k' 1024, '16k' 16384, '256k' 262144, "
                  "'1M' 1048576, '2M' 2097152)"]
        for scenario, files in panels:
            script.append(f"set title '{scenario[3:]}'")
            if not files:  # keep the 2x2 layout: an empty panel
                script += ["unset logscale y", "set yrange [0:1]",
                           "set label 1 'no results' at graph 0.5,0.5 center",
                           "plot 2 notitle", "unset label 1",
                           "set logscale y", "set yrange [*:*]"]
                continue
            parts = [f"'{p}' using 1:2 with linespoints {PLOT_STYLES[i]} "
                     f"title '{i}'" for i, p in files]
            script.append("plot " + ", ".join(parts))
        script.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(script), text=True,
                       check=True)


# --------------------------------------------------------------------- main

def parse_only(text):
    groups = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown group(s) {', '.join(unknown)}; choose from "
            f"{','.join(GROUPS)}")
    return [g for g in GROUPS if g in groups]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--min-time", default="0.2")
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--quick", action="store_true",
                   help="update/entity: 1 .. 16k entities only")
    p.add_argument("--only", type=parse_only, default=list(GROUPS),
                   metavar="GROUPS",
                   help="comma-separated subset of " + ",".join(GROUPS) +
                   " to run (the others are rendered from stored JSON)")
    p.add_argument("--reuse", action="store_true",
                   help="run nothing (--only is ignored); render from the "
                   "stored JSON")
    p.add_argument("--no-compile-cost", action="store_true")
    # For testing the rendering: where the JSON is read (and written), and
    # where the report and plots go.
    p.add_argument("--results-dir", default=DEFAULT_RESULTS,
                   help=argparse.SUPPRESS)
    p.add_argument("--report", default=DEFAULT_REPORT, help=argparse.SUPPRESS)
    p.add_argument("--plots-dir", default=DEFAULT_PLOTS,
                   help=argparse.SUPPRESS)
    return p.parse_args()


def main():
    args = parse_args()
    results_dir = os.path.abspath(args.results_dir)
    meta_path = os.path.join(results_dir, "run.json")
    if args.reuse:
        meta = upgrade_meta(load_json(meta_path, {}))
        costs = store_compile_costs(results_dir, [])
    else:
        meta = run_selected(args.only, results_dir, args)
        new_costs = [] if args.no_compile_cost else compile_costs(args.only)
        costs = store_compile_costs(results_dir, new_costs)
    results = load_results(results_dir, args.quick)
    plot(results, os.path.abspath(args.plots_dir))
    write_report(os.path.abspath(args.report), os.path.abspath(args.plots_dir),
                 results, meta, costs, args)
    print(os.path.abspath(args.report))


if __name__ == "__main__":
    main()
