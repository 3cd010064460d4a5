#!/usr/bin/env bash
# Runs a compiler command that is expected to fail, without failing the build:
# records its combined output and exit status for the test to inspect.
# Usage: run_compiler.sh OUTPUT_LOG STATUS_FILE COMPILER ARGS...
set -u
log=$1
status=$2
shift 2
"$@" >"$log" 2>&1
echo $? >"$status"
exit 0
