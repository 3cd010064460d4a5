#!/usr/bin/env bash
# The test half of cc_compile_fail_test: passes only if the recorded compile
# failed and its output matches the expected regular expression.
# Usage: check_compile_failure.sh STATUS_FILE OUTPUT_LOG REGEX SOURCE
set -u
status=$(cat "$1")
log=$2
regex=$3
src=$4
lines=$(wc -l <"$log")
if [ "$status" -eq 0 ]; then
  echo "FAIL: $src compiled, but it must not."
  echo "Expected a compile error matching: $regex"
  exit 1
fi
if ! grep -Eq -- "$regex" "$log"; then
  echo "FAIL: $src failed to compile, but not with the expected error."
  echo "Expected a compile error matching: $regex"
  echo "Compiler output ($lines lines):"
  cat "$log"
  exit 1
fi
first_error=$(grep -m1 -E 'error' "$log")
echo "PASS: $src does not compile, as expected ($lines lines of compiler output)."
echo "First error: $first_error"
exit 0
