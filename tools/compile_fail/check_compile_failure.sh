#!/usr/bin/env bash
# The test half of cc_compile_fail_test: passes only if the recorded compile
# failed, its output matches the expected regular expression and, if
# MAX_BYTES is given and not 0, the output is at most MAX_BYTES long.
# Usage: check_compile_failure.sh STATUS_FILE OUTPUT_LOG REGEX SOURCE [MAX_BYTES]
set -u
status=$(cat "$1")
log=$2
regex=$3
src=$4
max_bytes=${5:-0}
lines=$(wc -l <"$log")
bytes=$(wc -c <"$log")
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
if [ "$max_bytes" -gt 0 ] && [ "$bytes" -gt "$max_bytes" ]; then
  echo "FAIL: $src failed to compile as expected, but the compiler output is"
  echo "$bytes bytes ($lines lines), more than the $max_bytes allowed: a user"
  echo "would not find the cause. The first 40 lines:"
  head -n 40 "$log"
  exit 1
fi
first_error=$(grep -m1 -E 'error' "$log")
echo "PASS: $src does not compile, as expected ($lines lines, $bytes bytes of compiler output)."
echo "First error: $first_error"
exit 0
