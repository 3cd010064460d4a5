#!/usr/bin/env bash
# Repeats Strata's concurrency tests under ThreadSanitizer to shake out rare
# races and flakes that a single CI run would miss.
#
# Usage: tools/stress.sh [N] [--long] [bazel test options...]
#   N       runs per test target (default: $STRESS_RUNS, else 10). Each run is
#           a fresh process: bazel test --config=tsan --runs_per_test=N.
#   --long  the long random-DAG stress: the scheduler determinism tests
#           (//context:scheduler_determinism_*) run $STRESS_STEPS steps
#           (default 1000) for each of $STRESS_SEEDS churn seeds (default 4)
#           instead of their short `bazel test` run, at every thread count
#           from 1 to 65 under both schedulers (passed to the tests as
#           STRATA_STRESS_STEPS and STRATA_STRESS_SEEDS).
#   Further arguments go to `bazel test` as they are, e.g. --config=clang or
#   --local_test_jobs=1.
#
# The targets are every test tagged "concurrency" (tags = ["concurrency"] in
# its BUILD.bazel rule): tag any new test that starts threads and it is
# stressed too. Test results are never taken from Bazel's cache.
#
# Prints one line per target (runs passed out of N, logs of failed runs), the
# ThreadSanitizer reports and suppression matches seen in the logs, and ends
# with "stress: N passed, N failed" counting runs. Exits non-zero if a run
# failed, a target did not build, or no target was found.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

runs=${STRESS_RUNS:-10}
if [ $# -gt 0 ] && [[ $1 != -* ]]; then
  runs=$1
  shift
fi
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "stress: N must be a positive integer, got '$runs'" >&2
  echo "usage: tools/stress.sh [N] [--long] [bazel test options...]" >&2
  exit 2
fi
long=()
if [ $# -gt 0 ] && [ "$1" = --long ]; then
  shift
  steps=${STRESS_STEPS:-1000}
  seeds=${STRESS_SEEDS:-4}
  if ! [[ $steps =~ ^[1-9][0-9]*$ && $seeds =~ ^[1-9][0-9]*$ ]]; then
    echo "stress: STRESS_STEPS and STRESS_SEEDS must be positive integers" >&2
    exit 2
  fi
  # Generous: 65 threads under ThreadSanitizer on a loaded machine.
  long=(--test_env=STRATA_STRESS_STEPS="$steps"
        --test_env=STRATA_STRESS_SEEDS="$seeds"
        --test_timeout=$((steps * seeds * 3 + 900)))
  echo "stress: long random-DAG runs: $steps steps x $seeds seeds"
fi

query='attr(tags, "\bconcurrency\b", tests(//...))'
if ! targets=$(bazel query --noshow_progress "$query" 2>/dev/null | sort); then
  echo "stress: bazel query '$query' failed" >&2
  exit 1
fi
if [ -z "$targets" ]; then
  echo "stress: no test is tagged \"concurrency\"" >&2
  exit 1
fi
count=$(wc -l <<<"$targets")
echo "stress: $count targets x $runs runs under ThreadSanitizer:"
while read -r target; do echo "  $target"; done <<<"$targets"

# Build first, so that the test phase's wall time measures the runs alone.
start=$(date +%s)
# shellcheck disable=SC2086  # one target per word
bazel build --config=tsan "$@" -- $targets
status=$?
built=$(date +%s)
if [ "$status" -ne 0 ]; then
  echo "stress: the targets did not build (bazel build exit status $status)" >&2
  echo "stress: 0 passed, $((count * runs)) failed"
  exit 1
fi
echo "stress: build took $((built - start))s"

events=$(mktemp)
trap 'rm -f "$events"' EXIT
# shellcheck disable=SC2086
bazel test --config=tsan --runs_per_test="$runs" --nocache_test_results \
  --build_event_json_file="$events" "${long[@]}" "$@" -- $targets
status=$?
elapsed=$(($(date +%s) - built))

# Per-run results from the build event protocol (one testResult per run).
python3 - "$events" "$runs" "$elapsed" <<'EOF'
import json, os, re, sys
from urllib.parse import unquote, urlparse

events_path, runs, elapsed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
results = {}       # label -> list of (run, status, log path)
built = {}         # label -> whether it built
for line in open(events_path):
    event = json.loads(line)
    ident = event.get("id", {})
    if "testResult" in ident and "testResult" in event:
        label = ident["testResult"]["label"]
        log = ""
        for out in event["testResult"].get("testActionOutput", []):
            if out.get("name") == "test.log":
                log = unquote(urlparse(out.get("uri", "")).path)
        results.setdefault(label, []).append(
            (ident["testResult"].get("run", 1),
             event["testResult"].get("status", "NO_STATUS"), log))
    elif "targetCompleted" in ident:
        label = ident["targetCompleted"]["label"]
        built[label] = event.get("completed", {}).get("success", False)

passed = failed = reports = suppressed = 0
lines = []
for label in sorted(set(results) | set(built)):
    rs = sorted(results.get(label, []))
    ok = sum(1 for _, status, _ in rs if status == "PASSED")
    bad = [(r, status, log) for r, status, log in rs if status != "PASSED"]
    missing = runs - len(rs)  # did not build or did not run
    passed += ok
    failed += len(bad) + missing
    target_reports = target_suppressed = 0
    for _, _, log in rs:
        if log and os.path.exists(log):
            text = open(log, errors="replace").read()
            target_reports += text.count("WARNING: ThreadSanitizer:")
            target_suppressed += sum(
                int(n) for n in re.findall(
                    r"ThreadSanitizer: Matched (\d+) suppressions", text))
    reports += target_reports
    suppressed += target_suppressed
    verdict = "PASS" if not bad and not missing else "FAIL"
    extra = []
    if target_reports:
        extra.append(f"{target_reports} TSAN reports")
    if target_suppressed:
        extra.append(f"{target_suppressed} suppressed")
    if missing and not built.get(label, True):
        extra.append("did not build")
    elif missing:
        extra.append(f"{missing} runs without a result")
    lines.append(f"  {verdict} {ok:>4}/{runs}  {label}"
                 + (f"  ({', '.join(extra)})" if extra else ""))
    for r, status, log in bad:
        # bazel-testlogs points at the tsan tree after this run.
        shown = "bazel-testlogs/" + log.split("/testlogs/", 1)[1] \
            if "/testlogs/" in log else log
        lines.append(f"         run {r}: {status}  {shown}")

minutes, seconds = divmod(elapsed, 60)
print()
print(f"stress summary: {runs} runs per target in {minutes}m{seconds:02d}s "
      f"(wall time of the test phase; about {elapsed / runs:.0f}s per "
      f"repetition of the whole set):")
print("\n".join(lines) if lines else "  (no test results: see above)")
print(f"  ThreadSanitizer: {reports} reports, {suppressed} suppressed matches")
print(f"stress: {passed} passed, {failed} failed")
sys.exit(1 if failed or not lines else 0)
EOF
summary_status=$?

if [ "$status" -ne 0 ] || [ "$summary_status" -ne 0 ]; then
  echo "stress: FAILED (bazel test exit status $status)" >&2
  exit 1
fi
echo "stress: all runs passed"
