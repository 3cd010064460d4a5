#!/usr/bin/env bash
# The test half of cc_compile_fail_test: passes only if the recorded compile
# failed, its output matches the expected regular expression and every
# further one (each on some line), and, where MAX_BYTES / MAX_LINES are given
# and not 0, the output is at most that long.
# Usage: check_compile_failure.sh STATUS_FILE OUTPUT_LOG REGEX SOURCE
#            [MAX_BYTES [MAX_LINES [MORE_REGEX...]]]
set -u
status=$(cat "$1")
log=$2
regex=$3
src=$4
max_bytes=${5:-0}
max_lines=${6:-0}
shift $(($# < 6 ? $# : 6))
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
for more in "$@"; do
  if ! grep -Eq -- "$more" "$log"; then
    echo "FAIL: $src failed to compile with the expected error, but the output"
    echo "does not also match: $more"
    echo "Compiler output ($lines lines):"
    cat "$log"
    exit 1
  fi
done
if [ "$max_lines" -gt 0 ] && [ "$lines" -gt "$max_lines" ]; then
  echo "FAIL: $src failed to compile as expected, but the compiler output is"
  echo "$lines lines, more than the $max_lines allowed: a user would not find"
  echo "the cause on one screen. The first 40 lines:"
  head -n 40 "$log"
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
