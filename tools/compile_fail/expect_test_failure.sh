#!/usr/bin/env bash
# Runs a test executable that must fail, and requires its output to say why.
# Usage: expect_test_failure.sh TEST_EXECUTABLE EXPECTED_REASON
set -u
output=$("$1" 2>&1)
code=$?
echo "$output"
if [ "$code" -eq 0 ]; then
  echo "FAIL: $1 passed, but it must fail."
  exit 1
fi
if ! grep -Fq -- "$2" <<<"$output"; then
  echo "FAIL: $1 failed, but without saying: $2"
  exit 1
fi
echo "PASS: $1 failed as it must."
