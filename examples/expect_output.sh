#!/bin/bash
# Runs an example binary and compares what it prints (stdout and stderr)
# with an expected-output file, line by line:
#   * a line starting with "re:" is an extended regular expression the whole
#     output line must match (for times, addresses, thread-dependent counts);
#   * any other line must equal the output line exactly.
# The number of lines must match too. On a mismatch it prints both texts and
# fails.
#
#   expect_output.sh BINARY EXPECTED_FILE [ARGS...]
set -uo pipefail

binary=$1
expected=$2
shift 2

actual=$("$binary" "$@" 2>&1)
status=$?
if [[ $status -ne 0 ]]; then
  echo "FAIL: $binary exited with status $status; it printed:"
  echo "$actual"
  exit 1
fi

mapfile -t want <"$expected"
mapfile -t got <<<"$actual"

fail() {
  echo "FAIL: $1"
  echo "--- expected ($expected) ---"
  printf '%s\n' "${want[@]}"
  echo "--- actual ---"
  printf '%s\n' "${got[@]}"
  exit 1
}

if [[ ${#want[@]} -ne ${#got[@]} ]]; then
  fail "expected ${#want[@]} lines, got ${#got[@]}"
fi
for i in "${!want[@]}"; do
  line=${want[$i]}
  if [[ $line == re:* ]]; then
    pattern=${line#re:}
    if ! [[ ${got[$i]} =~ ^${pattern}$ ]]; then
      fail "line $((i + 1)) does not match /${pattern}/: ${got[$i]}"
    fi
  elif [[ "${got[$i]}" != "$line" ]]; then
    fail "line $((i + 1)) differs: expected '$line', got '${got[$i]}'"
  fi
done
echo "PASS: ${#got[@]} lines as expected"
