"""tools/bench_report.py renders BENCHMARKS.md as a generated report only: it
links to the hand-written benchmarks/ANALYSIS.md ("Known gaps and why") and
does not copy it in. Renders from an empty results directory (every figure
then reads as missing) into a temporary tree."""

import importlib.util
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

    def render(self, report_dir):
        """The report written for a tree whose benchmarks/ANALYSIS.md holds
        SENTINEL, to report_dir/BENCHMARKS.md."""
        bench_report = load_bench_report()
        root = tempfile.mkdtemp()
        os.makedirs(os.path.join(root, "benchmarks"))
        with open(os.path.join(root, "benchmarks", "ANALYSIS.md"), "w") as f:
            f.write("# Known gaps and why\n\n" + SENTINEL + "\n")
        bench_report.ROOT = root
        results_dir = tempfile.mkdtemp()
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


if __name__ == "__main__":
    unittest.main()
