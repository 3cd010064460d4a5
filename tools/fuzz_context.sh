#!/usr/bin/env bash
# Runs the context's model-based fuzz test (//context:context_fuzz_test) long,
# with a random or given seed, and prints the seed so that a failure can be
# replayed.
#
# Usage: tools/fuzz_context.sh [-s SEED] [-n STEPS] [bazel test options...]
#   -s SEED   base seed (a positive integer); each of the test's variants
#             uses SEED + its number. Default: a random one, printed first.
#   -n STEPS  steps per variant (default: $FUZZ_STEPS, else 20000). A
#             fastbuild runs roughly 2000 steps a second (eight variants of
#             20000 steps: under two minutes); --config=tsan about the same
#             once built.
#   Further arguments go to `bazel test` as they are, e.g. --config=tsan,
#   --config=asan-ubsan or --test_arg=--gtest_filter=*FixedLimit*.
#
# The test reads STRATA_FUZZ_SEED and STRATA_FUZZ_STEPS (passed with
# --test_env; without them `bazel test //...` runs the short fixed-seed
# version). Results are never taken from Bazel's cache; the test log is
# streamed (every variant prints its seed and what it exercised).
#
# Replay a failure with the seed (and step count) it printed:
#   tools/fuzz_context.sh -s SEED -n STEPS [the same bazel options]
# A test that fails names the step and the seed in its failure messages.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

usage() {
  echo "usage: tools/fuzz_context.sh [-s SEED] [-n STEPS] [bazel test options...]" >&2
  exit 2
}

seed=""
steps=${FUZZ_STEPS:-20000}
while [ $# -gt 0 ]; do
  case $1 in
    -s) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
    -n) [ $# -ge 2 ] || usage; steps=$2; shift 2 ;;
    -h | --help) usage ;;
    *) break ;;
  esac
done
if [ -z "$seed" ]; then
  seed=$(( (RANDOM << 15 | RANDOM) + 1 ))
fi
if ! [[ $seed =~ ^[1-9][0-9]{0,8}$ ]]; then
  echo "fuzz_context: SEED must be a positive integer below 10^9, got '$seed'" >&2
  usage
fi
if ! [[ $steps =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz_context: STEPS must be a positive integer, got '$steps'" >&2
  usage
fi

# Generous: sanitizers and a loaded machine are much slower than a fastbuild.
timeout=$((steps * 6 / 50 + 600))

echo "fuzz_context: seed $seed, $steps steps per variant"
bazel test //context:context_fuzz_test \
  --test_env=STRATA_FUZZ_SEED="$seed" --test_env=STRATA_FUZZ_STEPS="$steps" \
  --test_output=streamed --nocache_test_results --test_timeout="$timeout" \
  "$@"
status=$?

if [ "$status" -ne 0 ]; then
  echo "fuzz_context: FAILED with seed $seed ($steps steps); replay with:" >&2
  echo "  tools/fuzz_context.sh -s $seed -n $steps $*" >&2
  exit 1
fi
echo "fuzz_context: passed (seed $seed, $steps steps per variant)"
