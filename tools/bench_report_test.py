"""tools/bench_report.py renders BENCHMARKS.md as a generated report only: it
links to the hand-written benchmarks/ANALYSIS.md ("Known gaps and why") and
does not copy it in. Renders from an empty results directory (every figure
then reads as missing) into a temporary tree. The snapshot, change and
MoodycamelPool tables are rendered from small fake Google Benchmark JSON
files; without them each section is one "Not run" line."""

import argparse
import importlib.util
import json
import os
import tempfile
import types
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "bench_report.py")
SENTINEL = "A hand-written paragraph that must not be copied into the report."


def load_bench_report():
    spec = importlib.util.spec_from_file_location("bench_report", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class WriteReportTest(unittest.TestCase):

    def render(self, report_dir, results_files=None):
        """The report written for a tree whose benchmarks/ANALYSIS.md holds
        SENTINEL, to report_dir/BENCHMARKS.md, from a results directory
        holding results_files ({file name: Google Benchmark JSON})."""
        bench_report = load_bench_report()
        root = tempfile.mkdtemp()
        os.makedirs(os.path.join(root, "benchmarks"))
        with open(os.path.join(root, "benchmarks", "ANALYSIS.md"), "w") as f:
            f.write("# Known gaps and why\n\n" + SENTINEL + "\n")
        bench_report.ROOT = root
        results_dir = tempfile.mkdtemp()
        for name, doc in (results_files or {}).items():
            with open(os.path.join(results_dir, name), "w") as f:
                json.dump(doc, f)
        results = bench_report.load_results(results_dir, False)
        args = types.SimpleNamespace(min_time="0.2", repetitions=5,
                                     quick=False)
        path = os.path.join(report_dir or root, "BENCHMARKS.md")
        bench_report.write_report(path, os.path.join(root, "plots"), results,
                                  {}, [], args)
        with open(path) as f:
            return f.read()

    def test_links_to_the_known_gaps_instead_of_copying_them(self):
        report = self.render(None)
        self.assertNotIn(SENTINEL, report)
        self.assertIn("[Known gaps and why](benchmarks/ANALYSIS.md)", report)

    def test_the_link_is_relative_to_where_the_report_is_written(self):
        report_dir = tempfile.mkdtemp()
        report = self.render(report_dir)
        self.assertNotIn(SENTINEL, report)
        self.assertRegex(report, r"\[Known gaps and why\]\([^)]*"
                         r"benchmarks/ANALYSIS\.md\)")
        self.assertNotIn("(benchmarks/ANALYSIS.md)", report)


def run(name, cpu_ns, time_unit="ns", **counters):
    """One Google Benchmark JSON run; real time is set apart from the CPU
    time so that a table showing the wrong one fails."""
    scale = {"ns": 1, "us": 1e3}[time_unit]
    return dict({"name": name, "run_name": name, "run_type": "iteration",
                 "iterations": 10, "real_time": 3 * cpu_ns / scale,
                 "cpu_time": cpu_ns / scale, "time_unit": time_unit},
                **counters)


def benchmark_json(runs):
    return {"context": {"caches": []}, "benchmarks": runs}


# 16k entities only: the other rows read as missing.
SNAPSHOT_RUNS = benchmark_json([
    run("BM_Snapshot_strata/16384", 30e3, "us", bytes_per_second=4e9),
    run("BM_Restore_strata/16384", 40e3, "us", bytes_per_second=3e9),
    run("BM_Snapshot_memcpy/16384", 20e3, "us", bytes_per_second=6e9),
    run("BM_Snapshot_vector_copy/16384", 60e3, "us", bytes_per_second=2e9),
    run("BM_Save_strata/16384", 1e6, "us", bytes_per_second=250e6),
    run("BM_Load_strata/16384", 2e6, "us", bytes_per_second=125e6),
    run("BM_StateHash_strata/16384", 50e3, "us", bytes_per_second=1e9,
        seconds_per_entity=1.5e-9),
])
CHANGE_RUNS = benchmark_json([
    run("BM_SystemsUpdateTracking/untracked/262144", 100e3),
    run("BM_SystemsUpdateTracking/tracked/262144", 125e3),
    run("BM_ChangedOnePercent/baseline_dirty_list/1048576", 40e3),
    run("BM_ChangedOnePercent/strata_1t/1048576", 100e3),
    run("BM_AddComponentHook/baseline/16384", 16384 * 10),
    run("BM_AddComponentHook/strata_no_hook/16384", 16384 * 100),
    run("BM_AddComponentHook/strata_hook/16384", 16384 * 120),
])
HIERARCHY_RUNS = benchmark_json([
    run("BM_Propagate/hand_written/262144", 1e6),
    run("BM_Propagate/strata_1t/262144", 1.2e6),
    run("BM_Propagate/strata_2t/262144/real_time", 0.2e6),  # 600 µs wall
    run("BM_Propagate/strata_1t_parent_query/262144", 1.6e6),
    run("BM_Reparent/strata/262144", 2621 * 500),
    run("BM_ReparentFixed/strata/1048576/4096", 4096 * 500),
])
# 16k entities only; wall time is 3× the CPU time (run()), and the table
# shows wall time.
DAMAGE_RUNS = benchmark_json([
    run("BM_Damage/baseline_direct/16384", 100e3),
    run("BM_Damage/baseline_buffer_1t/16384", 150e3),
    run("BM_Damage/baseline_grouped_1t/16384", 400e3),
    run("BM_Damage/baseline_checked_direct/16384", 160e3),
    run("BM_Damage/baseline_checked_buffer/16384", 200e3),
    run("BM_Damage/baseline_thread_buffers/16384/real_time", 120e3),
    run("BM_Damage/strata_1t/16384", 600e3),
    run("BM_Damage/strata_1t_apply/16384", 300e3),
    run("BM_Damage/strata_2t/16384/real_time", 500e3),
])
THREADING_RUNS = benchmark_json([
    run("BM_Contention_Pool/8/real_time", 1e6, per_task=100e-9),
    run("BM_Contention_MoodycamelPool/8/real_time", 1e6, per_task=150e-9),
    run("BM_HandOff_Pool_Parked/manual_time", 10e3),
    run("BM_HandOff_MoodycamelPool_Parked/manual_time", 5e3),
])


class NewGroupsTest(unittest.TestCase):

    def setUp(self):
        self.bench_report = load_bench_report()
        self.report = WriteReportTest().render(None, {
            "snapshot_benchmark.json": SNAPSHOT_RUNS,
            "change_benchmark.json": CHANGE_RUNS,
            "hierarchy_benchmark.json": HIERARCHY_RUNS,
            "thread_pool_benchmark.json": THREADING_RUNS,
            "damage_benchmark.json": DAMAGE_RUNS,
        })

    def test_only_accepts_the_new_groups(self):
        self.assertEqual(self.bench_report.parse_only("snapshot,change,"
                                                      "threading"),
                         ["threading", "snapshot", "change"])
        with self.assertRaises(argparse.ArgumentTypeError):
            self.bench_report.parse_only("snapshots")

    def test_snapshot_table_shows_cpu_time_rate_and_ratios(self):
        self.assertIn("| 16k | 30.0 µs | 4.00 GB/s | 40.0 µs | 3.00 GB/s | "
                      "20.0 µs | 6.00 GB/s | 60.0 µs | 2.00 GB/s | 1.50× | "
                      "2.00× | 0.50× |", self.report)
        self.assertIn("| 256k | — | — |", self.report)

    def test_save_load_and_state_hash_table(self):
        self.assertIn("| 16k | 250.00 MB/s | 125.00 MB/s | 1.50 ns |",
                      self.report)

    def test_change_tables_show_ratio_to_baseline(self):
        self.assertIn("| 256k | 100.0 µs | 125.0 µs | 1.25× |", self.report)
        self.assertIn("| 1M | 40.0 µs | 100.0 µs | 2.50× |", self.report)

    def test_hook_table_shows_cpu_time_per_add(self):
        self.assertIn("| 16k | 10 ns | 100 ns | 120 ns | 1.20× |",
                      self.report)
        self.assertIn("| 1k | — | — | — | — |", self.report)

    def test_hierarchy_tables(self):
        self.assertIn("| 256k | 1.00 ms | 1.20 ms | 600.0 µs | 1.60 ms | "
                      "1.20× | 0.50× | 1.60× |", self.report)
        self.assertIn("| 256k | 500 ns |", self.report)
        self.assertIn("| 1M | 4096 | 2.05 ms | 500 ns |", self.report)
        self.assertIn("| 16k | 256 | — | — |", self.report)
        self.assertIn("| 1M | — | — |", self.report)

    def test_damage_table_shows_the_checked_limit(self):
        self.assertIn("strata_1t_apply / direct | "
                      "strata_1t_apply / checked_buffer |", self.report)
        self.assertIn("| 16k | 300.0 µs (55 M/s) | 450.0 µs (36 M/s) | "
                      "1.20 ms (14 M/s) | 480.0 µs (34 M/s) | "
                      "600.0 µs (27 M/s) | 360.0 µs (46 M/s) | "
                      "1.80 ms (9 M/s) | 900.0 µs (18 M/s) | "
                      "1.50 ms (11 M/s) | 6.00× | 1.50× | 2.00× | 3.00× | "
                      "1.50× | 0.83× |", self.report)
        self.assertIn("| 256k | — (—) |", self.report)

    def test_moodycamel_pool_beside_pool(self):
        self.assertIn("| contention, 8 threads, per task | 100 ns | 150 ns | "
                      "1.50× |", self.report)
        self.assertIn("| hand-off to a parked worker | 30.0 µs | 15.0 µs | "
                      "0.50× |", self.report)

    def test_groups_without_results_render_one_line(self):
        report = WriteReportTest().render(None)
        for target in ("//benchmarks:snapshot_benchmark",
                       "//benchmarks:change_benchmark",
                       "BM_*_MoodycamelPool"):
            self.assertIn(f"Not run: no results of `{target}`", report)
        self.assertNotIn("snapshot / memcpy", report)
        self.assertNotIn("tracked / untracked", report)


if __name__ == "__main__":
    unittest.main()
